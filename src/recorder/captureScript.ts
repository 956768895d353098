/**
 * Runs in every document of the recorded page (an init script, so it survives navigations, and
 * once in the document already there). It holds the person's trusted input back from the page,
 * reports it to rote through a binding, and lets through only the input the engine is about to
 * send (see expectedInput.ts). It also draws the "Finish recording" control, shown only while rote
 * waits for the person, so it is never in a screenshot the engine takes.
 *
 * Plain JavaScript in a string, not a TypeScript function: esbuild's keepNames wraps functions in
 * `__name(...)`, which does not exist in the page.
 */
export const CAPTURE_BINDING = '__roteRecorderReport';

export const CAPTURE_SCRIPT = String.raw`(function () {
  if (window.__roteRecorder) return;
  var BINDING = '${CAPTURE_BINDING}';
  var isTop = window === window.top;
  var doc = Math.random().toString(36).slice(2) + Date.now().toString(36);
  var active = true;
  var armed = false;
  var expect = { points: [], wheels: [], keys: [] };
  var sequence = null;
  var blockedKeys = {};
  var host = null, bar = null, previewBox = null, finishButton = null;
  var lastFrameNotice = 0;
  var sent = 0;
  // A click was reported and not yet performed: the focus the page shows is about to change.
  var pointerPending = false;
  var lastEngineKeyAt = 0;
  // The key the engine's expectations let through last, and how many of the person's keys came since.
  var lastPass = null;

  var INTERACTIVE = 'button,a[href],input,select,textarea,summary,option,label,[contenteditable=""],[contenteditable="true"],' +
    '[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],' +
    '[role=textbox],[role=combobox],[role=gridcell],[role=treeitem],[role=menuitemcheckbox],[role=menuitemradio]';
  var MODIFIERS = { Shift: 1, Control: 1, Alt: 1, Meta: 1, AltGraph: 1, CapsLock: 1, NumLock: 1, ScrollLock: 1, Fn: 1, FnLock: 1, Hyper: 1, Super: 1, OS: 1 };
  var SELECT_KEYS = { ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1, ArrowRight: 1, Home: 1, End: 1, PageUp: 1, PageDown: 1 };
  var PICKER_TYPES = { date: 1, time: 1, 'datetime-local': 1, month: 1, week: 1, color: 1, file: 1 };

  function send(message) {
    message.doc = doc;
    var binding = window[BINDING];
    if (typeof binding !== 'function') return Promise.resolve(null);
    try { return Promise.resolve(binding(message)).catch(function () { return null; }); } catch (e) { return Promise.resolve(null); }
  }
  function report(input) { sent++; send({ input: input }); }
  function stop(e) { e.preventDefault(); e.stopImmediatePropagation(); }
  function clean(text) { return String(text == null ? '' : text).replace(/\s+/g, ' ').trim(); }
  function short(text) {
    var t = clean(text).replace(/\s*[:*]+$/, '');
    return t.length > 60 ? t.slice(0, 59) + '\u2026' : t;
  }
  function deepFocus() {
    var el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el;
  }
  function interactive(node) {
    var el = node;
    while (el && el.nodeType !== 1) el = el.parentNode;
    if (!el || !el.closest) return el || null;
    var hit = el.closest(INTERACTIVE) || el;
    if (hit.tagName === 'LABEL' && hit.control) return hit.control;
    return hit;
  }
  function textOf(el) { return clean(el.innerText || el.textContent); }
  function nameOf(el) {
    var ids = el.getAttribute('aria-labelledby');
    if (ids) {
      var by = clean(ids.split(/\s+/).map(function (id) { var n = document.getElementById(id); return n ? textOf(n) : ''; }).join(' '));
      if (by) return by;
    }
    if (clean(el.getAttribute('aria-label'))) return clean(el.getAttribute('aria-label'));
    var tag = el.tagName.toLowerCase();
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      var type = (el.getAttribute('type') || '').toLowerCase();
      if (tag === 'input' && /^(submit|button|reset)$/.test(type)) return clean(el.value) || (type === 'submit' ? 'Submit' : '');
      if (tag === 'input' && type === 'image') return clean(el.getAttribute('alt'));
      if (el.labels && el.labels.length) return clean(Array.prototype.map.call(el.labels, textOf).join(' '));
      return clean(el.getAttribute('title')) || clean(el.getAttribute('placeholder')) || clean(el.getAttribute('name'));
    }
    if (tag === 'img') return clean(el.getAttribute('alt')) || clean(el.getAttribute('title'));
    if (tag === 'html' || tag === 'body') return '';
    return textOf(el) || clean(el.getAttribute('title'));
  }
  function roleOf(el) {
    var role = el.getAttribute('role');
    if (role) return role.split(/\s+/)[0];
    var tag = el.tagName.toLowerCase();
    if (tag === 'a') return el.hasAttribute('href') ? 'link' : 'generic';
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'select') return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'option') return 'option';
    if (tag === 'img') return 'img';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'input') {
      var type = (el.getAttribute('type') || 'text').toLowerCase();
      return { checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button', reset: 'button', image: 'button', range: 'slider', number: 'spinbutton', search: 'searchbox' }[type] || 'textbox';
    }
    if (el.isContentEditable) return 'textbox';
    return 'generic';
  }
  function describe(el) {
    if (!el || el.nodeType !== 1) return { tag: '', type: null, role: '', name: '', checked: null, editable: false, multiline: false, secret: false };
    var tag = el.tagName.toLowerCase();
    var type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : null;
    var checkable = type === 'checkbox' || type === 'radio';
    var textInput = tag === 'input' && !/^(checkbox|radio|submit|button|reset|image|file|color|range|hidden)$/.test(type);
    return {
      tag: tag, type: type, role: roleOf(el), name: short(nameOf(el)),
      checked: checkable ? !!el.checked : (el.getAttribute('aria-checked') === 'true' ? true : el.getAttribute('aria-checked') === 'false' ? false : null),
      editable: textInput || tag === 'textarea' || !!el.isContentEditable,
      multiline: tag === 'textarea' || !!el.isContentEditable,
      secret: type === 'password'
    };
  }
  function origin(e) { var path = e.composedPath ? e.composedPath() : []; return path.length ? path[0] : e.target; }
  function inOverlay(e) { return host !== null && e.composedPath && e.composedPath().indexOf(host) >= 0; }
  function takeNear(list, x, y) {
    for (var i = 0; i < list.length; i++) {
      if (Math.abs(list[i].x - x) <= 1.5 && Math.abs(list[i].y - y) <= 1.5) { list.splice(i, 1); return true; }
    }
    return false;
  }
  function frameNotice() {
    var now = Date.now();
    if (now - lastFrameNotice < 3000) return;
    lastFrameNotice = now;
    report({ kind: 'unsupported', what: 'input inside a frame (it was blocked)' });
  }

  // The overlay: a shadow root, so neither the page's CSS nor its scripts reach into it.
  function ensureOverlay() {
    if (!isTop || !document.documentElement) return false;
    if (!host) {
      host = document.createElement('rote-recorder');
      var shadow = host.attachShadow({ mode: 'open' });
      shadow.innerHTML = '<style>' +
        '.bar { position: fixed; right: 12px; bottom: 12px; display: flex; align-items: center; gap: 8px; padding: 6px 8px 6px 10px;' +
        ' font: 13px/1.2 system-ui, sans-serif; color: #fff; background: #1b1b1f; border-radius: 8px; box-shadow: 0 2px 10px rgba(0,0,0,.35); }' +
        '.dot { width: 9px; height: 9px; border-radius: 50%; background: #e5484d; }' +
        'button { font: inherit; color: #1b1b1f; background: #fff; border: 0; border-radius: 5px; padding: 4px 10px; cursor: pointer; }' +
        '.preview { position: fixed; display: none; pointer-events: none; opacity: .92; max-width: 60vw; overflow: hidden; white-space: pre; padding: 2px 6px;' +
        ' font: 13px/1.3 ui-monospace, monospace; color: #000; background: #fffbe6; border: 1px solid #d4b000; border-radius: 4px; }' +
        '</style><div class="bar"><span class="dot"></span><span>Recording</span>' +
        '<button type="button" tabindex="-1">Finish recording</button></div><div class="preview"></div>';
      bar = shadow.querySelector('.bar');
      finishButton = shadow.querySelector('button');
      previewBox = shadow.querySelector('.preview');
      host.style.cssText = 'all: initial !important; position: fixed !important; z-index: 2147483647 !important; display: none !important;';
    }
    if (!host.isConnected) document.documentElement.appendChild(host);
    return true;
  }
  function render(preview) {
    if (!isTop) return;
    if (!armed || !active) {
      if (host) host.style.setProperty('display', 'none', 'important');
      return;
    }
    if (!ensureOverlay()) return;
    host.style.setProperty('display', 'block', 'important');
    if (preview) {
      previewBox.textContent = preview + '\u258f';
      var at = deepFocus();
      var r = at && at.getBoundingClientRect ? at.getBoundingClientRect() : { left: 12, bottom: 12, top: 12 };
      var top = r.bottom + 4;
      if (top > window.innerHeight - 30) top = Math.max(0, r.top - 26);
      previewBox.style.left = Math.max(0, r.left) + 'px';
      previewBox.style.top = top + 'px';
      previewBox.style.display = 'block';
    } else {
      previewBox.style.display = 'none';
    }
  }
  function apply(state) {
    if (!state) return doc;
    active = !!state.active;
    armed = !!state.armed;
    if (armed) pointerPending = false;
    lastPass = null;
    var next = state.expect || {};
    expect = { points: (next.points || []).slice(), wheels: (next.wheels || []).slice(), keys: (next.keys || []).slice() };
    render(state.preview);
    return doc;
  }

  function onPointer(e) {
    if (!active || !e.isTrusted) return;
    if (!isTop) { stop(e); if (e.type === 'pointerdown') frameNotice(); return; }
    if (inOverlay(e)) {
      stop(e);
      if (e.type === 'click' && e.composedPath().indexOf(finishButton) >= 0) report({ kind: 'finish' });
      return;
    }
    if (e.type === 'pointerdown') {
      var pass = takeNear(expect.points, e.clientX, e.clientY);
      sequence = { pass: pass, x: e.clientX, y: e.clientY, path: [{ x: e.clientX, y: e.clientY }], button: e.button, target: pass ? null : describe(interactive(origin(e))) };
      if (!pass) stop(e);
      return;
    }
    // A click the browser makes from a key (Enter on a button) belongs to that key, already decided.
    if (!sequence || (e.type === 'click' && e.detail === 0)) return;
    if (sequence.pass) return;
    stop(e);
    if (e.type === 'pointerup' && sequence.target) {
      var end = { x: e.clientX, y: e.clientY };
      var moved = Math.abs(end.x - sequence.x) > 6 || Math.abs(end.y - sequence.y) > 6;
      var button = sequence.button === 2 ? 'right' : sequence.button === 1 ? 'middle' : 'left';
      pointerPending = true;
      if (moved && button === 'left') report({ kind: 'drag', path: sequence.path.concat([end]), target: sequence.target });
      else report({ kind: 'click', x: sequence.x, y: sequence.y, button: button, target: sequence.target });
      sequence.target = null;
    }
  }
  function onPointerMove(e) {
    if (!active || !e.isTrusted || !isTop || !sequence || sequence.pass || !sequence.target) return;
    var last = sequence.path[sequence.path.length - 1];
    if (sequence.path.length < 20 && Math.abs(e.clientX - last.x) + Math.abs(e.clientY - last.y) >= 12) sequence.path.push({ x: e.clientX, y: e.clientY });
  }
  function onKeyDown(e) {
    if (!active || !e.isTrusted || MODIFIERS[e.key]) return;
    if (!isTop) { stop(e); frameNotice(); return; }
    if (inOverlay(e)) { stop(e); return; }
    var el = deepFocus();
    // A focused select chooses by its own keys; the option it ends on is recorded from its change.
    // Not while a click waits to be performed: the keys are for what was clicked.
    if (armed && !pointerPending && el && el.tagName === 'SELECT' && !e.ctrlKey && !e.metaKey && !e.altKey && (e.key.length === 1 || SELECT_KEYS[e.key])) return;
    var head = expect.keys[0];
    if (head && (head.key === e.key || (head.anyCase && head.key.toLowerCase() === e.key.toLowerCase()))) {
      expect.keys.shift();
      lastEngineKeyAt = Date.now();
      lastPass = { key: e.key, after: 0 };
      return;
    }
    // The key let through last was the person's, typed just as the engine was about to send the same
    // one: this is the engine's, which the page already has. The person's key goes back where it was.
    var back = -1;
    if (lastPass && lastPass.key === e.key && !e.ctrlKey && !e.metaKey && !e.altKey) { back = lastPass.after; lastPass = null; }
    else if (lastPass) lastPass.after++;
    blockedKeys[e.code || e.key] = true;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'v') {
      // Let the browser paste: the paste event carries the text, and is recorded instead.
      e.stopImmediatePropagation();
      return;
    }
    stop(e);
    if (e.isComposing || e.key === 'Process' || e.key === 'Dead' || e.key === 'Unidentified') {
      report({ kind: 'unsupported', what: 'composed input (an input method or a dead key)' });
      return;
    }
    var input = { kind: 'key', key: e.key, ctrl: e.ctrlKey, alt: e.altKey, meta: e.metaKey, shift: e.shiftKey, target: describe(el) };
    if (back > 0) input.back = back;
    report(input);
  }
  function onKeyRest(e) {
    if (!active || !e.isTrusted) return;
    var code = e.code || e.key;
    if (!blockedKeys[code]) return;
    stop(e);
    if (e.type === 'keyup') delete blockedKeys[code];
  }
  function onPaste(e) {
    if (!active || !e.isTrusted) return;
    stop(e);
    if (!isTop) { frameNotice(); return; }
    report({ kind: 'paste', text: (e.clipboardData && e.clipboardData.getData('text/plain')) || '', target: describe(deepFocus()) });
  }
  function onWheel(e) {
    if (!active || !e.isTrusted) return;
    if (!isTop) { stop(e); frameNotice(); return; }
    if (inOverlay(e)) { stop(e); return; }
    if (takeNear(expect.wheels, e.clientX, e.clientY)) return;
    stop(e);
    var unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? window.innerHeight : 1;
    report({ kind: 'wheel', x: e.clientX, y: e.clientY, dx: e.deltaX * unit, dy: e.deltaY * unit, target: describe(interactive(origin(e))) });
  }
  function onChange(e) {
    if (!active || !e.isTrusted || !isTop) return;
    var el = origin(e);
    // A select the engine's own key changed (a recorded key pressed on it) is that key's doing.
    if (!armed && Date.now() - lastEngineKeyAt < 100) return;
    if (el instanceof HTMLSelectElement && !el.multiple) {
      var option = el.options[el.selectedIndex];
      var r = el.getBoundingClientRect();
      report({ kind: 'select', x: r.left + r.width / 2, y: r.top + r.height / 2, label: option ? clean(option.label || option.text) : '', focused: deepFocus() === el, target: describe(el) });
    } else if (armed && el instanceof HTMLInputElement && PICKER_TYPES[el.type]) {
      report({ kind: 'unsupported', what: 'a value chosen in the native ' + el.type + ' picker (type it instead)' });
    } else if (armed && el instanceof HTMLSelectElement) {
      report({ kind: 'unsupported', what: 'a multiple-choice list (select it with clicks)' });
    }
  }

  ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu', 'dragstart'].forEach(function (type) {
    window.addEventListener(type, onPointer, true);
  });
  window.addEventListener('pointermove', onPointerMove, true);
  window.addEventListener('keydown', onKeyDown, true);
  window.addEventListener('keypress', onKeyRest, true);
  window.addEventListener('keyup', onKeyRest, true);
  window.addEventListener('paste', onPaste, true);
  window.addEventListener('wheel', onWheel, { capture: true, passive: false });
  window.addEventListener('change', onChange, true);

  Object.defineProperty(window, '__roteRecorder', { value: { set: apply, sent: function () { return { doc: doc, sent: sent }; } }, enumerable: false });
  function hello(attempt) {
    if (typeof window[BINDING] !== 'function') {
      if (attempt < 50) setTimeout(function () { hello(attempt + 1); }, 20);
      return;
    }
    send({ hello: true }).then(apply);
  }
  hello(0);
})();`;
