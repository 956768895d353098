import type { Page } from 'playwright';
import { CHANGE_LOG_JS } from './pageChanges.js';
import { remainingMs, type Deadline } from '../progress/deadline.js';

/** A region of the page as a wait saw it: where it is and what it showed. */
export type PageRegion = {
  path: string;
  text?: string;
  visible: boolean;
  attrs?: Record<string, string>;
  /** The number in its text only went this way while it was watched (a progress): once past the wanted value, it will not come back. */
  trend?: 'up' | 'down';
};

/** At most this many regions stand for one wait: the ones that read as values come first. */
export const MAX_WAIT_REGIONS = 6;
/** A region's text up to this long is a reading (76%, "Data loaded"); longer, it is a section whose appearance counts, not its words. */
export const MAX_REGION_TEXT = 80;

/** Attributes that hold a state a person could wait for; style and class churn with every animation. */
const STATE_ATTRIBUTES = ['aria-valuenow', 'aria-valuetext', 'value', 'aria-checked', 'aria-selected', 'aria-expanded', 'aria-busy', 'aria-disabled', 'disabled', 'hidden', 'checked', 'open'];

/** Shared by capture and match: where an element is, what it shows. */
const REGION_JS = String.raw`
  var cleanText = function (s) { return String(s == null ? '' : s).replace(/\s+/g, ' ').trim(); };
  var shown = function (el) {
    if (!el || !el.isConnected) return false;
    var r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    return typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true }) : true;
  };
  var readText = function (el) { var t = cleanText(el.innerText !== undefined ? el.innerText : el.textContent); return t.length <= ${MAX_REGION_TEXT} ? t : null; };
  // A number as people write it: 5,000 and 1.234,5 are grouped; the first number of a text is its reading.
  var NUMBER = /-?\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+(?:[.,]\d+)?(?!\d)|-?\d+(?:[.,]\d+)?/;
  var numberIn = function (text) {
    var m = NUMBER.exec(text);
    if (!m) return null;
    var s = m[0], grouped = /^-?\d{1,3}[,.\u00a0\u202f ]\d{3}/.exec(s);
    if (grouped) s = s.split(grouped[0].charAt(grouped[0].length - 4)).join('');
    return Number(s.replace(',', '.'));
  };
  var shape = function (text) { return text.replace(NUMBER, '#'); };
  var stableId = function (id) { return !!id && !/\d{4,}|[0-9a-f]{8,}|^(ember|react|ng-|mui|radix|headlessui|:r)/i.test(id) && !/^:/.test(id); };
  var pathOf = function (el) {
    var parts = [];
    for (var at = el; at && at.nodeType === 1 && at !== document.body && at !== document.documentElement; at = at.parentElement) {
      if (stableId(at.id) && document.querySelectorAll('#' + CSS.escape(at.id)).length === 1) { parts.unshift('#' + CSS.escape(at.id)); return parts.join(' > '); }
      var index = 1;
      for (var sibling = at.previousElementSibling; sibling; sibling = sibling.previousElementSibling) if (sibling.tagName === at.tagName) index++;
      parts.unshift(at.tagName.toLowerCase() + ':nth-of-type(' + index + ')');
    }
    parts.unshift('body');
    return parts.join(' > ');
  };`;

/**
 * Runs in the page: the regions that changed since `since` (epoch ms), as they are now. Leaves
 * only (a container whose child changed stands for nothing more than the child), the page's own
 * motion left out: a region that came back to a text it showed before (a rotating banner, spinner
 * frames), a clock, a "5 minutes ago".
 */
const CHANGED_SINCE = `(function (since, trigger, near, attributes) {
  ${CHANGE_LOG_JS}
  ${REGION_JS}
  var state = __roteChanges();
  // What was already changing before the step that started the wait (a countdown, a ticker) is
  // the page's own motion. On a document first seen since then, what kept changing over a second
  // of the wait is taken for that too.
  var before = new Set(), times = new Map();
  var firstLook = state.installedAt >= trigger;
  for (var i = 0; i < state.events.length; i++) {
    var e = state.events[i];
    // The document's arrival (a log begun at load, before rote's first question) is no ticker.
    if (e.t < trigger) { if (!(e.t < state.listenedAt)) before.add(e.el); continue; }
    if (e.t < since) continue;
    var seen = times.get(e.el);
    if (!seen) times.set(e.el, seen = []);
    if (seen[seen.length - 1] !== e.t) seen.push(e.t);
  }
  var changed = [];
  times.forEach(function (seen, el) {
    if (before.has(el)) return;
    if (firstLook && seen.length >= 3 && seen[seen.length - 1] - seen[0] >= 1000) return;
    if (el.isConnected && !/^(HTML|HEAD|BODY|SCRIPT|STYLE|NOSCRIPT|TITLE|META|LINK|TEMPLATE)$/.test(el.tagName)) changed.push(el);
  });
  changed = changed.filter(function (el) { return !changed.some(function (other) { return other !== el && el.contains(other); }); });
  var now = new Date();
  var clockLike = function (text) {
    var m = /\\b(\\d{1,2}):(\\d{2})(?::\\d{2})?\\s*(am|pm)?\\b/i.exec(text);
    if (!m) return false;
    var hours = m[3] ? Number(m[1]) % 12 + (/pm/i.test(m[3]) ? 12 : 0) : Number(m[1]), minutes = Number(m[2]);
    var diff = Math.abs((hours * 60 + minutes) - (now.getHours() * 60 + now.getMinutes()));
    return Math.min(diff, 1440 - diff) <= 2;
  };
  var relative = function (text) { return /\\b(just now|\\d+\\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\\s+ago)\\b/i.test(text); };
  var regions = [];
  for (var k = 0; k < changed.length; k++) {
    var el = changed[k], info = state.info.get(el) || { texts: [], attrs: {} };
    var text = readText(el);
    var texts = info.texts, current = texts[texts.length - 1];
    if (current !== undefined && texts.slice(0, -1).indexOf(current) >= 0) continue;
    if (text && (clockLike(text) || relative(text))) continue;
    var region = { path: pathOf(el), visible: shown(el) };
    if (text !== null && region.visible) region.text = text;
    var attrs = {}, any = false;
    for (var a = 0; a < attributes.length; a++) {
      if (!info.attrs[attributes[a]]) continue;
      var value = el.getAttribute(attributes[a]);
      attrs[attributes[a]] = value === null ? '' : value; any = true;
    }
    if (any) region.attrs = attrs;
    if (region.text) {
      var readings = texts.filter(function (t) { return shape(t) === shape(region.text); }).map(numberIn).filter(function (n) { return n !== null; });
      var up = readings.length >= 3, down = readings.length >= 3;
      for (var n = 1; n < readings.length; n++) { up = up && readings[n] > readings[n - 1]; down = down && readings[n] < readings[n - 1]; }
      if (up) region.trend = 'up'; else if (down) region.trend = 'down';
    }
    var r = el.getBoundingClientRect();
    region.distance = near ? Math.hypot(r.x + r.width / 2 - near.x, r.y + r.height / 2 - near.y) : 0;
    regions.push(region);
  }
  regions.sort(function (a, b) { return (b.text ? 1 : 0) - (a.text ? 1 : 0) || a.distance - b.distance; });
  return regions.slice(0, ${MAX_WAIT_REGIONS}).map(function (r) { delete r.distance; return r; });
})`;

/**
 * The regions that changed since `since` (epoch ms) and not before `trigger` (when the step that
 * started the wait began), in the state they show now; nearest `near` first.
 */
export async function changedSince(page: Page, since: number, trigger: number, near: { x: number; y: number } | undefined): Promise<PageRegion[]> {
  const found = await page.evaluate(`${CHANGED_SINCE}(${since}, ${trigger}, ${JSON.stringify(near ?? null)}, ${JSON.stringify(STATE_ATTRIBUTES)})`).catch(() => []);
  return Array.isArray(found) ? (found as PageRegion[]) : [];
}

/**
 * Runs in the page: resolves as soon as every region shows its wanted state (checked on every DOM
 * change, so a state a process passes through is not missed), or a moving value went past it, or
 * after `sliceMs`, with what the first region that differs shows.
 */
const REGIONS_SHOW = `(function (wanted, sliceMs) {
  ${REGION_JS}
  var differs = function () {
    for (var i = 0; i < wanted.length; i++) {
      var w = wanted[i], el = document.querySelector(w.path);
      var visible = shown(el);
      if (visible !== w.visible) return { index: i, now: el ? (visible ? 'shown' : 'hidden') : 'absent' };
      if (w.text !== undefined && (!el || readText(el) !== w.text)) {
        var live = el ? readText(el) || '' : null, passed = false;
        if (live !== null && w.trend && shape(live) === shape(w.text)) {
          var got = numberIn(live), want = numberIn(w.text);
          passed = got !== null && want !== null && (w.trend === 'up' ? got > want : got < want);
        }
        return { index: i, now: live === null ? 'absent' : JSON.stringify(live), passed: passed };
      }
      if (w.attrs) for (var name in w.attrs) {
        var value = el ? el.getAttribute(name) : null;
        if ((value === null ? '' : value) !== w.attrs[name]) return { index: i, now: name + '=' + JSON.stringify(value === null ? '' : value) };
      }
    }
    return null;
  };
  return new Promise(function (resolve) {
    var first = differs();
    if (!first || first.passed) return resolve(first);
    var done = false;
    var finish = function (value) { if (done) return; done = true; observer.disconnect(); clearTimeout(timer); resolve(value); };
    // Shown: act now. Gone past: it is not coming, say so now.
    var observer = new MutationObserver(function () { var now = differs(); if (!now || now.passed) finish(now); });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    var timer = setTimeout(function () { finish(differs()); }, sliceMs);
  });
})`;

export type RegionDiffers = { index: number; now: string; /** A moving value went past the wanted one: it will not come. */ passed?: boolean };

/** null when every region shows its state now or within `sliceMs`; else which one differs and what it shows. */
export async function regionsShow(page: Page, wanted: readonly PageRegion[], slice: Deadline): Promise<RegionDiffers | null> {
  const sliceMs = remainingMs(slice);
  try {
    return (await page.evaluate(`${REGIONS_SHOW}(${JSON.stringify(wanted)}, ${Math.max(0, Math.round(sliceMs))})`)) as RegionDiffers | null;
  } catch {
    // The page is navigating: nothing is shown yet.
    return { index: 0, now: 'a page that is loading' };
  }
}

/** `#progress to show "76%"`, for messages. */
export function describeRegion(region: PageRegion): string {
  const states = [
    region.text !== undefined ? `show ${JSON.stringify(region.text)}` : undefined,
    ...Object.entries(region.attrs ?? {}).map(([name, value]) => `have ${name}=${JSON.stringify(value)}`),
    region.text === undefined ? (region.visible ? 'be shown' : 'be hidden') : undefined,
  ].filter(Boolean);
  return `${region.path} to ${states.join(' and ')}`;
}
