import { z } from 'zod';

/**
 * The write actions rote records and replays: the OpenAI computer-use action shapes
 * (x/y in CSS pixels of the viewport) plus `goto` and `tool`. A closed union: every switch over
 * `Action['type']` is exhaustive.
 */
const coordinate = z.number().finite().nonnegative();
const point = z.object({ x: coordinate, y: coordinate });

export const mouseButtonSchema = z.enum(['left', 'right', 'middle']);

export const clickActionSchema = z.object({
  type: z.literal('click'),
  x: coordinate,
  y: coordinate,
  button: mouseButtonSchema.default('left'),
});
export const doubleClickActionSchema = z.object({ type: z.literal('double_click'), x: coordinate, y: coordinate });
export const typeActionSchema = z.object({ type: z.literal('type'), text: z.string() });
export const keypressActionSchema = z.object({ type: z.literal('keypress'), keys: z.array(z.string().min(1)).min(1) });
export const scrollActionSchema = z.object({
  type: z.literal('scroll'),
  x: coordinate,
  y: coordinate,
  scroll_x: z.number().finite(),
  scroll_y: z.number().finite(),
});
export const dragActionSchema = z.object({ type: z.literal('drag'), path: z.array(point).min(2) });
export const moveActionSchema = z.object({ type: z.literal('move'), x: coordinate, y: coordinate });
export const waitActionSchema = z.object({ type: z.literal('wait'), ms: z.number().int().min(0).max(60_000).default(1000) });
export const gotoActionSchema = z.object({ type: z.literal('goto'), url: z.string().min(1) });
/** A call of a custom tool registered with `rote.tool`; the engine calls it, not the page. Args are JSON. */
export const toolActionSchema = z.object({ type: z.literal('tool'), name: z.string().min(1), args: z.record(z.string(), z.json()).default({}) });

export const actionSchema = z.discriminatedUnion('type', [
  clickActionSchema,
  doubleClickActionSchema,
  typeActionSchema,
  keypressActionSchema,
  scrollActionSchema,
  dragActionSchema,
  moveActionSchema,
  waitActionSchema,
  gotoActionSchema,
  toolActionSchema,
]);

export type Action = z.infer<typeof actionSchema>;
export type ActionInput = z.input<typeof actionSchema>;
export type ActionType = Action['type'];

/** Validates an action from outside (an agent, a file); throws a RoteError naming the problem. */
export function parseAction(input: unknown): Action {
  return actionSchema.parse(input);
}

/** The point an action lands on, where it has one (its target is then the element under it). */
export function actionPoint(action: Action): { x: number; y: number } | undefined {
  switch (action.type) {
    case 'click':
    case 'double_click':
    case 'scroll':
    case 'move':
      return { x: action.x, y: action.y };
    case 'drag':
      return action.path[0];
    case 'type':
    case 'keypress':
    case 'wait':
    case 'goto':
    case 'tool':
      return undefined;
  }
}

/** Where the pointer rests once the action is done: at its point, a drag's at its end; `before` for one that does not move it. */
export function pointerAfter(action: Action, before: { x: number; y: number }): { x: number; y: number } {
  return action.type === 'drag' ? (action.path.at(-1) ?? before) : (actionPoint(action) ?? before);
}

/** Moves a point action to a new position (relocation); other actions are returned unchanged. */
export function withPoint(action: Action, to: { x: number; y: number }): Action {
  switch (action.type) {
    case 'click':
    case 'double_click':
    case 'scroll':
    case 'move':
      return { ...action, x: to.x, y: to.y };
    case 'drag': {
      const [first] = action.path;
      if (!first) return action;
      const dx = to.x - first.x;
      const dy = to.y - first.y;
      return { ...action, path: action.path.map((p) => ({ x: p.x + dx, y: p.y + dy })) };
    }
    case 'type':
    case 'keypress':
    case 'wait':
    case 'goto':
    case 'tool':
      return action;
  }
}

/** A short human description, for logs, errors and reports: `click (120, 48)`, `type "{{name}}"`, `tool lookupClaim({"id":"{{claimId}}"})`. */
export function describeAction(action: Action): string {
  switch (action.type) {
    case 'click':
      return `click (${Math.round(action.x)}, ${Math.round(action.y)})${action.button === 'left' ? '' : ` ${action.button}`}`;
    case 'double_click':
      return `double_click (${Math.round(action.x)}, ${Math.round(action.y)})`;
    case 'type':
      return `type ${JSON.stringify(action.text)}`;
    case 'keypress':
      return `keypress ${action.keys.join('+')}`;
    case 'scroll':
      return `scroll (${Math.round(action.x)}, ${Math.round(action.y)}) by (${action.scroll_x}, ${action.scroll_y})`;
    case 'drag':
      return `drag ${action.path.map((p) => `(${Math.round(p.x)}, ${Math.round(p.y)})`).join(' -> ')}`;
    case 'move':
      return `move (${Math.round(action.x)}, ${Math.round(action.y)})`;
    case 'wait':
      return `wait ${action.ms}ms`;
    case 'goto':
      return `goto ${action.url}`;
    case 'tool':
      return `tool ${action.name}(${JSON.stringify(action.args)})`;
  }
}
