/**
 * The custom tools registered with `rote.tool`, as function tools for both OpenAI APIs: offered
 * next to rote's own actions, a call read back as a `tool` action, and its result (from the next
 * observation, once rote has made the call) as the text the model gets for that call.
 */
import { actionSchema } from '../../actions/action.js';
import { accept, refuse } from '../../errors/refusal.js';
import type { Observation } from '../agent.js';
import type { MappedAction } from './computerActions.js';
import type { ChatTool } from './modelTypes.js';

/** Custom tools define their own arguments: any JSON object is accepted, rote checks it is JSON. */
const ANY_OBJECT = { type: 'object', additionalProperties: true };

export function functionTools(tools: Observation['tools']): ChatTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description ?? `Custom tool ${tool.name}.`, parameters: ANY_OBJECT }));
}

export function isCustomTool(name: string, tools: Observation['tools']): boolean {
  return tools.some((tool) => tool.name === name);
}

/** A function call of a custom tool as a rote action, or refused with the problem to tell the model. */
export function readFunctionCall(name: string, argumentsText: string, tools: Observation['tools']): MappedAction {
  if (!isCustomTool(name, tools)) return refuse(`there is no tool named ${JSON.stringify(name)}`);
  let args: unknown;
  try {
    args = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
  } catch {
    return refuse(`the arguments of ${name} are not JSON: ${argumentsText.slice(0, 120)}`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return refuse(`the arguments of ${name} must be an object`);
  const parsed = actionSchema.safeParse({ type: 'tool', name, args });
  if (!parsed.success) return refuse(`the arguments of ${name} must be JSON values`);
  return accept({ action: parsed.data });
}

/**
 * What the model is told a call returned: the tool's result as rote shows it in the history (at
 * the place the call's action took), or that it was not made (rote went back to its recording first).
 */
export function functionOutput(observation: Observation, position: number, name: string): string {
  const step = observation.history[position];
  if (step?.kind !== 'agent' || step.action.type !== 'tool' || step.action.name !== name) {
    return 'not done: rote continued from its recording before this call';
  }
  return step.result === undefined ? 'done' : JSON.stringify(step.result);
}
