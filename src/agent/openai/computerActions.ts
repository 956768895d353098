/**
 * Computer-use actions (as a model sends them) to rote's action union and back. The shapes are
 * nearly the same, by design; what differs: the model's coordinates are pixels of the screenshot
 * it was shown (rote's are CSS pixels of the viewport), its click button may be 'wheel', 'back'
 * or 'forward', its `wait` has no duration, 'screenshot' asks for a look rather than an act, and
 * a drag path may come as [x, y] pairs. Key names stay as the model sent them; rote maps them.
 */
import { actionSchema, type Action } from '../../actions/action.js';
import { accept, refuse, type Outcome } from '../../errors/refusal.js';

/** Screenshot pixels to CSS pixels: multiply a model's x by `x`, y by `y`. */
export type Scale = { x: number; y: number };

export const UNIT_SCALE: Scale = { x: 1, y: 1 };

/** What a model's action asks for: an action rote performs, or a look at the screen. */
export type ModelRequest = { action: Action } | { screenshot: true };

/** A model's action read, or refused with what is wrong with it (told to the model). */
export type MappedAction = Outcome<ModelRequest>;

/** One action from the model, validated against rote's action schema. */
export function fromComputerAction(raw: unknown, scale: Scale = UNIT_SCALE): MappedAction {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || typeof (raw as { type?: unknown }).type !== 'string') {
    return refuse(`an action must be an object with a "type", got ${short(raw)}`);
  }
  const source = raw as Record<string, unknown> & { type: string };
  const px = (value: unknown) => (typeof value === 'number' ? value * scale.x : value);
  const py = (value: unknown) => (typeof value === 'number' ? value * scale.y : value);
  let candidate: Record<string, unknown>;
  switch (source.type) {
    case 'screenshot':
      return accept({ screenshot: true });
    case 'click': {
      const button = source.button === undefined ? 'left' : source.button === 'wheel' ? 'middle' : source.button;
      if (button === 'back' || button === 'forward') return refuse(`rote cannot click the "${button}" mouse button; use keypress ["ALT", "${button === 'back' ? 'ARROWLEFT' : 'ARROWRIGHT'}"] instead`);
      candidate = { type: 'click', x: px(source.x), y: py(source.y), button };
      break;
    }
    case 'double_click':
    case 'move':
      candidate = { type: source.type, x: px(source.x), y: py(source.y) };
      break;
    case 'scroll':
      candidate = { type: 'scroll', x: px(source.x), y: py(source.y), scroll_x: px(source.scroll_x), scroll_y: py(source.scroll_y) };
      break;
    case 'drag':
      candidate = {
        type: 'drag',
        path: Array.isArray(source.path)
          ? source.path.map((point: unknown) =>
              Array.isArray(point) ? { x: px(point[0]), y: py(point[1]) } : typeof point === 'object' && point !== null ? { x: px((point as { x?: unknown }).x), y: py((point as { y?: unknown }).y) } : point,
            )
          : source.path,
      };
      break;
    case 'keypress':
      candidate = { type: 'keypress', keys: source.keys };
      break;
    case 'type':
      candidate = { type: 'type', text: source.text };
      break;
    case 'wait':
      // The computer tool's wait carries no duration; rote's default (1 s) applies.
      candidate = source.ms === undefined ? { type: 'wait' } : { type: 'wait', ms: source.ms };
      break;
    case 'goto':
      candidate = { type: 'goto', url: source.url };
      break;
    default:
      return refuse(`unknown action type ${JSON.stringify(source.type)} (rote can do click, double_click, type, keypress, scroll, drag, move, wait)`);
  }
  const parsed = actionSchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'action'}: ${issue.message.replace(/^Invalid input: /, '')}`);
    return refuse(`${short(raw)} is not an action rote can perform (${issues.join('; ')})`);
  }
  return accept({ action: parsed.data });
}

/** A rote action in the computer-use convention and the model's pixels; `goto` and `tool` have no counterpart and stay as they are. */
export function toComputerAction(action: Action, scale: Scale = UNIT_SCALE): Record<string, unknown> {
  const px = (value: number) => Math.round(value / scale.x);
  const py = (value: number) => Math.round(value / scale.y);
  switch (action.type) {
    case 'click':
      return { type: 'click', x: px(action.x), y: py(action.y), button: action.button === 'middle' ? 'wheel' : action.button };
    case 'double_click':
    case 'move':
      return { type: action.type, x: px(action.x), y: py(action.y) };
    case 'scroll':
      return { type: 'scroll', x: px(action.x), y: py(action.y), scroll_x: px(action.scroll_x), scroll_y: py(action.scroll_y) };
    case 'drag':
      return { type: 'drag', path: action.path.map((point) => ({ x: px(point.x), y: py(point.y) })) };
    case 'keypress':
      return { type: 'keypress', keys: [...action.keys] };
    case 'type':
      return { type: 'type', text: action.text };
    case 'wait':
      return { type: 'wait' };
    case 'goto':
      return { type: 'goto', url: action.url };
    case 'tool':
      return { type: 'tool', name: action.name, args: action.args };
  }
}

/** Width and height of a PNG, from its IHDR chunk; undefined when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | undefined {
  if (png.length < 24 || png.readUInt32BE(0) !== 0x89504e47 || png.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The scale from screenshot pixels to CSS pixels (1 unless the device pixel ratio is not 1). */
export function screenshotScale(png: Buffer, viewport: { width: number; height: number }): { scale: Scale; display: { width: number; height: number } } {
  const size = pngSize(png);
  if (!size || size.width === 0 || size.height === 0) return { scale: UNIT_SCALE, display: viewport };
  return { scale: { x: viewport.width / size.width, y: viewport.height / size.height }, display: size };
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 160 ? text : `${text.slice(0, 159)}…`;
}
