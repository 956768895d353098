import { describeAction } from '../actions/action.js';
import { compareUrls } from '../checks/urlCheck.js';
import { isOver, narrowed, pause } from '../progress/deadline.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { arrivalsOf, learnedUnderSame } from '../trajectory/valueKeys.js';
import { CheckTimes, type CheckTimings } from './checkTimes.js';
import { evidenceAtRecordedPlace } from './divergenceEvidence.js';
import { endOptionAt, resolveFork, type EndOption } from './fork.js';
import { stillAsChecked } from './lastLook.js';
import { pollCandidates } from './pollCandidates.js';
import { runValuesOf, type CheckFail, type CheckPass } from './preCheck.js';
import type { LastLookNeed } from './checkTypes.js';
import type { Divergence } from './runResult.js';
import type { RunState, SettleConfirmation, StepProblem } from './runState.js';

/** What the replay finds at the run's place: a step to do, the run's end, nothing recorded, or a divergence. */
export type NextStep =
  | { kind: 'pass'; pass: CheckPass; startedAt: number; checkMs: number; checks: CheckTimings }
  | { kind: 'finished' }
  | { kind: 'miss' }
  | { kind: 'diverged'; divergence: Divergence };

/** Polling between two looks at the URL of a recorded end. */
const END_POLL_MS = 50;

/**
 * The next cached step that is safe to do here, now, or why there is none. `problem` is what the
 * step before left unproven (see StepProblem): nothing recorded after it may run blind.
 */
export async function nextCachedStep(run: RunState, problem: StepProblem | undefined, again?: { startedAt: number; times: CheckTimes }): Promise<NextStep> {
  const step = run.ledger.steps.length;
  // Every check of every candidate polled for this step adds its time here (a round done again too).
  const times = again?.times ?? new CheckTimes();
  run.env.times = times;
  // The step before may have been settled for now only: confirmed beside this step's checks, and
  // before anything is decided on them (RunState.confirmSettled).
  const settlingActionAt = run.settlingActionAt;
  const confirming = run.confirmSettled();
  confirming.catch(() => undefined);
  let candidates = await candidatesNow(run);
  if (problem !== undefined || candidates.length === 0) problem ??= (await confirming).problem;
  if (problem !== undefined) {
    // Only what an agent did after seeing the page in that very state (a step learned after such
    // a dialog) may be tried, with its checks.
    const learned = problem.kind === 'dialog' ? candidates.filter((node) => node.state.afterDialog === true) : [];
    // Whatever the agent does next here is learned for this state.
    run.detourAfterDialog = problem.kind === 'dialog';
    if (learned.length === 0) {
      run.unprovenStep = true;
      return diverged(run, { step, reason: problem.reason });
    }
    candidates = learned;
  }
  const here = run.view.nodeAt(run.cursor.at);
  // A run ends where a recorded run ended only under values that fit: an end learned under
  // `times: one` is no end for `times: two`.
  const end = endOptionAt(here, runValuesOf(run.env));
  if (candidates.length === 0) {
    if (end?.fits) return finishAt(run, end.node);
    if (end) return endForOtherValues(run, end);
    if (!here) return { kind: 'miss' };
    return diverged(run, { step, reason: 'the recorded trajectory stops here before the task was done' });
  }
  const startedAt = again?.startedAt ?? Date.now();
  const found = await checkedCandidate(run, candidates, end, confirming, settlingActionAt);
  // The page was still settling as the checks read it: they are done again on the settled page,
  // and the step's check time holds both rounds.
  if (found.kind === 'again') return nextCachedStep(run, found.problem ?? problem, { startedAt, times });
  if (found.kind !== 'checked') return found;
  const checked = found.result;
  const checkMs = Date.now() - startedAt;
  if (checked.ok) return loadedWhileChecked(run, checked) ?? { kind: 'pass', pass: checked, startedAt, checkMs, checks: times.toRecord() };
  if (end?.fits) return finishAt(run, end.node);
  return divergenceOf(run, checked);
}

/** What may come next: after the current place, and after a pending jump; never a step done in this run. */
async function candidatesNow(run: RunState): Promise<TrajectoryNode[]> {
  const { view, cursor } = run;
  const own = (await view.candidatesAfter(cursor.at)).filter((node) => !cursor.wasDone(node.id));
  const jump = cursor.pendingJump;
  if (!jump) return own;
  const seen = new Set(own.map((node) => node.id));
  return [...own, ...(await view.candidatesAfter(jump)).filter((node) => !seen.has(node.id) && !cursor.wasDone(node.id))];
}

/**
 * The candidates polled, then the fork settled: the step that passed and is the only way on, or
 * the usual path's failure, or (as a NextStep) the end or an undecided fork.
 */
async function checkedCandidate(
  run: RunState,
  candidates: TrajectoryNode[],
  end: EndOption | undefined,
  confirming: Promise<SettleConfirmation>,
  settlingActionAt: number | undefined,
): Promise<NextStep | { kind: 'checked'; result: CheckPass | CheckFail } | { kind: 'again'; problem: StepProblem | undefined }> {
  const { context, input } = run;
  // At a recorded end, a child is taken only if it applies at once; otherwise the run is complete.
  // A step the recording waited for before may take as long again, and twice that on a slower day.
  const patience = Math.max(...candidates.map((node) => input.limits.checkTimeoutMs + 2 * (node.state.waitFor?.waitedMs ?? 0)));
  // A step learned under exactly this run's values, where the end was not, gets its patience: ending
  // before it comes would skip it (a confirmation asked only for large amounts, a moment late).
  const values = runValuesOf(run.env);
  const stepForTheseValues = !end?.exact && candidates.some((node) => arrivalsOf(node.state).some((key) => learnedUnderSame(key, values)));
  // A target read before the confirmation gets its last look as soon as the confirmation is in
  // (lastLook.ts); a confirmation that does not hold ends the poll after its round, to be done again.
  let unconfirmed = false;
  const confirmedHolds = confirming.then((confirmed) => confirmed.holds && !confirmed.problem).catch(() => false);
  void confirmedHolds.then((holds) => void (unconfirmed = !holds));
  const need: LastLookNeed = {
    wanted: confirming.then((confirmed) => (confirmed.holds && !confirmed.problem && confirmed.settleFully !== undefined ? (confirmed.actionAt ?? 0) : undefined)).catch(() => undefined),
    confirmed: false,
    ...(settlingActionAt !== undefined ? { actionAt: settlingActionAt } : {}),
  };
  void need.wanted.then((wanted) => void (need.confirmed = wanted !== undefined));
  run.env.lastLookNeed = need;
  let checked: CheckPass | CheckFail;
  try {
    checked = await pollCandidates(run, candidates, narrowed(context, end?.fits && !stepForTheseValues ? 0 : patience), () => unconfirmed);
  } catch (error) {
    // What the settling found (a page on an origin the run may not visit) explains whatever the checks met.
    await confirming;
    throw error;
  } finally {
    run.env.lastLookNeed = undefined;
  }
  const confirmed = await confirming;
  if (!confirmed.holds || confirmed.problem) return { kind: 'again', problem: confirmed.problem };
  if (checked.ok && confirmed.settleFully && !(await lastLookOf(run, checked, confirmed.actionAt ?? 0))) {
    await confirmed.settleFully();
    return { kind: 'again', problem: undefined };
  }
  if (!checked.ok) return { kind: 'checked', result: checked };
  const choice = await resolveFork({ env: run.env, first: checked, candidates, end, describe: (node) => run.describeStep(node) });
  switch (choice.kind) {
    case 'end':
      return finishAt(run, end!.node);
    case 'undecided':
      run.ledger.forkBetween(choice.options, choice.endToo ? end!.node : undefined);
      // No one recorded step stands for it: the report keeps it with its reason (RunEvents.handovers).
      return diverged(run, { step: run.ledger.steps.length, reason: choice.reason });
    case 'step':
      return { kind: 'checked', result: choice.pass };
  }
}

/** The pass's last look (lastLook.ts), taken beside its checks, or now where none was (a pass from a fork's own checks). */
function lastLookOf(run: RunState, pass: CheckPass, actionAt: number): Promise<boolean> {
  if (!pass.target) return Promise.resolve(true);
  return pass.lastLook ?? stillAsChecked(run.page, pass.action, pass.target, run.context, actionAt);
}

/**
 * A last look before acting: a load that arrived while the step was checked (a frame the run
 * filled, reloading) has lost the entries as surely as one before the checks.
 */
function loadedWhileChecked(run: RunState, checked: CheckPass): NextStep | undefined {
  if (checked.node.state.navigatedBefore !== false || run.documents.unexplained() === 0) return undefined;
  run.ledger.noteUse(checked.node.id, false);
  const reason = 'the page loaded a new document while this step was checked, which the recording did not: what the steps before entered may be gone';
  const intent = run.intentOf(checked.node);
  return diverged(run, { step: run.ledger.steps.length, reason, nodeId: checked.node.id, action: checked.node.action, ...(intent ? { intent } : {}) });
}

/** The usual path's failure as the run's divergence, with its evidence. */
async function divergenceOf(run: RunState, checked: CheckFail): Promise<NextStep> {
  const { context } = run;
  const step = run.ledger.steps.length;
  // The run's own deadline ended the wait: the run is over, and says where it stood and for what.
  if (Date.now() >= context.deadline) throw context.timeoutError(`at step ${step + 1} (${run.intentOf(checked.node) ?? describeAction(checked.node.action)}): ${checked.reason}`);
  run.ledger.noteUse(checked.node.id, false);
  const divergence: Divergence = { step, action: checked.node.action, nodeId: checked.node.id, reason: checked.reason };
  const intent = run.intentOf(checked.node);
  if (intent) divergence.intent = intent;
  if (checked.expected) divergence.expected = checked.expected;
  if (checked.actual) divergence.actual = checked.actual;
  if (checked.diff) divergence.diff = checked.diff;
  else if (!checked.expected) Object.assign(divergence, await evidenceAtRecordedPlace(run.env, checked.node));
  return diverged(run, divergence);
}

/**
 * A replay is complete only where the recorded run was: on the page it ended on. A submit that
 * did not go through (a new required field, a refused confirm) leaves the page elsewhere, and
 * the agent takes over there instead of the run claiming success.
 */
async function finishAt(run: RunState, end: TrajectoryNode): Promise<NextStep> {
  const endUrl = end.state.endUrl;
  if (!endUrl) return { kind: 'finished' };
  const { context, page, params } = run;
  const patience = narrowed(context, run.input.limits.checkTimeoutMs);
  let problem = compareUrls(endUrl, page.url(), params);
  while (problem && !isOver(patience)) {
    await pause(context, END_POLL_MS);
    problem = compareUrls(endUrl, page.url(), params);
  }
  if (!problem) return { kind: 'finished' };
  const unexpected = run.dialogs.unexpected.at(-1);
  const reason = `the recorded run ended here on ${endUrl}, but ${problem.replace(/^the page/, 'this page')}${unexpected ? ` (an unexpected dialog was dismissed: ${unexpected})` : ''}`;
  return diverged(run, { step: run.ledger.steps.length, reason });
}

/** Runs ended here, but under other values than this run's, and no step on from here fits: not an end for this run. */
function endForOtherValues(run: RunState, end: EndOption): NextStep {
  const reason = `a recorded run ended here, but under another value of ${end.misfit ? `parameter "${end.misfit}"` : 'a parameter'}, which no step shows: whether this run is done here cannot be shown`;
  return diverged(run, { step: run.ledger.steps.length, reason });
}

/** Every divergence is logged the one way, with the step numbered from 1. */
function diverged(run: RunState, divergence: Divergence): NextStep {
  run.context.log(`step ${divergence.step + 1} diverged: ${divergence.reason}`);
  return { kind: 'diverged', divergence };
}
