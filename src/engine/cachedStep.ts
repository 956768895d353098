import { actionPoint, describeAction, withPoint } from '../actions/action.js';
import { performAction } from '../actions/perform.js';
import { beforeAction, navigationWatch, settle } from '../checks/settle.js';
import { confirmSettled } from '../checks/settleConfirm.js';
import type { LookedTarget } from './cropProof.js';
import type { ReadTarget } from './readProof.js';
import { markFocus } from './focusKept.js';
import type { CheckPass } from './preCheck.js';
import type { NextStep } from './nextCachedStep.js';
import type { RunState, SettleConfirmation, StepProblem } from './runState.js';
import { checkToolCall } from './toolChecks.js';
import { callTool } from './toolStep.js';

/**
 * Does a cached step whose checks passed, and says what the next turn must know of it: whether
 * it may not have done its work (StepProblem). The step is in the run's result either way.
 */
export async function doCachedStep(run: RunState, found: Extract<NextStep, { kind: 'pass' }>): Promise<StepProblem | undefined> {
  const { context, params } = run;
  const { pass: checked, startedAt, checkMs, checks } = found;
  const stepNumber = run.nextStepNumber;
  run.guardSteps();
  // Loads before a step recorded after one are its own to expect.
  if (checked.node.state.navigatedBefore !== false) run.documents.account();
  run.detourAfterDialog = false;
  // What this step's look showed may answer the next step's crop check, if the step does its work.
  const looked = lookedTarget(run, checked, stepNumber);
  run.env.looked = undefined;
  // And what its checks read may answer the next step's read (readProof.ts).
  const read = readTarget(run, checked, stepNumber);
  run.env.readBefore = undefined;
  // Where the next step's crop is first taken (visualCheck.ts): this step's element, found off its box, says how the page moved.
  if (checked.offset) run.env.offset = checked.offset;
  const before = beforeAction(run.page);
  const documentsBefore = navigationWatch(run.page).documentCount;
  const acting = Date.now();
  run.dialogs.beginStep(checked.node.state.dialogs ?? []);
  const acts = checked.action.type === 'tool' || (!checked.alreadyDone && checked.action.type !== 'wait');
  const acted = await act(run, checked, stepNumber);
  let problem = acted.problem;
  // Not done at all: the step is not the run's, and the next turn diverges here with the reason.
  if (problem?.notDone) {
    run.ledger.noteUse(checked.node.id, false);
    return problem;
  }
  const page = run.page;
  // A step that stays on its document, as recorded, may be found settled before the tasks it
  // queued have run: the next step's checks confirm that (checks/settleConfirm.ts).
  const provisional = problem === undefined && acts && checked.action.type !== 'tool' && checked.node.state.navigated === false && (checked.node.state.dialogs ?? []).length === 0;
  // A document that loaded while the step's work settled (a frame swapped while its save was on
  // its way) may have cancelled that work: after the last step no next check would see it.
  const loadedWhileSettling = (): StepProblem | undefined =>
    acts && checked.node.state.navigated === false && navigationWatch(page).documentCount !== documentsBefore
      ? { reason: `the page loaded a new document while step ${stepNumber}'s work settled, which the recording did not: whether the step's work arrived cannot be shown`, kind: 'document' }
      : undefined;
  // A dialog the recording did not have, open while this step acted, may have swallowed its input.
  const dialogWhileActing = (): StepProblem | undefined => {
    const dialog = acts ? run.dialogs.unexpectedSince(acting) : undefined;
    return dialog ? { reason: `an unexpected ${dialog} was open while step ${stepNumber} acted (it was dismissed): whether that step took effect cannot be shown`, kind: 'dialog' } : undefined;
  };
  // Whether the field kept the focus while the keys went is asked beside settling's first look.
  const focusLost = acted.focusLost?.();
  if (provisional) {
    // Not waited for here: the next step's checks start beside settling's first look, and count
    // only once it found the page settled for now and the sentinel it queued confirmed that
    // (RunState.confirmSettled, before anything is decided on them, and before any agent's turn).
    // Where the first look found the page still changing, settling goes on the usual way and the
    // checks are done again on the settled page. Whatever an action changes, it changes after the
    // action: a read at any moment from then on is covered by the look (no change at all since the
    // action) and the sentinel (nothing since the look, up to the tasks the action queued).
    const settling = settle(page, before, context, { provisional: true });
    settling.catch(() => undefined);
    focusLost?.catch(() => undefined);
    run.settling = Object.assign(async (): Promise<SettleConfirmation> => {
      const settled = await settling;
      // What the step's own work changed while it settled is not what the next agent step waited for.
      if (checked.action.type !== 'wait') run.waits.acted();
      run.input.origins.checkPage(page, stepNumber);
      const holds = settled === 'provisional' && (await confirmSettled(page, before, context));
      // A load or a dialog the queued tasks brought is the step's problem, found once settled.
      const late = (await focusLost) ?? loadedWhileSettling() ?? dialogWhileActing();
      const settleFully = async () => void (await settle(page, before, context));
      return { holds, ...(late ? { problem: late } : {}), ...(holds ? { settleFully, actionAt: before.at } : {}) };
    }, { actionAt: before.at });
  } else {
    problem ??= await focusLost;
    await settle(page, before, context);
    problem ??= loadedWhileSettling();
    run.input.origins.checkPage(run.page, stepNumber);
    if (checked.action.type !== 'wait') run.waits.acted();
  }
  const actMs = Date.now() - acting;
  // After the page settled: a failure is not this step's error, the next step diverges with it.
  if (checked.action.type === 'tool') {
    const problemAfter = await checkToolCall(run.toolNamed(checked.action.name), checked.node, 'post', { page: run.page, params, args: checked.action.args });
    if (problemAfter !== undefined) problem = { reason: problemAfter, kind: 'tool' };
  }
  if (!provisional) problem ??= dialogWhileActing();
  if (problem === undefined) {
    run.env.looked = looked;
    run.env.readBefore = read;
  }
  const intent = run.intentOf(checked.node);
  // Logged and stored as recorded, with templates: parameter values stay out of logs and the store.
  const point = actionPoint(checked.action);
  const stored = point ? withPoint(checked.node.action, point) : checked.node.action;
  const leaned = checked.looked?.by === 'step' ? checked.looked.step : undefined;
  const readFrom = checked.readFrom;
  const shownBy = [leaned ? `its look shown by step ${leaned}'s crop` : '', readFrom ? `its target by step ${readFrom}'s read` : ''].filter(Boolean).join(', ');
  context.log(`${checked.kind} ${describeAction(stored)}${checked.alreadyDone ? ' (already in the recorded state)' : ''}${shownBy ? ` (${shownBy})` : ''}${intent ? ` - ${intent}` : ''}`);
  // A step whose crop check leaned on the step before shows that step's crop in the report.
  const picture = checked.crop ?? (leaned !== undefined ? looked?.crop : undefined);
  run.ledger.pushStep({ kind: checked.kind, action: run.redactAction(checked.action), stored, intent, startedAt, checkMs, checks, actMs, cropFrom: leaned, readFrom, nodeId: checked.node.id, crop: picture });
  run.ledger.noteUse(checked.node.id, true);
  run.stepDone(checked.node);
  return problem;
}

/** The element whose look this step showed, as the rule in cropProof.ts needs it; undefined when it showed none. */
function lookedTarget(run: RunState, checked: CheckPass, stepNumber: number): LookedTarget | undefined {
  const { looked, target } = checked;
  if (!looked || target?.domNode === undefined) return undefined;
  const crop = checked.crop ?? (looked.by === 'step' ? run.env.looked?.crop : undefined);
  return { domNode: target.domNode, box: target.box, documents: navigationWatch(run.page).documentCount, window: run.env.window ?? 0, step: looked.by === 'step' ? looked.step : stepNumber, ...(crop ? { crop } : {}) };
}

/** The target this step's checks read (or the earlier read that answered theirs), as readProof.ts needs it; undefined when there is none. */
function readTarget(run: RunState, checked: CheckPass, stepNumber: number): ReadTarget | undefined {
  if (!checked.target || checked.target.read === undefined) return undefined;
  return { target: checked.target, node: checked.node, step: checked.readFrom ?? stepNumber, documents: navigationWatch(run.page).documentCount, window: run.env.window ?? 0 };
}

/**
 * What the action left: a problem known at once, and for typing, the question whether the field
 * kept the focus while the keys went (asked by the caller, beside settling).
 */
type Acted = { problem?: StepProblem; focusLost?: () => Promise<StepProblem | undefined> };

/** The step's own work: a tool's call, or the action (a recorded wait is never replayed as time: its checks waited for what the page had to show). */
async function act(run: RunState, checked: CheckPass, stepNumber: number): Promise<Acted> {
  const { context, params, page } = run;
  if (checked.action.type === 'tool') {
    // A tool step is a call of the user's function (its pre-check passed with the other checks).
    const tool = run.toolNamed(checked.action.name);
    run.noteToolResult(await context.bounded(callTool(page, tool, checked.action.args, params), `calling tool "${tool.name}"`));
    return {};
  }
  if (checked.alreadyDone || checked.action.type === 'wait') return {};
  await run.input.origins.checkSecretTyping(page, checked.node.action, params, stepNumber);
  run.waits.acting();
  const focus = checked.action.type === 'type' ? await markFocus(page, context, checked.target?.read) : undefined;
  // The field the checks found may have been replaced since (found by the fault suite once the checks got faster).
  const typesIntoField = checked.target !== null && checked.target.fingerprint.tag !== 'body' && checked.target.fingerprint.tag !== 'html';
  if (focus && typesIntoField && focus.pageItself) {
    focus.dispose();
    return { problem: { reason: `the field lost the focus after step ${stepNumber}'s checks, before it typed (the page replaced or left it): the step was not done`, kind: 'focus', notDone: true } };
  }
  // Found by review: a page that hands the focus on by a timer after the checks would take the keys elsewhere.
  if (focus?.elsewhere && typesIntoField) {
    focus.dispose();
    return { problem: { reason: `the focus moved to another element after step ${stepNumber}'s checks, before it typed: the step was not done`, kind: 'focus', notDone: true } };
  }
  // The last look before the action: a document that loaded since the checks (a frame swapped
  // under the run) has taken the steps' entries along, and acting now would save an empty form
  // under a run that says replayed (found by frames.spec.ts once the checks got faster).
  if (checked.node.state.navigatedBefore === false && run.documents.unexplained() > 0) {
    focus?.dispose();
    return { problem: { reason: `the page loaded a new document after step ${stepNumber}'s checks, before it acted, which the recording did not: what the steps before entered may be gone, so the step was not done`, kind: 'document', notDone: true } };
  }
  const documents = navigationWatch(page).documentCount;
  try {
    await performAction(page, checked.action, checked.typeMode, context);
  } catch (error) {
    focus?.dispose();
    throw error;
  }
  // One that loaded while the action's events went (a click is a move, a press and a release) may
  // have taken them: the step may have acted on the new document, and the run cannot say it did its work.
  if (checked.node.state.navigated === false && navigationWatch(page).documentCount !== documents) {
    focus?.dispose();
    return { problem: { reason: `the page loaded a new document while step ${stepNumber} acted, which the recording did not: whether the step acted on what the steps before entered cannot be shown`, kind: 'document' } };
  }
  if (!focus) return {};
  // Found by the fault suite: a field replaced while its keys went left it empty under a run that said replayed.
  const focusLost = async (): Promise<StepProblem | undefined> =>
    (await focus.kept()) ? undefined : { reason: `the field lost the focus while step ${stepNumber} typed (the page replaced or left it): whether the text arrived cannot be shown`, kind: 'focus' };
  return { focusLost };
}
