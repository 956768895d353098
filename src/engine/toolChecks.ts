import { runCheck, type Check, type CheckContext } from '../checks/customCheck.js';
import { RoteError } from '../errors/roteError.js';
import { jsonProblem, mapStrings, type JsonValue } from '../params/jsonValues.js';
import type { BoundParams } from '../params/boundParams.js';
import { hideSecrets, renderKnown } from '../params/template.js';
import type { Page } from 'playwright';
import type { Tool, ToolRegistry } from '../tools/toolRegistry.js';
import type { Action } from '../actions/action.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { messageOf } from '../errors/messageOf.js';

export type Phase = 'pre' | 'post';

const LABEL: Record<Phase, string> = { pre: 'pre-check', post: 'post-check' };

/** One call of a tool: where, with which run's values, with which (bound) arguments. */
export type ToolCall = { page: Page; params: BoundParams; args: Readonly<Record<string, unknown>> };

/** What a user's check is given: the values as a plain record, the one place secrets are plain. */
function checkContext(call: ToolCall): CheckContext {
  return { page: call.page, params: call.params.toRecord(), args: call.args };
}

/**
 * Captures a check's data for the recording. It is stored, so it must be JSON, and a secret
 * value in it (a check that read the password field) is kept as its `{{name}}` only.
 * A capture that throws or returns something else fails the recording run with the tool's name.
 */
export async function captureForRecording(check: Check, tool: Tool, phase: Phase, call: ToolCall): Promise<JsonValue> {
  const where = `tool "${tool.name}": ${phase}Check.capture`;
  let data: unknown;
  try {
    data = await check.capture(checkContext(call));
  } catch (error) {
    throw new RoteError('tool', `${where} threw while recording: ${messageOf(error)}`, { cause: error });
  }
  const problem = jsonProblem(data);
  if (problem) throw new RoteError('invalid-argument', `${where} must return JSON data (it is stored with the step), got ${problem}`);
  return mapStrings(data as JsonValue, (text) => hideSecrets(text, call.params).template, { keys: true, numbers: true });
}

/**
 * Compares this run's capture with the recorded one. Recorded data holds secrets as `{{name}}`:
 * they are rendered with this run's values first, so compare sees what capture returns.
 * Returns the reason the check failed, or undefined when it passed.
 */
export async function checkToolCall(tool: Tool, node: TrajectoryNode, phase: Phase, call: ToolCall): Promise<string | undefined> {
  const check = phase === 'pre' ? tool.preCheck : tool.postCheck;
  // A check added after the recording has nothing to compare with; one removed since is not asked.
  if (!check) return undefined;
  const label = `custom ${LABEL[phase]} of tool "${tool.name}"`;
  const recorded = node.state.tool?.[phase];
  if (recorded === undefined) return `${label} has no recorded data to compare with (the check was added after this step was recorded)`;
  const rendered = mapStrings(recorded, (text) => renderKnown(text, call.params), { keys: true });
  const outcome = await runCheck(check, checkContext(call), rendered, label);
  return outcome.ok ? undefined : outcome.reason;
}

/** Before a recorded tool call is replayed: the tool is registered here, and its pre-check passes. */
export async function toolPreCheck(
  tools: ToolRegistry | undefined,
  page: Page,
  params: BoundParams,
  node: TrajectoryNode,
  action: Extract<Action, { type: 'tool' }>,
): Promise<string | undefined> {
  const tool = tools?.get(action.name);
  if (!tool) return `tool "${action.name}" is not registered with this Rote (register it with rote.tool("${action.name}", fn, options))`;
  return checkToolCall(tool, node, 'pre', { page, params, args: action.args });
}
