import type { Disposable, Page } from 'playwright';
import { raceDeadline, type Deadline } from '../progress/deadline.js';
import { FORM_OF_JS, READ_FORM_JS } from './formState.js';

/**
 * In-page JavaScript: `__roteChanges()` installs, once per document, one MutationObserver that
 * logs which elements change and when (a bounded ring of events), what short text each showed over
 * time, and which attributes of each changed. Settling reads it to wait only for changes an action
 * caused, and recording reads it to learn what a wait waited for. Source text, not a TS function
 * (see perform.ts).
 */
export const CHANGE_LOG_JS = String.raw`
  var __roteChanges = function (observeOnly) {
    var state = window.__roteChangeLog;
    if (!state) state = __roteObserve();
    if (!observeOnly && !state.listening) __roteListen(state);
    return state;
  };
  // The log of changes alone: what settling's quiet period reads. Installed at a new document's
  // DOMContentLoaded during a run (ChangeLogAtLoad), or at rote's first question.
  var __roteObserve = function () {
    var state = window.__roteChangeLog = { events: [], seq: 0, info: new WeakMap(), installedAt: Date.now(), atLoad: false, listening: false, leaving: false, submits: [], formsAsFound: new WeakMap(), touched: new WeakSet() };
    var note = function (el, t, attribute) {
      if (!el || el.nodeType !== 1) return;
      // Counted apart from the bounded ring: whether anything at all changed between two looks.
      state.seq++;
      state.events.push({ el: el, t: t });
      if (state.events.length > 4000) state.events.splice(0, 1000);
      var info = state.info.get(el);
      if (!info) { info = { texts: [], attrs: {} }; state.info.set(el, info); }
      if (attribute) info.attrs[attribute] = true;
      // What it read, for telling a cycle (a rotating banner, spinner frames) from a process moving on.
      if (el.childElementCount <= 8) {
        var text = String(el.textContent || '').replace(/\s+/g, ' ').trim();
        if (text.length <= 200 && info.texts[info.texts.length - 1] !== text) { info.texts.push(text); if (info.texts.length > 24) info.texts.shift(); }
      }
    };
    // Playwright hides the caret for every screenshot by setting caret-color on each field and
    // putting it back: rote's own captures are not the page changing.
    var withoutCaret = function (style) { return String(style || '').replace(/caret-color\s*:[^;]*;?/gi, '').replace(/\s+/g, ' ').trim(); };
    new MutationObserver(function (records) {
      var t = Date.now();
      for (var i = 0; i < records.length; i++) {
        var r = records[i];
        if (r.type === 'attributes' && r.attributeName === 'style' && withoutCaret(r.oldValue) === withoutCaret(r.target.getAttribute('style'))) continue;
        note(r.target.nodeType === 1 ? r.target : r.target.parentElement, t, r.type === 'attributes' ? r.attributeName : null);
        if (r.type === 'childList') for (var j = 0; j < r.addedNodes.length; j++) note(r.addedNodes[j], t, null);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true });
    return state;
  };
  // What the run's input meets: listened for only from rote's first question on, never from a
  // document's load, so that a page's own focus, input or change events at load (an autofocus, a
  // restored draft) are not taken for the run's first input or for controls the run set.
  var __roteListen = function (state) {
    state.listening = true;
    // A log begun at load has seen the document arrive (what its DOMContentLoaded listeners wrote):
    // that is not the page's own motion. Changes before this moment count for settling's first
    // quiet period only; the texts and attributes each element showed are kept from here on, and
    // what changed before it is no ticker (settle.ts, waitRegions.ts), as when the log began here.
    state.listenedAt = Date.now();
    if (state.atLoad) state.info = new WeakMap();
    // Fired synchronously when a click or submit starts leaving the document, before any request.
    window.addEventListener('beforeunload', function () { state.leaving = true; });
    // A form's submission is dispatched inside the click (or Enter) that submits it, and its
    // navigation comes in a task queued after: settling that looks before that task reads these.
    // A form as the run found it: its controls' states read at the first input that reaches it
    // (a press, a key, a focus, before any of it lands), so what the run and the page's answers
    // to it set later is not in it (formState.ts compares it before the form is sent).
    var formOf = new WeakMap();
    var firstTouch = function (event) {
      var el = event.composedPath ? event.composedPath()[0] : event.target;
      if (!el || el.nodeType !== 1) return;
      // Which form an element is in, asked once per element: keys come one by one.
      if (!formOf.has(el)) formOf.set(el, el.closest ? (${FORM_OF_JS})(el) : null);
      var form = formOf.get(el);
      if (form && !state.formsAsFound.has(form)) state.formsAsFound.set(form, (${READ_FORM_JS})(form));
    };
    ['pointerdown', 'mousedown', 'keydown', 'focusin', 'beforeinput', 'input', 'change'].forEach(function (type) { window.addEventListener(type, firstTouch, true); });
    // Controls the run's input set (an input or change reached them; a click on an ARIA switch):
    // what they were found holding says nothing of what is sent. A page's script sets neither.
    var touch = function (event) {
      var el = event.composedPath ? event.composedPath()[0] : event.target;
      if (!el || el.nodeType !== 1) return;
      if (event.type === 'click') el = el.closest && el.closest('[role=switch], [role=checkbox], [role=radio]');
      if (el) state.touched.add(el);
    };
    ['input', 'change', 'click'].forEach(function (type) { window.addEventListener(type, touch, true); });
    window.addEventListener('submit', function (event) { state.seq++; state.submits.push({ t: Date.now(), event: event }); if (state.submits.length > 50) state.submits.shift(); }, true);
  };`;

/** Installs the change log on the current document (settling installs it on every new one). */
export async function watchChanges(page: Page): Promise<void> {
  await page.evaluate(`(function () { ${CHANGE_LOG_JS} __roteChanges(); })()`).catch(() => undefined);
}

/**
 * The change log of every new top-level document of a run's page, begun at its DOMContentLoaded
 * (ahead of the page's own listeners for it) instead of when settling first asks: settling waits
 * a full quiet period on a document it has seen nothing of (settle.ts), and that period now runs
 * from the moment the document was parsed, with whatever the page's scripts change from then in
 * the log, instead of from Node's first question, which came 20 to 70 ms later while the new
 * document readied (traced on the claim wizard's pages). Only the log of changes: the listeners
 * for the run's input (the form as found, the controls the run set, submits, leaving) are added
 * at rote's first question, as ever, so a page's own events at load are not taken for the run's.
 */
const AT_CONTENT_LOADED = `(function () {
  if (window !== window.top) return;
  document.addEventListener('DOMContentLoaded', function () {
    try { ${CHANGE_LOG_JS} if (!window.__roteChangeLog) __roteChanges(true).atLoad = true; } catch (e) {}
  }, { once: true });
})()`;

/**
 * The init scripts of one run (`page.addInitScript`, one a window the run works in), each taken
 * off when the run ends: nothing of rote stays on a page it hands back. A window the run meets
 * after it ended (its steps cut off by the deadline still running) gets none.
 */
export class ChangeLogAtLoad {
  private readonly scripts = new Map<Page, Promise<Disposable | undefined>>();
  private over = false;

  /**
   * Every new document of `page` keeps the change log from its DOMContentLoaded, once this
   * resolves. A run does not wait for it: until it is in place, a document's log begins at the
   * first question, as it always did. Never fails.
   */
  async watch(page: Page): Promise<void> {
    if (this.over) return;
    let script = this.scripts.get(page);
    if (!script) {
      script = page.addInitScript({ content: AT_CONTENT_LOADED }).catch(() => undefined);
      this.scripts.set(page, script);
    }
    await script;
  }

  /**
   * Takes every script off again, waiting no longer than `deadline`: a page that does not answer
   * (a frozen renderer) is not the run's to wait for, and has its script taken off when it answers.
   */
  async end(deadline: Deadline): Promise<void> {
    this.over = true;
    const removing = [...this.scripts].map(([page, script]) => script.then((added) => (added && !page.isClosed() ? added.dispose() : undefined)).catch(() => undefined));
    this.scripts.clear();
    await raceDeadline(deadline, Promise.all(removing), () => undefined);
  }
}
