import type { Page } from 'playwright';
import type { Action } from '../actions/action.js';
import { beforeAction, settle } from '../checks/settle.js';
import { RoteError } from '../errors/roteError.js';
import { jsonProblem, mapStrings, type JsonValue } from '../params/jsonValues.js';
import type { BoundParams } from '../params/boundParams.js';
import { messageOf } from '../errors/messageOf.js';
import { redactSecrets } from '../params/secret.js';
import { templatize } from '../params/template.js';
import type { Tool } from '../tools/toolRegistry.js';
import type { AgentStep, AgentStepInput } from './agentStep.js';
import { captureEvidence } from './evidence.js';
import { literalGuards } from './paramBindings.js';
import { templatedAction } from './recordStep.js';
import { newNode, type StatePatch } from '../trajectory/nodeBuilder.js';
import { captureForRecording } from './toolChecks.js';

type ToolAction = Extract<Action, { type: 'tool' }>;

/**
 * Calls a tool's function with the arguments (parameters bound). A tool that throws ends the run
 * as failed, naming it: that is the user's code failing, not a page that changed. The caller
 * settles the page afterwards, since a tool may act on it.
 */
export async function callTool(page: Page, tool: Tool, args: Record<string, unknown>, params: BoundParams): Promise<unknown> {
  try {
    // A copy: the tool may change what it is given, the recording must not change with it.
    return await tool.fn(structuredClone(args), { page, params: params.toRecord() });
  } catch (error) {
    throw new RoteError('tool', `tool "${tool.name}" failed: ${messageOf(error)}`, { cause: error });
  }
}

/**
 * Records the agent's call of a tool: the pre-check's data before it, the call, the post-check's
 * data after it. Stored with its string arguments templated as typed text is, and with no secret
 * value anywhere. The tool's result is returned for the agent, never stored.
 */
export async function recordToolStep(
  page: Page,
  action: ToolAction,
  tool: Tool,
  input: AgentStepInput,
): Promise<AgentStep & { result: unknown }> {
  const { params } = input;
  // Templated before the tool runs: its code may change the object it is given.
  const stored = templatedAction(action, params, input.asGiven);
  // The URL (a tool step is tied to the page it was called on, as any step) and the controls that show values.
  const evidence = await captureEvidence(page, action, params, input.task, input.deadline);
  const call = { page, params, args: action.args };
  const captured: { pre?: JsonValue; post?: JsonValue } = {};
  if (tool.preCheck) captured.pre = await captureForRecording(tool.preCheck, tool, 'pre', call);
  const before = beforeAction(page);
  const result = await callTool(page, tool, action.args, params);
  await settle(page, before, input.deadline);
  if (tool.postCheck) captured.post = await captureForRecording(tool.postCheck, tool, 'post', call);
  const learned: StatePatch = { tool: captured };
  if (stored.ambiguous.length > 0) learned.ambiguous = stored.ambiguous;
  // An argument rendering a value in a form that could not be told for sure stays literal; a replay
  // with another value for it must hand over rather than pass the old text (see preCheck).
  const literalOf = literalGuards(stored.literal, params, input.valueSalt);
  if (literalOf) learned.literalOf = literalOf;
  const intent = input.intent === undefined ? undefined : templatize(input.intent, params).template;
  const node = newNode({ taskId: input.taskId, parentId: input.parentId, action: stored.action, intent, evidence, cropHash: null, learned });
  return { node, crop: null, result };
}

/** A tool's result as an agent may see it: JSON (or its text), with secret values masked. */
export function resultForAgent(result: unknown, params: BoundParams): JsonValue | undefined {
  if (result === undefined) return undefined;
  let json: JsonValue;
  if (jsonProblem(result) === undefined) json = result as JsonValue;
  else {
    try {
      json = JSON.parse(JSON.stringify(result)) as JsonValue;
    } catch {
      json = String(result);
    }
  }
  return mapStrings(json, (text) => redactSecrets(text, params), { keys: true, numbers: true });
}
