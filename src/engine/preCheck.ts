import type { Action } from '../actions/action.js';
import { accept } from '../errors/refusal.js';
import { focusedSelectProblem, type TypeMode } from '../actions/perform.js';
import { describeFingerprint, type Target } from '../checks/fingerprint.js';
import { unmovedTarget } from '../checks/lookalikes.js';
import { recordedName, renderSecrets } from '../checks/secretTarget.js';
import { compareUrls } from '../checks/urlCheck.js';
import { formDifference, untouchedFormState } from '../checks/formState.js';
import { learnedFormatProblem } from '../checks/formatCue.js';
import { readableImage } from '../checks/visual.js';
import type { PageRegion } from '../checks/waitRegions.js';
import { asBoolean, fold } from '../params/fold.js';
import { renderTemplate } from '../params/template.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { deadlineIn, isOver, narrowed, type Deadline } from '../progress/deadline.js';
import { timed, type CheckName } from './checkTimes.js';
import type { CheckEnvironment, CheckFail, CheckPass, CheckResult } from './checkTypes.js';
import { sendingPoint, targetOf } from './evidence.js';
import { locateTarget, type Located } from './locateTarget.js';
import { setsOtherValue } from './paramBindings.js';
import { describeWindow } from './runWindows.js';
import { toolPreCheck } from './toolChecks.js';
import { bindAction, staleWatch, unusedChangedParam } from './valueChecks.js';
import { earlyCrop, visualCheck, type EarlyCrop } from './visualCheck.js';
import { leanOnCrop, mayLeanOnCrop } from './cropProof.js';
import { lastLookAfter } from './lastLook.js';
import { readAnsweredBefore } from './readProof.js';
import { navigationWatch } from '../checks/settle.js';
import { renderWaitFor, waitForShown } from './waitCondition.js';

export type { CheckEnvironment, CheckFail, CheckPass, CheckResult } from './checkTypes.js';
export { runValuesOf } from './valueChecks.js';

/** What the checks of one step have established so far, for the checks after them and the pass. */
type Draft = {
  readonly env: CheckEnvironment;
  readonly node: TrajectoryNode;
  /** How long the checks may wait for the page to come right (the run's deadline, narrowed). */
  readonly patience: Deadline;
  /** The action with this run's values (set by the values check). */
  bound?: Action;
  /** What the recording waited for, with this run's values (set by the values check). */
  awaited: PageRegion[];
  /** The live target and how the action lands on it (set by the target check). */
  located?: { target: Target; kind: CheckPass['kind']; action: Action; alreadyDone: boolean; expectedName: string; recordedNow: string; firstRead: boolean };
  /** The live crop the visual check passed on. */
  crop?: Buffer;
  /** How the target's look was shown (set by the visual check). */
  looked?: CheckPass['looked'];
  /** The crop taken while the target was read, where the target is expected (set by the target check). */
  early?: EarlyCrop;
  /** The last look at the target after the step before's provisional settle was confirmed (set by the target check). */
  lastLook?: Promise<boolean>;
  /** The step whose read of the target answered this step's (readProof.ts; set by the target check). */
  readFrom?: number;
};

/** One check before a cached step: a failure, or nothing when it passes. */
type NamedCheck = {
  name: CheckName;
  /** Whether it applies to this step (the target's checks do not to a tool's call). */
  applies?: (draft: Draft) => boolean;
  run: (draft: Draft) => CheckFail | undefined | Promise<CheckFail | undefined>;
};

const fail = (draft: Draft, reason: string, evidence: Partial<CheckFail> = {}): CheckFail => ({ ok: false, node: draft.node, reason, ...evidence });
const actsOnTarget = (draft: Draft) => draft.bound?.type !== 'tool' && draft.node.fingerprint !== null;
const typeModeOf = (node: TrajectoryNode): TypeMode => node.state.typeMode ?? 'keys';

/**
 * The checks before a cached step, in order; the first failure is the step's. The wait for what
 * the recording waited for comes last (awaitRecordedMoment), so the step acts the moment it holds.
 */
const CHECKS: readonly NamedCheck[] = [
  {
    // A page that loaded a new document where the recording loaded none (it reloaded itself, a
    // session bounced it) has lost what the steps before entered: filling on would submit a form
    // that is half empty. Known at once, and no waiting brings the lost values back.
    name: 'documents',
    run: documentsCheck,
  },
  {
    // A step done in a window the page opened is done there, and one done in the page is not done in a window.
    name: 'window',
    run: (draft) => {
      const recorded = draft.node.state.window ?? 0;
      const now = draft.env.window ?? 0;
      return recorded !== now ? fail(draft, `the step was recorded in ${describeWindow(recorded)}, and the run is in ${describeWindow(now)}`) : undefined;
    },
  },
  { name: 'values', run: checkValues },
  { name: 'url', run: (draft) => optionalFail(draft, compareUrls(draft.node.url, draft.env.page.url(), draft.env.params)) },
  {
    name: 'valuesAhead',
    run: (draft) => {
      const unused = unusedChangedParam(draft.env, draft.node);
      return unused ? fail(draft, `parameter "${unused}" is not put on the page by the recorded steps from here, and its value differs from the values they were learned under: replaying could leave the old value in place, or take a path chosen for another value`, { permanent: true }) : undefined;
    },
  },
  { name: 'watchedValues', run: async (draft) => optionalFail(draft, await staleWatch(draft.env, draft.node)) },
  {
    name: 'tool',
    applies: (draft) => draft.bound?.type === 'tool',
    run: async (draft) => optionalFail(draft, await toolPreCheck(draft.env.tools, draft.env.page, draft.env.params, draft.node, draft.bound as Extract<Action, { type: 'tool' }>)),
  },
  { name: 'target', applies: actsOnTarget, run: checkTarget },
  { name: 'visual', applies: actsOnTarget, run: checkLooks },
  { name: 'select', applies: actsOnTarget, run: checkSelectOption },
  { name: 'form', applies: (draft) => draft.node.state.formState !== undefined, run: checkForm },
];

/**
 * Is it safe to do this cached step here, now? Each check of CHECKS in order, timed into
 * `env.times`, then the wait for what the recording waited for. A failed check is a value with its
 * reason and evidence, never an exception.
 */
export async function preCheck(env: CheckEnvironment, node: TrajectoryNode, patience: Deadline, options: { alone?: boolean } = {}): Promise<CheckResult> {
  const draft: Draft = { env, node, patience, awaited: [] };
  let failed: CheckFail | undefined;
  try {
    for (const check of CHECKS) {
      if (check.applies && !check.applies(draft)) continue;
      failed = await timed(env.times, check.name, () => check.run(draft));
      if (failed) break;
    }
  } finally {
    // A crop taken early and not used (not the target's place, a check threw) is not left running:
    // whatever captures next, the agent's code too, would overlap it (checks/captureGate.ts).
    if (draft.early) await draft.early.shot;
  }
  // A document that loaded while the checks ran (a reload on a timer) explains whatever failed after it.
  if (failed) failed = documentsCheck(draft) ?? failed;
  // A failure before the values were bound is the step's whatever the page shows later.
  if (failed && draft.bound === undefined) return failed;
  const checked = failed ?? passOf(draft);
  if (draft.awaited.length === 0) return checked;
  return timed(env.times, 'wait', () => awaitRecordedMoment(draft, checked, options.alone === true));
}

function documentsCheck(draft: Draft): CheckFail | undefined {
  return draft.node.state.navigatedBefore === false && (draft.env.unexplainedLoads?.() ?? 0) > 0 ? fail(draft, 'the page loaded a new document since the last step, which the recording did not: what the steps before entered may be gone', { permanent: true }) : undefined;
}

function optionalFail(draft: Draft, reason: string | null | undefined): CheckFail | undefined {
  return reason ? fail(draft, reason) : undefined;
}

/** Failures that come from this run's values, not from the page: waiting cannot change them. */
function checkValues(draft: Draft): CheckFail | undefined {
  const { node, env } = draft;
  const bound = bindAction(node, env.params, env.valueHashes);
  if (!bound.ok) return fail(draft, bound.reason, { permanent: true });
  // A click that sets a value (an arrow, a day, an option) was recorded for other values: it would set theirs.
  const setsOther = setsOtherValue(node, env.valueHashes);
  if (setsOther) return fail(draft, `this step sets parameter "${setsOther}" by clicking, and was recorded setting another value: replaying it would set the recorded value, not this run's`, { permanent: true });
  const awaited = node.state.waitFor ? renderWaitFor(node.state.waitFor, env.params) : accept([]);
  if (!awaited.ok) return fail(draft, awaited.reason, { permanent: true });
  draft.bound = bound.value;
  draft.awaited = awaited.value;
  return undefined;
}

/** Which element is there now, that it is the recorded one (fingerprint, identity, look-alikes, relocation), enabled, and in a state the step can set. */
async function checkTarget(draft: Draft): Promise<CheckFail | undefined> {
  const { node, env } = draft;
  const fingerprint = node.fingerprint!;
  // A frame rote could not see into (another origin's) was all it knew of the target: which field
  // inside took the action, no check can tell, so the step is never replayed (see checks/target.ts).
  if (fingerprint.tag === 'iframe' || fingerprint.tag === 'frame') {
    return fail(draft, `the recorded step acted inside a frame whose page rote cannot see into (${describeFingerprint(fingerprint)}, another origin's): what it acted on cannot be shown the same, so it is not replayed`, { permanent: true });
  }
  // A secret the recorded name showed is stored as {{name}}: the name is compared as this run's values render it.
  const recordedNow = recordedName(fingerprint, env.params);
  const expectedName = node.state.nameTemplate ? renderTemplate(node.state.nameTemplate, env.params) : recordedNow;
  // The crop where the target was recorded is taken while the target is read: where the target
  // is still there (the usual case) the visual check compares it without a second wait for a frame.
  // A check that may not wait (a re-join's) reads first and captures after, as it always did: its one shot is its verdict.
  if (!mayLeanOnCrop(env.looked, draft.bound!) && !isOver(draft.patience)) draft.early = earlyCrop(env, node);
  // A read begun once the settle before was confirmed came after its sentinel: no last look for it.
  const readAfterConfirmation = env.lastLookNeed?.confirmed === true;
  // Keys into the element the step before read and showed the recorded one, unchanged since: that read answers (readProof.ts).
  const answered = await readAnsweredBefore(env.page, env.readBefore, node, draft.bound!, { documents: navigationWatch(env.page).documentCount, window: env.window ?? 0, lastLookNeed: env.lastLookNeed }, env.deadline);
  if (answered) draft.readFrom = answered.step;
  const located = answered ? accept<Located>({ target: answered.target, kind: 'cached', action: draft.bound!, firstRead: false }) : await locateTarget(env.page, node, draft.bound!, expectedName, env.params, env.deadline);
  if (!located.ok) return fail(draft, located.reason);
  const { target, kind, action, firstRead } = located.value;
  if (target.disabled && !node.state.disabled) return fail(draft, `the target ${describeFingerprint(target.fingerprint)} is disabled`);
  // A value typed in a format learned when recording is typed so only where the field still asks for it (formatCue.ts).
  const formatChanged = node.state.formatCue && node.action.type === 'type' ? await learnedFormatProblem(env.page, node.state.formatCue, node.action.text, env.params, env.deadline) : undefined;
  if (formatChanged) return fail(draft, formatChanged);
  const wanted = node.state.checkedParam ? asBoolean(env.params.get(node.state.checkedParam) ?? '') : node.state.checkedAfter;
  if (node.state.checkedParam && wanted === undefined) return fail(draft, `parameter "${node.state.checkedParam}" sets a checkbox, but its value is not yes/no`);
  draft.located = { target, kind, action, alreadyDone: wanted != null && target.checked === wanted, expectedName, recordedNow, firstRead };
  // Taken as soon as the settle before is confirmed, beside the crop's wait (see lastLook.ts).
  if (env.lastLookNeed) draft.lastLook = readAfterConfirmation || answered ? Promise.resolve(true) : lastLookAfter(env.lastLookNeed.wanted, env.page, action, target, env.deadline);
  return undefined;
}

/** The form the step sends holds, in the controls no step set, what it held when recorded (formState.ts). */
async function checkForm(draft: Draft): Promise<CheckFail | undefined> {
  const sending = sendingPoint(draft.located?.action ?? draft.bound!);
  const watched = (draft.node.state.watches ?? []).map((watch) => renderSecrets(watch.selector, draft.env.params));
  const live = sending === undefined ? undefined : await untouchedFormState(draft.env.page, sending, watched, draft.env.deadline);
  if (!live) return fail(draft, 'the step sent a form when recorded, and the form it would send now cannot be read');
  return optionalFail(draft, formDifference(draft.node.state.formState!, live));
}

/** The crop around the target looks as it did (not covered, not disabled, not restyled). */
async function checkLooks(draft: Draft): Promise<CheckFail | undefined> {
  const { node, env } = draft;
  const { target, expectedName, recordedNow } = draft.located!;
  // A checkbox or radio in another state than recorded looks different by design, and a semantic
  // target with a new name is another element by design: their identity was checked above.
  const stateDiffers = node.state.checkedBefore != null && target.checked !== node.state.checkedBefore;
  const otherElement = fold(expectedName) !== fold(recordedNow);
  if (stateDiffers || otherElement || !node.cropHash || !node.cropRect) return undefined;
  const leaned = leanOnCrop(env.looked, draft.located!.action, target, { documents: navigationWatch(env.page).documentCount, window: env.window ?? 0 });
  if (leaned) {
    draft.looked = { by: 'step', step: leaned.step };
    return undefined;
  }
  const recorded = await env.blob(node.cropHash);
  if (!recorded) return fail(draft, 'the recorded crop is missing from the store');
  // Damaged evidence is a refusal that says so, not a capture problem of the live page.
  if (!(await readableImage(node.cropHash, recorded))) {
    return fail(draft, `the recorded crop of this step (blob ${node.cropHash.slice(0, 12)}) cannot be read: the stored evidence is damaged, so the step cannot be shown safe`, { permanent: true });
  }
  // The early crop shows the page no earlier than the first read: a target a later read found
  // (moved to another row, appeared late) may have changed since that frame, and is captured again.
  const checked = await visualCheck(env, node, target.box, recorded, draft.patience, draft.located!.firstRead ? draft.early : undefined);
  // The expected picture is the part compared (a target at the viewport's edge is compared on its part inside), so it lines up with the live one.
  if ('reason' in checked) return fail(draft, `the target looks different: ${checked.reason}`, { expected: checked.expected ?? recorded, actual: checked.actual, diff: checked.diff, ...('uncaptured' in checked ? { uncaptured: true } : {}) });
  if (checked.crop) draft.crop = checked.crop;
  draft.looked = { by: 'crop' };
  return undefined;
}

/** The option a new value names must be there (a Yes/No select given "maybe"): else a person decides. */
async function checkSelectOption(draft: Draft): Promise<CheckFail | undefined> {
  const { node, env } = draft;
  const { action } = draft.located!;
  if (typeModeOf(node) !== 'select' || action.type !== 'type' || node.action.type !== 'type') return undefined;
  const problem = await focusedSelectProblem(env.page, action.text);
  return problem ? fail(draft, `the select has no option for ${node.action.text} with this run's value: ${problem}`) : undefined;
}

/** Every check passed: the action as it lands now. */
function passOf(draft: Draft): CheckPass {
  const { node } = draft;
  const typeMode = typeModeOf(node);
  if (!draft.located) return { ok: true, node, kind: 'cached', action: draft.bound!, typeMode: draft.bound!.type === 'tool' ? 'keys' : typeMode, alreadyDone: false, target: null };
  const { target, kind, action, alreadyDone } = draft.located;
  // A field recorded empty is typed into as it is when it is still empty; cleared first only when it holds text.
  const liveTypeMode = typeMode === 'replace' && !target.hasText ? 'keys' : typeMode;
  return {
    ok: true,
    node,
    kind,
    action,
    typeMode: liveTypeMode,
    alreadyDone,
    target,
    ...(draft.crop ? { crop: draft.crop } : {}),
    ...(draft.looked ? { looked: draft.looked } : {}),
    ...(draft.lastLook ? { lastLook: draft.lastLook } : {}),
    ...(draft.readFrom !== undefined ? { readFrom: draft.readFrom } : {}),
    ...(draft.located.firstRead && node.box ? { offset: { dx: target.box.x - node.box.x, dy: target.box.y - node.box.y } } : {}),
  };
}

/** How long one check waits in the page for a wait's condition while other candidates wait to be polled. */
const WAIT_SLICE_MS = 250;

/**
 * Last, so the step acts the moment the page shows what the recording waited for: the page is
 * watched on every change, so a value a process passes through is caught as it passes. A step
 * that is the only candidate waits in one stretch (no gap to miss a value in); with others to
 * poll, in slices.
 */
async function awaitRecordedMoment(draft: Draft, checked: CheckResult, alone: boolean): Promise<CheckResult> {
  const { env, node, awaited, patience } = draft;
  if (!checked.ok) {
    // Only a value that moves on (a progress, a count) makes a moment that passes: a state that
    // holds (a spinner hidden, a label shown) may hold before the page is there, and a target
    // that lags it (a late label, a field disabled for a while) keeps the patience the wait earned.
    if (checked.permanent || !awaited.some((region) => region.trend)) return checked;
    const shown = await waitForShown(env.page, awaited, deadlineIn(0));
    return !shown || shown.passed ? { ...checked, atRecordedMoment: true } : checked;
  }
  const waitStarted = Date.now();
  const waiting = await waitForShown(env.page, awaited, alone ? patience : narrowed(patience, WAIT_SLICE_MS));
  // A value that moved past the recorded one will not come back: no use waiting for it.
  if (waiting) return fail(draft, waiting.reason, waiting.passed ? { permanent: true, gonePast: true } : { awaiting: true });
  // A long wait may have let the target change meanwhile (a popup over it): look at the point again,
  // quickly (no crop: the moment the condition holds is the moment to act).
  if (Date.now() - waitStarted <= WAIT_SLICE_MS || !checked.target) return checked;
  const still = await targetOf(env.page, checked.action, { deadline: env.deadline });
  const unchanged =
    unmovedTarget(still, checked.target) &&
    (!still.disabled || node.state.disabled === true) &&
    !compareUrls(node.url, env.page.url(), env.params);
  return unchanged ? checked : fail(draft, 'the target changed while waiting for what the recording waited for');
}
