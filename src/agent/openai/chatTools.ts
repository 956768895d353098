/**
 * rote's actions as function tools for OpenAI-compatible chat completions: one tool per action
 * type, whose parameters are that action's schema (generated from the same zod union the engine
 * validates with), plus `done`. Several tool calls in one answer are several actions, in order.
 */
import { z } from 'zod';
import { actionSchema } from '../../actions/action.js';
import { accept, refuse, type Outcome } from '../../errors/refusal.js';
import { fromComputerAction, type ModelRequest, type Scale } from './computerActions.js';
import type { ChatTool, ChatToolCall } from './modelTypes.js';

export const DONE_TOOL = 'done';

const DESCRIPTIONS: Record<string, string> = {
  click: 'Click at (x, y), pixels of the screenshot.',
  double_click: 'Double-click at (x, y).',
  type: 'Type text into the focused element (click the field first).',
  keypress: 'Press keys together, e.g. ["CTRL", "A"] or ["ENTER"].',
  scroll: 'Scroll by (scroll_x, scroll_y) pixels with the pointer at (x, y).',
  drag: 'Press at the first point of path, move through the others, release at the last.',
  move: 'Move the pointer to (x, y).',
  wait: 'Wait ms milliseconds for the page.',
  goto: 'Open a URL in the current tab.',
};

/** rote's page actions; a `tool` action is offered as the registered tools themselves. */
const pageActions = actionSchema.options.filter((option) => option.shape.type.value !== 'tool');

/** The function tools: one per page action in `actionSchema`, then `done`. */
export function chatTools(): ChatTool[] {
  const tools = pageActions.map((option): ChatTool => {
    const name = option.shape.type.value;
    // The action's own schema without its discriminator: the tool's name says the type.
    const schema = z.toJSONSchema(option, { io: 'input' }) as { properties?: Record<string, unknown>; required?: string[]; $schema?: string };
    delete schema.$schema;
    delete schema.properties?.type;
    if (schema.required) schema.required = schema.required.filter((name) => name !== 'type');
    return { name, description: DESCRIPTIONS[name] ?? name, parameters: schema as Record<string, unknown> };
  });
  tools.push({
    name: DONE_TOOL,
    description: 'The task is complete (or cannot be done): say so in one sentence.',
    parameters: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
  });
  return tools;
}

/** One tool call as an action or `done`, or refused with a problem to tell the model about. */
export function readToolCall(call: ChatToolCall, scale: Scale): Outcome<ModelRequest | { done: string }> {
  let args: unknown;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch {
    return refuse(`the arguments of ${call.name} are not JSON: ${call.arguments.slice(0, 120)}`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return refuse(`the arguments of ${call.name} must be an object`);
  if (call.name === DONE_TOOL) {
    const answer = (args as { answer?: unknown }).answer;
    return accept({ done: typeof answer === 'string' && answer.trim() ? answer.trim() : 'Done' });
  }
  if (!pageActions.some((option) => option.shape.type.value === call.name)) {
    return refuse(`there is no tool named ${JSON.stringify(call.name)}`);
  }
  return fromComputerAction({ ...args, type: call.name }, scale);
}
