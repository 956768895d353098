import type { Page } from 'playwright';
import { actionSchema } from '../actions/action.js';
import type { Check } from '../checks/customCheck.js';
import { RoteError } from '../errors/roteError.js';

/** What a tool function is given besides its arguments. */
export type ToolContext = {
  page: Page;
  /** This run's bound values, secrets in plain text (they never reach the store from here). */
  params: Readonly<Record<string, string>>;
};

/**
 * A custom tool: user code an agent may call like an action (look a claim up in an API, fill a
 * form from it). Its arguments are JSON, rendered with this run's values on replay; what it
 * returns is shown to the agent in the next observation and never stored.
 */
export type ToolFunction = (args: Record<string, unknown>, context: ToolContext) => unknown;

export type ToolOptions<Pre = unknown, Post = unknown> = {
  /** Shown to the agent (and offered to a model as the function's description). */
  description?: string;
  /** Checked before a recorded call is replayed: a failure is a divergence, as for a changed page. */
  preCheck?: Check<Pre>;
  /** Checked after a replayed call: a failure hands the next step to the agent (or ends a replay-only run as diverged). */
  postCheck?: Check<Post>;
};

export type Tool = {
  readonly name: string;
  readonly fn: ToolFunction;
  readonly description?: string;
  readonly preCheck?: Check;
  readonly postCheck?: Check;
};

/** What an agent is told it may call. */
export type ToolInfo = { name: string; description?: string };

/** Letters, digits, _ and -, up to 64: the function names model APIs accept. */
const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const OPTION_KEYS = ['description', 'preCheck', 'postCheck'] as const;
const CHECK_KEYS = ['capture', 'compare', 'threshold'] as const;
/** Names a model is offered for rote's own actions (and `done`): a tool may not shadow them. */
const RESERVED = new Set([...actionSchema.options.map((option) => option.shape.type.value), 'done']);

/** The custom tools of one Rote, validated when registered. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  register<Pre, Post>(name: string, fn: ToolFunction, options: ToolOptions<Pre, Post> = {}): Tool {
    const tool = validateTool(name, fn, options, this.tools);
    this.tools.set(tool.name, tool);
    return tool;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(): ToolInfo[] {
    return [...this.tools.values()].map((tool) => (tool.description === undefined ? { name: tool.name } : { name: tool.name, description: tool.description }));
  }
}

function validateTool(name: unknown, fn: unknown, options: unknown, existing: ReadonlyMap<string, Tool>): Tool {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new RoteError('invalid-argument', `rote.tool: name must be a letter or _ followed by up to 63 letters, digits, _ or - (/^[A-Za-z_][A-Za-z0-9_-]*$/), got ${show(name)}`);
  }
  const where = `rote.tool(${JSON.stringify(name)})`;
  if (RESERVED.has(name)) throw new RoteError('invalid-argument', `${where}: name "${name}" is one of rote's own actions; choose another name`);
  if (existing.has(name)) throw new RoteError('invalid-argument', `${where}: a tool named "${name}" is already registered with this Rote`);
  if (typeof fn !== 'function') throw new RoteError('invalid-argument', `${where}: fn must be a function (args, { page, params }) => result, got ${show(fn)}`);
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new RoteError('invalid-argument', `${where}: options must be an object { description?, preCheck?, postCheck? }, got ${show(options)}`);
  }
  rejectUnknownKeys(options, OPTION_KEYS, `${where}: options`);
  const { description, preCheck, postCheck } = options as ToolOptions;
  if (description !== undefined && typeof description !== 'string') throw new RoteError('invalid-argument', `${where}: options.description must be a string, got ${show(description)}`);
  const tool: { -readonly [K in keyof Tool]: Tool[K] } = { name, fn: fn as ToolFunction };
  if (description !== undefined) tool.description = description;
  if (preCheck !== undefined) tool.preCheck = validateCheck(preCheck, `${where}: options.preCheck`);
  if (postCheck !== undefined) tool.postCheck = validateCheck(postCheck, `${where}: options.postCheck`);
  return tool;
}

function validateCheck(check: unknown, where: string): Check {
  if (typeof check !== 'object' || check === null || Array.isArray(check)) {
    throw new RoteError('invalid-argument', `${where} must be an object { capture(context), compare(current, recorded), threshold? }, got ${show(check)}`);
  }
  rejectUnknownKeys(check, CHECK_KEYS, where);
  const { capture, compare, threshold } = check as Partial<Check>;
  if (typeof capture !== 'function') throw new RoteError('invalid-argument', `${where}.capture must be a function (context) => data, got ${show(capture)}`);
  if (typeof compare !== 'function') throw new RoteError('invalid-argument', `${where}.compare must be a function (current, recorded) => boolean | similarity, got ${show(compare)}`);
  if (threshold !== undefined && (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1))) {
    throw new RoteError('invalid-argument', `${where}.threshold must be a number from 0 to 1, got ${show(threshold)}`);
  }
  return check as Check;
}

function rejectUnknownKeys(value: object, known: readonly string[], where: string): void {
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new RoteError('invalid-argument', `${where} has unknown key ${JSON.stringify(unknown[0])} (expected ${known.join(', ')})`);
}

function show(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}
