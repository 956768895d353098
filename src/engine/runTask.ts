import { describeAction } from '../actions/action.js';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import { RoteError, type RoteErrorCode } from '../errors/roteError.js';
import { scrubError } from '../params/scrubError.js';
import { deadlineIn } from '../progress/deadline.js';
import { drive, type RunEnd } from './drive.js';
import { startWatching } from './followWindow.js';
import { lastScreen } from './lastScreen.js';
import { withinOverrun } from './overrun.js';
import { pageGone } from './pageAlive.js';
import { commitRun, markRunFailed } from './runCommit.js';
import { encodeRunImages } from './runImages.js';
import type { Divergence, RunResult, RunStatus } from './runResult.js';
import { RunState, type RunInput } from './runState.js';

export type { RunInput, RunLimits } from './runState.js';

/** Taking rote's init script off the page is one DevTools call: this long at most, and a run past its deadline waits this little. */
const UNWATCH_LIMIT_MS = 1000;
const LATE_UNWATCH_MS = 100;

/** How a run ended, as its record says: a status, and for a run that did not end well, why. */
type Classified = { status: RunStatus; error?: string; errorCode?: RoteErrorCode; divergence?: Divergence };

/**
 * One run of a planned task: begin its record, drive its steps (replay what matches, ask the
 * agent for the rest, re-join the cached path as soon as a cached step's checks pass again),
 * classify how it ended, and commit everything in one transaction.
 */
export async function runTask(input: RunInput): Promise<RunResult> {
  const { store, identity, mode, context, params } = input;
  const run = new RunState(input);
  try {
    await store.beginRun({ id: run.ledger.runId, taskId: identity.key, task: identity.template, mode, startedAt: context.startedAt, pid: process.pid, jobId: input.jobId ?? null, params: params.shown() });
  } catch (error) {
    // No record, no run: the page is left as it was given, with nothing of rote listening on it.
    run.windows.dispose();
    throw error;
  }
  run.watchDialogs();
  run.documents.begin();
  let ended: Classified;
  try {
    ended = classifyEnd(await withinOverrun(startWatching(run).then(() => drive(run)), run.page, context), run);
  } catch (thrown) {
    ended = classifyError(thrown, run);
  }
  if (ended.divergence) run.ledger.divergences.push(ended.divergence);
  // No run hands back a page that a dialog holds: whatever is still open (a prompt the agent never answered) is dismissed.
  await run.dialogs.closeAll();
  run.windows.dispose();
  // Taken off beside the commit: a page handed back loads no document with rote's log in it.
  const unwatching = deadlineIn(Math.min(UNWATCH_LIMIT_MS, Math.max(LATE_UNWATCH_MS, context.deadline - Date.now())));
  const unwatched = run.changeLogAtLoad.end(unwatching);
  if (ended.status === 'failed') run.ledger.finalScreen = await lastScreen(run.page, params, context.deadline);
  const result = run.ledger.result({ status: ended.status, error: ended.error, errorCode: ended.errorCode, task: input.task, taskKey: identity.key, startedAt: context.startedAt, callLog: context.callLog, params, warnings: run.view.warnings, dialogs: run.dialogs.events, time: run.time });
  try {
    await commit(run, result);
  } finally {
    await unwatched;
  }
  return result;
}

function classifyEnd(end: RunEnd, run: RunState): Classified {
  switch (end.kind) {
    case 'done':
      return { status: end.status };
    case 'diverged':
      return { status: 'diverged', error: describeDivergence(end.divergence, run.context.apiName), divergence: end.divergence };
  }
}

function classifyError(thrown: unknown, run: RunState): Classified {
  const { context } = run;
  // Stopped by its caller (an agent that aborts, a person's Ctrl+C, is a failure): nothing of it is learned, and the record says so.
  if (RoteError.isInstance(thrown) && thrown.code === 'aborted' && (context.signal?.aborted || context.stop?.aborted)) return { status: 'interrupted', error: thrown.message };
  // A browser call cut short by the run's own deadline (its timeout was what the deadline left) is the run's timeout.
  const outOfTime = !RoteError.isInstance(thrown) && !pageGone(run.page) && Date.now() >= context.deadline;
  const error = outOfTime ? context.timeoutError(`(at step ${run.nextStepNumber}: ${firstLineOf(messageOf(thrown))})`) : thrown;
  const errorCode = RoteError.isInstance(error) ? error.code : pageGone(run.page) ? 'page-closed' : 'internal';
  const message = messageOf(error);
  return { status: 'failed', errorCode, error: message.startsWith(`${context.apiName}:`) ? message : `${context.apiName}: ${message}` };
}

/** The run's error for a divergence, from what the divergence itself holds: its step's intent or action. */
function describeDivergence(divergence: Divergence, apiName: string): string {
  const step = divergence.intent ?? (divergence.action ? describeAction(divergence.action) : undefined);
  return `${apiName}: step ${divergence.step + 1}${step ? ` (${step})` : ''} diverged: ${divergence.reason}`;
}

/** Everything the run leaves behind, in one transaction; a run whose commit fails is still closed as failed. */
async function commit(run: RunState, result: RunResult): Promise<void> {
  const { store, identity, params, declaredSchema } = run.input;
  const { ledger } = run;
  try {
    const images = await encodeRunImages({ steps: ledger.pictures, divergences: result.divergences, finalScreen: ledger.finalScreen });
    await commitRun({ images, store, identity, params, declaredSchema, valueHashes: run.valueHashes, result, view: run.view, stepNodes: ledger.stepNodes, storedActions: ledger.storedActions, stats: ledger.stats, links: ledger.links, crops: ledger.crops, seen: ledger.pathSightings });
  } catch (commitError) {
    // The trajectory could not be stored; the run record must still not stay 'running'.
    await markRunFailed({ store, result }, scrubError(commitError, params.secretValues()));
    throw commitError;
  }
}
