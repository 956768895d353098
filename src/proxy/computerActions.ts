import { accept, refuse, type Outcome } from '../errors/refusal.js';
import type { Point } from '../checks/geometry.js';
import { isJsonObject } from '../params/jsonValues.js';
import { namesIn, renderText, templateText, type DeclaredValues } from './declaredValues.js';

/**
 * One action of OpenAI's computer-use tools as the proxy keys, checks and serves it. Both tools
 * share the action shapes (`computer_use_preview` sends one per call, `computer` a batch); the
 * proxy knows these kinds and nothing else: an action of another type is forwarded, never kept.
 */
export type ComputerAction = { type: string; [field: string]: unknown };

export type ActionKind =
  /** Acts where it points (click, double_click, move, scroll, drag): checked around that point. */
  | 'pointed'
  /** Acts on whatever has the focus (type, keypress): checked around the last point acted on. */
  | 'keyed'
  /** Changes nothing on the page (screenshot, wait): served with no check. */
  | 'harmless';

const KINDS: Record<string, ActionKind> = {
  click: 'pointed',
  double_click: 'pointed',
  move: 'pointed',
  scroll: 'pointed',
  drag: 'pointed',
  type: 'keyed',
  keypress: 'keyed',
  screenshot: 'harmless',
  wait: 'harmless',
};

export function kindOf(action: ComputerAction): ActionKind | undefined {
  return Object.hasOwn(KINDS, action.type) ? KINDS[action.type] : undefined;
}

/** Where a pointed action acts: its x and y, or a drag's first point. */
export function pointOf(action: ComputerAction): Point | undefined {
  const at = action.type === 'drag' && Array.isArray(action.path) ? action.path[0] : action;
  if (!isJsonObject(at) || typeof at.x !== 'number' || typeof at.y !== 'number' || !Number.isFinite(at.x) || !Number.isFinite(at.y)) return undefined;
  return { x: at.x, y: at.y };
}

/** A wire action read as one the proxy knows, or why it is not. */
export function readAction(raw: unknown): Outcome<ComputerAction> {
  if (!isJsonObject(raw) || typeof raw.type !== 'string') return refuse('an action that is not an object with a type');
  const action = raw as ComputerAction;
  const kind = kindOf(action);
  if (kind === undefined) return refuse(`an action of type "${action.type}", which the proxy does not know`);
  if (kind === 'pointed' && pointOf(action) === undefined) return refuse(`a ${action.type} with no point`);
  if (action.type === 'type' && typeof action.text !== 'string') return refuse('a type action with no text');
  if (action.type === 'keypress' && !(Array.isArray(action.keys) && action.keys.every((key) => typeof key === 'string'))) return refuse('a keypress with no keys');
  return accept(action);
}

/**
 * The action as the tree keys it: its fields in one order, a typed text with the declared values
 * templated. Two actions with the same key do the same thing with the values of their runs.
 */
export function templateAction(action: ComputerAction, values: DeclaredValues): Outcome<{ template: ComputerAction; level: string }> {
  let template = action;
  if (action.type === 'type') {
    const templated = templateText(String(action.text), values);
    if (!templated.ok) return templated;
    template = { ...action, text: templated.value.text };
  }
  return accept({ template, level: canonical(template) });
}

/**
 * The stored action with this run's values. Typed text comes from the declared values only: a
 * stored text with letters or digits of its own (a value the client did not declare, typed as it
 * was in the recording) is not served, since it may be the last run's data.
 */
export function renderAction(template: ComputerAction, values: DeclaredValues): Outcome<ComputerAction> {
  if (template.type !== 'type') return accept(template);
  const text = String(template.text);
  const own = text.replace(/\u0001[A-Za-z_][A-Za-z0-9_]*\u0002/g, '');
  if (/[\p{L}\p{N}]/u.test(own)) return refuse('the stored step types text that no declared value accounts for');
  if (namesIn(text).size === 0) return refuse('the stored step types text that no declared value accounts for');
  const rendered = renderText(text, values);
  return rendered.ok ? accept({ ...template, text: rendered.value }) : rendered;
}

/** One line for a person (and for the note that starts an upstream conversation): what the action did, with this run's values. */
export function describeAction(action: ComputerAction): string {
  const point = pointOf(action);
  const at = point ? ` at (${point.x}, ${point.y})` : '';
  switch (kindOf(action)) {
    case 'pointed':
      return `${action.type}${at}`;
    case 'keyed':
      return action.type === 'type' ? `typed ${JSON.stringify(action.text)}` : `pressed ${(action.keys as string[]).join('+')}`;
    case 'harmless':
      return action.type === 'wait' ? 'waited' : 'took a screenshot';
    case undefined:
      return action.type;
  }
}

/** JSON with the keys of every object in one order. */
export function canonical(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** Keys that move the focus or leave the field: after them, where typed keys go is no longer known. */
const FOCUS_KEYS = /^(tab|enter|return|escape|esc|arrow\w*|up|down|left|right|pageup|pagedown|page_up|page_down|home|end)$/i;

/**
 * Where typed keys go after this action: the point a click focused; nothing known after a scroll
 * or a drag (the page moved under the point) or keys that move the focus; unchanged otherwise
 * (a hover, a wait, typing, a shortcut such as Ctrl+A).
 */
export function focusAfter(action: ComputerAction, focus: Point | undefined): Point | undefined {
  switch (action.type) {
    case 'click':
    case 'double_click':
      return pointOf(action);
    case 'scroll':
    case 'drag':
      return undefined;
    case 'keypress':
      return (action.keys as string[]).some((key) => FOCUS_KEYS.test(key)) ? undefined : focus;
    default:
      return focus;
  }
}
