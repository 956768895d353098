import { actionPoint, describeAction, type Action } from '../actions/action.js';
import { mapActionText } from '../actions/actionText.js';
import { offScreen } from '../actions/onScreen.js';
import { controlSelectors, shownValues } from '../checks/shownValues.js';
import { RoteError } from '../errors/roteError.js';
import { redactSecrets } from '../params/secret.js';
import { renderKnown } from '../params/template.js';
import { urlRenderingParams } from '../params/url.js';
import { narrowed, withinDeadline } from '../progress/deadline.js';
import { patchNode, type StatePatch } from '../trajectory/nodeBuilder.js';
import { sameStep } from '../trajectory/sameStep.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { NodeRef } from '../trajectory/nodeRef.js';
import type { WaitFor } from './waitCondition.js';
import { performAgentStep, type AgentStep, type AgentStepInput } from './agentStep.js';
import { literalGuards } from './paramBindings.js';
import type { RunState } from './runState.js';
import { recordToolStep } from './toolStep.js';

/** Reading which values the page shows after an agent's step: one evaluate, normally a few ms. */
const SHOWN_VALUES_LIMIT_MS = 2_000;

/**
 * Does one of the agent's actions and records it as a step: a new node, or the equal stored step
 * that stands for it (runs that share a prefix share nodes). Returns the node the run is at now.
 */
export async function doAgentAction(run: RunState, agentAction: Action, agentIntent: string | undefined): Promise<TrajectoryNode> {
  const { context, params } = run;
  // The agent never sees a secret; it types `{{password}}`, which is bound here before acting.
  const action = mapActionText(agentAction, (text, field) => renderKnown(text, field === 'url' ? urlRenderingParams(text, params) : params));
  const intent = agentIntent === undefined ? undefined : redactSecrets(agentIntent, params);
  await refuseUnsafe(run, action, agentAction);
  const stepNumber = run.nextStepNumber;
  const started = Date.now();
  // What a replay may expect: a new document loaded before this step (while the agent thought) or during it.
  const { loadedBefore } = run.documents.agentStepStarts();
  run.dialogs.beginStep('record');
  const parent = run.cursor.at;
  // What the page did since the last step acted is what this step waited for (a wait waits on).
  const waitedFor = action.type === 'wait' ? undefined : await run.waits.capture(run.page, params, actionPoint(action));
  if (action.type !== 'wait') run.waits.acting();
  // The form controls there before the step: a value that shows in one of them after it was set by it (pathLearning.ts).
  const controlsBefore = action.type === 'tool' ? undefined : await withinDeadline(narrowed(context, SHOWN_VALUES_LIMIT_MS), controlSelectors(run.page), 'listing the form controls').catch(() => undefined);
  const step = await perform(run, action, { intent, params, task: run.input.identity.template, taskId: run.input.identity.key, valueSalt: run.input.identity.valueSalt, parentId: parent.kind === 'root' ? null : parent.id, deadline: context, asGiven: agentAction });
  // The agent failed on a prompt this step opened: the step ran (it is in the result), then the run fails with that.
  const promptFailure: unknown = run.dialogs.failure;
  // Read now: a dialog raised while the values are read below is not this step's.
  const dialogs = dialogFacts(run, step.node);
  if (controlsBefore) await noteShownValues(run, step.node, new Set(controlsBefore));
  if (step.crop) run.ledger.crops.set(step.crop.hash, step.crop.bytes);
  patchNode(step.node, { state: { ...dialogs, ...placeFacts(run, loadedBefore) } });
  run.detourAfterDialog = false;
  const node = await storedOrNew(run, parent, step.node, waitedFor);
  context.log(`agent ${describeAction(step.node.action)}${intent ? ` - ${intent}` : ''}`);
  run.ledger.pushStep({ kind: 'agent', action: run.redactAction(action), stored: step.node.action, intent, startedAt: started, checkMs: 0, nodeId: node.id, crop: step.crop?.bytes });
  if (promptFailure !== undefined) throw promptFailure;
  run.input.origins.checkPage(run.page, stepNumber);
  run.stepDone(node);
  return node;
}

/** Refused before it lands: a step past the budget, a point off the screen, a navigation off the run's origins, a secret typed where it may not go. */
async function refuseUnsafe(run: RunState, action: Action, asGiven: Action): Promise<void> {
  const { page, params } = run;
  run.guardSteps();
  const stepNumber = run.nextStepNumber;
  // Any agent's point off the screen is refused before it lands on whatever Playwright would scroll there.
  const viewport = page.viewportSize();
  const outside = viewport ? offScreen(action, viewport) : undefined;
  if (outside) throw new RoteError('agent', `the agent's step ${stepNumber} was not done: ${outside}`);
  run.input.origins.checkNavigation(action, stepNumber);
  await run.input.origins.checkSecretTyping(page, asGiven, params, stepNumber);
}

/** The action itself, recorded: a tool's call, or an action on the page. */
async function perform(run: RunState, action: Action, input: AgentStepInput): Promise<AgentStep> {
  if (action.type !== 'tool') return performAgentStep(run.page, action, input);
  const recorded = await run.context.bounded(recordToolStep(run.page, action, run.toolNamed(action.name), input), `calling tool "${action.name}"`);
  run.noteToolResult(recorded.result);
  return recorded;
}

/** Where the step was done: whether it loaded a document (or one came before it), the window, whether it answered a dialog that overlapped a cached step. */
function placeFacts(run: RunState, loadedBefore: boolean): StatePatch {
  const window = run.windows.indexOf(run.page);
  return {
    navigated: run.documents.loadedDuringStep(),
    navigatedBefore: loadedBefore,
    ...(run.detourAfterDialog ? { afterDialog: true } : {}),
    ...(window > 0 ? { window } : {}),
  };
}

/** A step's dialogs are stored with it; a prompt answered with a value it cannot tell for sure is guarded like typed text. */
function dialogFacts(run: RunState, node: TrajectoryNode): StatePatch {
  if (run.dialogs.raisedThisStep.length === 0) return {};
  const { literal, ambiguous } = run.dialogs.answersThisStep;
  const guarded = literalGuards(literal, run.params, run.input.identity.valueSalt);
  return {
    dialogs: [...run.dialogs.raisedThisStep],
    ...(ambiguous.length > 0 ? { ambiguous: [...(node.state.ambiguous ?? []), ...ambiguous] } : {}),
    ...(guarded ? { literalOf: { ...node.state.literalOf, ...guarded } } : {}),
  };
}

/**
 * The node that stands for the step: an equal stored step, or the new one, added to the tree.
 * The condition the step waited for goes on a new node only: a stored step the agent repeated
 * keeps its state, and the condition then goes nowhere.
 */
async function storedOrNew(run: RunState, parent: NodeRef, fresh: TrajectoryNode, waitedFor: WaitFor | undefined): Promise<TrajectoryNode> {
  const existing = (await run.view.children(parent)).find((node) => sameStep(node, fresh));
  const node = existing ?? fresh;
  if (!existing) run.view.add(fresh);
  if (fresh.action.type === 'wait') run.waits.waited(node, !existing);
  else {
    if (!existing) run.waits.attach(waitedFor, node);
    run.waits.acted();
  }
  return node;
}

/**
 * The values form controls showed before the agent's step (its evidence) and after it: where a
 * value set by clicks first shows (pathLearning.ts). A page that cannot be read now leaves the
 * step unknown, which binds nothing.
 */
async function noteShownValues(run: RunState, fresh: TrajectoryNode, controlsBefore: ReadonlySet<string>): Promise<void> {
  const { page, params, context } = run;
  const after = await withinDeadline(narrowed(context, SHOWN_VALUES_LIMIT_MS), shownValues(page, params.toRecord()), 'reading the values on the page').catch(() => undefined);
  if (!after) return;
  const before = (fresh.state.watches ?? []).map((watch) => watch.param);
  // A value in a control that came with the step (a new page, an edit dialog) was the record's already: not set by the step.
  const set = after.filter((watch) => before.includes(watch.param) || controlsBefore.has(watch.selector)).map((watch) => watch.param);
  run.ledger.shown.set(run.ledger.steps.length, { before, after: set });
}
