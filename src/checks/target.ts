import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright';
import { cdpSession } from './cdp.js';
import type { Fingerprint, Target } from './fingerprint.js';
import { IDENTITY_JS, type LiveIdentity } from './identity.js';
import { callKitOn, kitFunction } from './pageKit.js';
import type { Point } from './geometry.js';
import { raceDeadline, type Deadline } from '../progress/deadline.js';

/**
 * Runs in the page: where a window's (0, 0) is in the top page's viewport, through same-origin
 * frames; null for a frame inside another origin's page, which cannot be placed.
 */
export const FRAME_OFFSET_JS = `function frameOffset(view) {
  var x = 0, y = 0;
  try {
    while (view && view !== view.top) {
      var frame = view.frameElement;
      if (!frame) return null;
      var box = frame.getBoundingClientRect(), style = frame.ownerDocument.defaultView.getComputedStyle(frame);
      x += box.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0);
      y += box.top + frame.clientTop + (parseFloat(style.paddingTop) || 0);
      view = frame.ownerDocument.defaultView;
    }
  } catch (e) { return null; }
  return { x: x, y: y };
}`;

/**
 * Runs in the page. Picks the element an action really lands on: the element under the
 * point (or holding the focus), raised to its nearest interactive ancestor (a click on a
 * button's <span> is a click on the button), and a <label> resolved to its control, since
 * clicking a label acts on the control.
 */
export const PICK_ELEMENT = `(function (mode, x, y) {
  var el = mode === 'point' ? document.elementFromPoint(x, y) : document.activeElement;
  for (var depth = 0; ; depth++) {
    if (mode === 'point') {
      while (el && el.shadowRoot) { var inner = el.shadowRoot.elementFromPoint(x, y); if (!inner || inner === el) break; el = inner; }
    } else {
      while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    }
    // Into a frame whose document this page may read (same origin): the element inside is the
    // target, not the frame, or every field of a framed form would look the same. A frame of
    // another origin stays the target: opaque, and never replayed from the cache (preCheck.ts).
    if (!el || depth >= 8 || !/^(IFRAME|FRAME)$/.test(el.tagName)) break;
    var doc = null;
    try { doc = el.contentDocument; } catch (e) { doc = null; }
    if (!doc) break;
    if (mode === 'point') {
      var r = el.getBoundingClientRect();
      var style = el.ownerDocument.defaultView.getComputedStyle(el);
      x -= r.left + el.clientLeft + (parseFloat(style.paddingLeft) || 0);
      y -= r.top + el.clientTop + (parseFloat(style.paddingTop) || 0);
      el = doc.elementFromPoint(x, y);
    } else {
      el = doc.activeElement;
    }
  }
  if (!el) return null;
  var widget = el.closest('button,a[href],input,select,textarea,summary,option,[contenteditable=""],[contenteditable="true"],' +
    '[role=button],[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option],[role=switch],' +
    '[role=textbox],[role=combobox],[role=gridcell],[role=treeitem],[role=menuitemcheckbox],[role=menuitemradio]');
  var target = widget || el;
  var label = target.closest('label');
  if (label && label.control && target === label) target = label.control;
  else if (!widget && label && label.control) target = label.control;
  return target;
})`;

/**
 * Runs in the page: what a read says of an element's state, one rule for the target's read and
 * for the looks that stand on it later (lastLook.ts, readProof.ts). `controlState` gives its tag,
 * input type, checked state (a checkbox or radio, else null) and whether it holds text (never the
 * text); `hitsItself` whether a click at the middle of its box `r` would hit it (the element, or
 * something inside it: nothing stands over it), in its own document.
 */
export const ELEMENT_STATE_JS = `
  function controlState(el) {
    var tag = el.tagName ? el.tagName.toLowerCase() : '#node';
    var type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : null;
    var checkable = tag === 'input' && (type === 'checkbox' || type === 'radio');
    var hasText = (tag === 'input' || tag === 'textarea') ? String(el.value || '').length > 0 : (el.isContentEditable ? (el.textContent || '').length > 0 : false);
    return { tag: tag, type: type, checked: checkable ? !!el.checked : null, hasText: hasText };
  }
  function hitsItself(el, r) {
    if (!(r.width > 0 && r.height > 0)) return null;
    var hit = el.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  }`;

/** Runs in the page: the read kept under `read` beside the change log ({ el, seq }), or undefined. */
export const KEPT_READ_JS = `
  function keptRead(read) {
    var log = window.__roteChangeLog;
    return read !== null && log && log.reads ? log.reads.get(read) : undefined;
  }`;

/** How many reads' elements the page keeps for a last look (lastLook.ts): those of a step's checks and the step after's. */
const KEPT_READS = 32;

/**
 * Runs with `this` = the picked element, whether its identity is wanted (it costs a walk of the
 * text around it), and the read's key: geometry, state, the words it shows, never the value a
 * field holds. The element is kept beside the change log under the read's key (the oldest let
 * go past KEPT_READS), with the log's count of changes then, for a last look at that very element
 * (lastLook.ts) and for the next step's read answered by this one (readProof.ts).
 */
const DESCRIBE_ELEMENT = kitFunction('describe-element', `function (withIdentity, readNumber, withCells) {
  var log = window.__roteChangeLog, read = null;
  if (log) {
    if (!log.reads) log.reads = new Map();
    // With the change log's count then: a later look can tell that nothing at all changed since.
    log.reads.set(readNumber, { el: this, seq: log.seq });
    if (log.reads.size > ${KEPT_READS}) log.reads.delete(log.reads.keys().next().value);
    read = readNumber;
  }
  ${FRAME_OFFSET_JS}
  // The element may be in a same-origin frame: its own document is where its labels are.
  var document = this.ownerDocument || window.document;
  ${IDENTITY_JS}
  ${ELEMENT_STATE_JS}
  var r = this.getBoundingClientRect();
  // A box inside frames is moved into the top page's viewport, where actions and crops are.
  var offset = frameOffset(document.defaultView) || { x: 0, y: 0 };
  var state = controlState(this), tag = state.tag, type = state.type;
  var textual = tag === 'textarea' || tag === 'select' || !!this.isContentEditable ||
    (tag === 'input' && !/^(checkbox|radio|submit|button|reset|image|file|color|range|hidden)$/.test(type));
  // A container with the whole page in it shows no words of its own worth reading.
  var words = String(this.textContent || '').length <= 2000 ? ownText(this) : '';
  // What a click at the middle of its box would hit, in the top page only (a frame's or a shadow
  // root's element answers through its host): the element itself, or nothing stands over it.
  var uncovered = document === window.document && window === window.top && this.getRootNode() === document ? hitsItself(this, r) : null;
  return { x: r.x + offset.x, y: r.y + offset.y, width: r.width, height: r.height, tag: tag, type: type, checked: state.checked, hasText: state.hasText, showsValue: textual, ownText: words, identity: withIdentity ? identityOf(this, withCells) : {}, uncovered: uncovered, read: read };
}`);

type Described = { x: number; y: number; width: number; height: number; tag: string; type: string | null; checked: boolean | null; hasText: boolean; showsValue: boolean; ownText: string; identity: LiveIdentity; uncovered: boolean | null; read: string | null };
type AXValue = { value?: unknown };
export type AXNode = { nodeId: string; ignored: boolean; role?: AXValue; name?: AXValue; parentId?: string; backendDOMNodeId?: number; properties?: { name: string; value: AXValue }[] };

const UNNAMED_ROLES = new Set(['generic', 'none', 'presentation', 'StaticText', 'InlineTextBox', 'LineBreak', 'LabelText']);

/** By when the capture must be over (the run's deadline), and what to take besides the fingerprint, box and state. */
export type CaptureOptions = {
  deadline: Deadline;
  identity?: boolean;
  /** The words of the record the element stands in too (rowCells, itemText): when recording, and for a recorded rowCell. */
  cells?: boolean;
};

/** The target an action at `point` (viewport CSS pixels) would land on, or null if none. */
export function targetAt(page: Page, point: Point, options: CaptureOptions): Promise<Target | null> {
  return captureTarget(page, `${PICK_ELEMENT}('point', ${Number(point.x)}, ${Number(point.y)})`, options);
}

/** The element typing or a key press would go to. */
export function focusedTarget(page: Page, options: CaptureOptions): Promise<Target | null> {
  return captureTarget(page, `${PICK_ELEMENT}('focus', 0, 0)`, options);
}

/** A page that does not answer by the deadline (a busy main thread, a browser going away) shows no target. */
function captureTarget(page: Page, expression: string, options: CaptureOptions): Promise<Target | null> {
  return raceDeadline(options.deadline, readTarget(page, expression, options), () => null);
}

let captures = 0;
/** Read keys carry this process's own prefix: two processes driving one page never name each other's reads. */
const READ_PREFIX = randomUUID().slice(0, 8);

async function readTarget(page: Page, expression: string, options: CaptureOptions): Promise<Target | null> {
  const cdp = await cdpSession(page);
  // Its own group: a capture cut off by the deadline that ends later releases its objects, not a newer capture's.
  const capture = ++captures;
  const read = `${READ_PREFIX}-${capture}`;
  const objectGroup = `rote-target-${capture}`;
  try {
    const picked = await cdp.send('Runtime.evaluate', { expression, objectGroup, returnByValue: false });
    const objectId = picked.result.objectId;
    if (!objectId || picked.result.subtype === 'null') return null;
    // Both requests go out together: one round trip for geometry and accessibility.
    const [described, ax] = await Promise.all([
      callKitOn(cdp, DESCRIBE_ELEMENT, { objectId, arguments: [{ value: options.identity !== false }, { value: read }, { value: options.cells === true }], returnByValue: true }),
      cdp.send('Accessibility.getPartialAXTree', { objectId, fetchRelatives: true }),
    ]);
    const element = described as Described | undefined;
    if (!element) return null;
    return toTarget(element, ax.nodes as AXNode[]);
  } catch {
    // A navigation tore the document down mid-capture: there is no target to speak of yet.
    return null;
  } finally {
    cdp.send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => {});
  }
}

/** What the accessibility tree says of an element (the first node of its partial tree): its role, name and whether it is disabled. */
export type AccessibleFacts = { role: string; name: string; disabled: boolean; roleOwn: boolean; domNode?: number };

export function accessibleFacts(nodes: AXNode[]): AccessibleFacts {
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  let node: AXNode | undefined = nodes[0];
  // An element that is not itself in the accessibility tree speaks through its nearest named ancestor.
  while (node && (node.ignored || UNNAMED_ROLES.has(String(node.role?.value ?? 'none')))) {
    node = node.parentId ? byId.get(node.parentId) : undefined;
  }
  return {
    role: String(node?.role?.value ?? 'none'),
    name: normalizeName(node?.name?.value),
    disabled: (node?.properties ?? []).some((property) => property.name === 'disabled' && property.value.value === true),
    roleOwn: node !== undefined && node === nodes[0],
    // The first node is the element's own (ignored or not): its DOM node names the element.
    ...(typeof nodes[0]?.backendDOMNodeId === 'number' ? { domNode: nodes[0].backendDOMNodeId } : {}),
  };
}

/** Whether an element's accessibility node, read again, says what a read of it said: the same node, role, name and disabled state. */
export function sameAccessibleFacts(facts: AccessibleFacts, read: Target): boolean {
  return facts.domNode === read.domNode && facts.role === read.fingerprint.role && facts.name === read.fingerprint.name && facts.disabled === read.disabled;
}

function toTarget(element: Described, nodes: AXNode[]): Target {
  const facts = accessibleFacts(nodes);
  const fingerprint: Fingerprint = { role: facts.role, name: facts.name, tag: element.tag, inputType: element.type };
  return {
    fingerprint,
    box: { x: element.x, y: element.y, width: element.width, height: element.height },
    checked: element.checked,
    hasText: element.hasText,
    showsValue: element.showsValue,
    disabled: facts.disabled,
    identity: element.identity,
    ownText: element.ownText,
    roleOwn: facts.roleOwn,
    ...(facts.domNode !== undefined ? { domNode: facts.domNode } : {}),
    uncovered: element.uncovered,
    ...(element.read !== null ? { read: element.read } : {}),
  };
}

function normalizeName(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}
