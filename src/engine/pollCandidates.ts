import { isOver, pause, type Deadline } from '../progress/deadline.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { followWindow } from './followWindow.js';
import { preCheck, type CheckFail, type CheckPass } from './preCheck.js';
import type { RunState } from './runState.js';

/** How long a target may lag behind the state the recording waited for (a button enabled just after the status says "Ready"). */
const MOMENT_GRACE_MS = 300;

/** Between two looks at a page whose candidates all failed, when no check waited in the page. */
const POLL_PAUSE_MS = 50;

/**
 * Polls the candidates until one passes every check or `patience` is over; reports the usual path's
 * failure. A failure that no page change can pass is not checked again (its reason stays the
 * one that tells why). Once a value the step waits for has moved past the recorded one, or the
 * page shows it and the target still fails, a process is running on without the step: unless
 * another candidate still waits for its own state, the poll ends then (after a short grace for
 * a target that lags its state), so the agent gets the page while it can still act.
 */
export async function pollCandidates(
  run: RunState,
  candidates: readonly TrajectoryNode[],
  patience: Deadline,
  /** True once what the checks read can no longer count (the settle before them did not hold): the poll ends after its round. */
  voided?: () => boolean,
): Promise<CheckPass | CheckFail> {
  const { context } = run;
  const permanent = new Map<TrajectoryNode, CheckFail>();
  let firstFailure: CheckFail | undefined;
  let momentCame: number | undefined;
  // The one candidate whose only missing piece is its wait condition, when the others fail their own checks.
  let focus: TrajectoryNode | undefined;
  for (;;) {
    // A window the last step opened may come a moment after it (or close a moment after).
    await followWindow(run);
    const round = await checkRound(run, candidates, permanent, patience, focus);
    if (round.pass) return round.pass;
    // A capture the deadline cut says nothing of the page: the reason found before it stays the one reported.
    if (!(round.first.uncaptured && firstFailure)) firstFailure = round.first;
    // A divergence caused by this run's values is known at once: no page change can pass it.
    if (isOver(patience) || permanent.size === candidates.length || context.signal?.aborted || voided?.()) return firstFailure;
    momentCame = round.atMoment ? (momentCame ?? Date.now()) : undefined;
    // The patience a slow page earns is not for a moment that has passed, unless another candidate's may still come.
    const moved = round.wentPast || (momentCame !== undefined && Date.now() - momentCame >= MOMENT_GRACE_MS);
    if (moved && round.awaiting.length === 0) return firstFailure;
    focus = round.awaiting.length === 1 ? round.awaiting[0] : undefined;
    // A check that waited in the page for a wait's condition has waited already.
    if (round.awaiting.length === 0) await pause(context, POLL_PAUSE_MS);
  }
}

type Round = { pass: CheckPass; first?: undefined } | { pass?: undefined; first: CheckFail; atMoment: boolean; wentPast: boolean; awaiting: TrajectoryNode[] };

/** Every candidate checked once, in order; the first that passes ends the round. */
async function checkRound(run: RunState, candidates: readonly TrajectoryNode[], permanent: Map<TrajectoryNode, CheckFail>, patience: Deadline, focus: TrajectoryNode | undefined): Promise<Round> {
  let first: CheckFail | undefined;
  let wentPast = false;
  let atMoment = false;
  const awaiting: TrajectoryNode[] = [];
  for (const candidate of candidates) {
    // Waited for in one stretch, the condition is watched on every change: no gap to miss a value
    // a process passes through. A change at the target meanwhile is caught by the re-look after it.
    const alone = candidates.length === 1 || candidate === focus;
    const result = permanent.get(candidate) ?? (await preCheck(run.env, candidate, patience, { alone }));
    if (result.ok) return { pass: result };
    if (result.permanent) permanent.set(candidate, result);
    if (candidate === candidates[0]) first = result;
    if (candidate === candidates[0] || candidate === focus) {
      atMoment ||= result.atRecordedMoment === true;
      wentPast ||= result.gonePast === true;
    }
    if (result.awaiting) awaiting.push(candidate);
  }
  return { first: first!, atMoment, wentPast, awaiting };
}
