import type { Page } from 'playwright';
import type { Action } from '../actions/action.js';
import { cdpSession } from '../checks/cdp.js';
import type { Target } from '../checks/fingerprint.js';
import { accessibleFacts, ELEMENT_STATE_JS, KEPT_READ_JS, PICK_ELEMENT, sameAccessibleFacts, type AXNode } from '../checks/target.js';
import { raceDeadline, type Deadline } from '../progress/deadline.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { LastLookNeed } from './checkTypes.js';

/**
 * The target a cached step's checks read, kept while it may answer the next step's read (see
 * `readAnsweredBefore`): the step that read it, its recorded node, and where it was read.
 */
export type ReadTarget = {
  target: Target;
  node: TrajectoryNode;
  /** The step (numbered from 1) whose checks read it. */
  step: number;
  /** New documents the window had loaded then, and the window: a read means nothing in another document. */
  documents: number;
  window: number;
};

/**
 * Steps whose checks read their target by its identity and counted its look-alikes (locateTarget):
 * only such a read was shown to be the recorded target. A scroll's or a move's read took any
 * element of the recorded kind at the point (its lighter rules), and answers nothing.
 */
const COUNTED_READS: ReadonlySet<Action['type']> = new Set(['click', 'double_click', 'type', 'keypress']);

/** How long the look waits in the page for the sentinel of the action it follows to be left. */
const SENTINEL_WAIT_MS = 500;

/**
 * Runs in the page: the element of the earlier read (kept beside the change log with the log's
 * count then, target.ts) is the one a key press goes to, and nothing at all has changed in the
 * page's change log since that read (no node, attribute or text, no form sent). Where the step
 * before's settle left a sentinel, this answers once the sentinel has looked (after the tasks
 * the action queued), with the action it followed, and only if the sentinel saw no change either.
 * What no change log sees is read then: the box, whether the field holds text, its checked state,
 * whether anything stands over it. Null at once where it cannot be told so (something changed):
 * the target is then read the usual way, with no wait for the sentinel first.
 */
const READ_AGAIN = `(function (read, actionAt) {
  ${ELEMENT_STATE_JS}
  ${KEPT_READ_JS}
  return new Promise(function (resolve) {
    var log = window.__roteChangeLog;
    var kept = keptRead(read), el = kept && kept.el;
    // Only an element of the top page itself: the change log sees no frame's or shadow root's changes.
    // Nor a page with frames, whose look-alikes a fresh count would take in and whose changes the log does not see.
    var unchanged = function () { return log.seq === kept.seq && el.isConnected && el.ownerDocument === document && el.getRootNode() === document && !document.querySelector('iframe,frame'); };
    if (!el || !unchanged()) { resolve(null); return; }
    var look = function (actionAt) {
      if (!unchanged() || ${PICK_ELEMENT}('focus', 0, 0) !== el) { resolve(null); return; }
      var r = el.getBoundingClientRect(), state = controlState(el);
      resolve({ x: r.x, y: r.y, width: r.width, height: r.height, checked: state.checked, hasText: state.hasText, uncovered: hitsItself(el, r), actionAt: actionAt });
    };
    if (actionAt === null) { look(null); return; }
    var waited = false;
    var onSentinel = function () {
      var sentinel = log.sentinel;
      if (waited || !sentinel || sentinel.actionAt !== actionAt || typeof sentinel.changed !== 'function') return false;
      waited = true;
      var answer = function () { if (sentinel.dirty || sentinel.changed()) resolve(null); else look(actionAt); };
      if (sentinel.done) answer(); else sentinel.waiters.push(answer);
      return true;
    };
    // The settle's look that leaves the sentinel may come after this one (its code sent again to a
    // new document): told when it does, and given up on after a while (it left none).
    if (!onSentinel()) {
      (log.onSentinel = log.onSentinel || []).push(onSentinel);
      setTimeout(function () {
        var at = log.onSentinel.indexOf(onSentinel);
        if (at >= 0) log.onSentinel.splice(at, 1);
        if (!waited) { waited = true; resolve(null); }
      }, ${SENTINEL_WAIT_MS});
    }
  });
})`;

type ReadAgain = { x: number; y: number; width: number; height: number; checked: boolean | null; hasText: boolean; uncovered: boolean | null; actionAt: number | null };

/**
 * A target read answered by the step before, written down as docs/checks.md states it. A step
 * that types or presses a key, right after a cached step whose checks read an element and found
 * it the recorded one, takes that read as its own, without reading the target and counting its
 * look-alikes again, when all of these hold:
 * - the two steps were recorded on one target, told apart the same way: the same fingerprint,
 *   identity, look-alike count, position, own words and name template, so that the checks of the
 *   one ask exactly what the checks of the other asked;
 * - the same document, in the same window, and the element is in the top page (no frame, no
 *   shadow root, whose changes the change log does not see);
 * - once the step before's settle is confirmed, the element of that read holds the focus (the keys
 *   go to it), and nothing at all has changed in the page's change log since the read: no node,
 *   attribute or text, no form sent;
 * - its accessibility node, read now, has the role, name and disabled state read then: those can
 *   change with nothing the change log sees (a name CSS generates once the field is focused);
 * - what no change log sees is read now, not taken from then: its box, whether it holds text (a
 *   focus handler that fills the field by its property), its checked state, what stands over it.
 * Why it cannot let a wrong target through: which element the keys reach is the focus, and the
 * element holding it is the very one the step before showed to be the recorded target; what told
 * it from its look-alikes then (the words around it, their count) is made of the page's nodes,
 * attributes and text, none of which changed since. Anything else answers undefined, and the
 * target is read and its look-alikes counted as for any step.
 */
export async function readAnsweredBefore(
  page: Page,
  before: ReadTarget | undefined,
  node: TrajectoryNode,
  action: Action,
  now: { documents: number; window: number; lastLookNeed?: LastLookNeed | undefined },
  deadline: Deadline,
): Promise<{ target: Target; step: number } | undefined> {
  if (!before || (action.type !== 'type' && action.type !== 'keypress') || !COUNTED_READS.has(before.node.action.type)) return undefined;
  const read = before.target.read;
  if (read === undefined || before.target.domNode === undefined || before.target.uncovered === null) return undefined;
  if (now.documents !== before.documents || now.window !== before.window || !toldApartAlike(before.node, node)) return undefined;
  // After the step before's tasks have run: its settle's sentinel looked, and the confirmation
  // says the sentinel was that action's (none pending: the page was settled the usual way).
  const pending = now.lastLookNeed && !now.lastLookNeed.confirmed && now.lastLookNeed.actionAt !== undefined ? now.lastLookNeed : undefined;
  const domNode = before.target.domNode;
  const looking = (async () => {
    const asking = (page.evaluate(`${READ_AGAIN}(${JSON.stringify(read)}, ${JSON.stringify(pending?.actionAt ?? null)})`) as Promise<ReadAgain | null>).catch(() => null);
    // A settle that did not hold ends the look: the checks are done again on the settled page.
    const again = pending ? await Promise.race([asking, pending.wanted.then((at) => (at === undefined ? null : asking))]) : await asking;
    if (!again) return undefined;
    // Read once the sentinel has looked (the look answered after it): a name or state can change
    // with nothing the change log sees. Asked beside the confirmation, which reads nothing of it.
    const reading = cdpSession(page).then((cdp) => cdp.send('Accessibility.getPartialAXTree', { backendNodeId: domNode, fetchRelatives: true }));
    reading.catch(() => undefined);
    if (pending && again.actionAt !== (await pending.wanted)) return undefined;
    const facts = accessibleFacts((await reading).nodes as AXNode[]);
    const was = before.target;
    if (!sameAccessibleFacts(facts, was) || facts.roleOwn !== was.roleOwn) return undefined;
    const target: Target = { ...was, box: { x: again.x, y: again.y, width: again.width, height: again.height }, checked: again.checked, hasText: again.hasText, uncovered: again.uncovered };
    return { target, step: before.step };
  })();
  return raceDeadline(deadline, looking, () => undefined).catch(() => undefined);
}

/** Whether two recorded steps' checks ask the same of their target: kind, name, identity, count, position. */
function toldApartAlike(a: TrajectoryNode, b: TrajectoryNode): boolean {
  const fa = a.fingerprint;
  const fb = b.fingerprint;
  if (!fa || !fb || fa.role !== fb.role || fa.name !== fb.name || fa.tag !== fb.tag || fa.inputType !== fb.inputType) return false;
  const told = (node: TrajectoryNode) => {
    const { identity, matches, position, ownText, nameTemplate, roleFromAncestor, ambiguous } = node.state;
    return JSON.stringify([identity ?? null, matches ?? null, position ?? null, ownText ?? null, nameTemplate ?? null, roleFromAncestor ?? null, ambiguous ?? null]);
  };
  return told(a) === told(b);
}
