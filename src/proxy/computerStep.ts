import { createHash } from 'node:crypto';
import { z } from 'zod';
import { intersect, type Box, type Point } from '../checks/geometry.js';
import { canonical, kindOf, pointOf, renderAction, type ComputerAction } from './computerActions.js';
import type { StoredReply } from './chatReply.js';
import { templateText, type DeclaredValues } from './declaredValues.js';
import { compareCrop, cropFoundElsewhere, type Screenshot } from '../checks/screenshotCrop.js';

/**
 * A computer-use step as the proxy's tree keeps it: the action the agent's model answered at one
 * point of a task (its typed text templated), with what the screenshot showed when it answered:
 * the screen's size, the crop around where the action lands, the regions that showed typed values,
 * the page's URL where the client sent it, and whether the model asked for a safety check (such a
 * step is never served). Full screenshots are never kept.
 *
 * One node of the tree may hold several steps: the model answered differently at the same point
 * on pages that looked different (a modal, a moved field). A request is served the one step whose
 * check passes; when none passes, or two different actions do, it is forwarded.
 */
export type ComputerStep = {
  action: ComputerAction;
  screen?: { width: number; height: number };
  /** The crop around the action's point (a keyed action's: the point acted on before it). */
  crop?: { box: Box; png: string };
  /** Where a keyed action's keys went: the last point acted on. */
  focus?: Point;
  /** Regions that showed typed values in the screenshot, masked in every check. */
  masks: Box[];
  /** current_url, values templated. */
  url?: string;
  pendingSafetyChecks: number;
  /** A hash of each declared value when the step was recorded. */
  values?: Record<string, string>;
  /**
   * Set once a path through the step was followed to the agent's final message: only then is it
   * known which of the task's values the path never types (chosen by clicks: an option, a row, a
   * radio), and a step is served only with those values as recorded.
   */
  completed?: boolean;
  untyped?: string[];
  /** The crop showed elsewhere in its own screenshot too (repeated content): it proves nothing, and the step is never served. */
  lookAlike?: boolean;
};

export type ComputerNode = { model: string; steps: ComputerStep[]; usage: StoredReply['usage'] };

/** The stored reply's one tool call that says it holds computer steps, not a chat answer. */
export const COMPUTER_STEPS = 'rote_computer_steps';
/** A node keeps at most this many looks; the oldest goes first. */
const MAX_STEPS_PER_NODE = 8;

const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const stepSchema = z.object({
  action: z.object({ type: z.string() }).catchall(z.unknown()),
  screen: z.object({ width: z.number(), height: z.number() }).optional(),
  crop: z.object({ box, png: z.string() }).optional(),
  focus: z.object({ x: z.number(), y: z.number() }).optional(),
  masks: z.array(box),
  url: z.string().optional(),
  pendingSafetyChecks: z.number(),
  values: z.record(z.string(), z.string()).optional(),
  completed: z.boolean().optional(),
  untyped: z.array(z.string()).optional(),
  lookAlike: z.boolean().optional(),
});
const stepsSchema = z.object({ steps: z.array(stepSchema) });

export function toStoredReply(node: ComputerNode): StoredReply {
  return { model: node.model, finishReason: 'tool_calls', content: null, toolCalls: [{ name: COMPUTER_STEPS, arguments: JSON.stringify({ steps: node.steps }) }], usage: node.usage };
}

/** The computer steps of a stored reply; undefined for a chat reply or one that does not read. */
export function computerNodeOf(reply: StoredReply): ComputerNode | undefined {
  const call = reply.toolCalls.length === 1 ? reply.toolCalls[0] : undefined;
  if (call?.name !== COMPUTER_STEPS) return undefined;
  try {
    const parsed = stepsSchema.safeParse(JSON.parse(call.arguments));
    return parsed.success ? { model: reply.model, steps: parsed.data.steps as ComputerStep[], usage: reply.usage } : undefined;
  } catch {
    return undefined;
  }
}

/** The node with one more look: a step the same as one it holds (action, crop and masks) is not kept twice. */
export function withStep(node: ComputerNode | undefined, step: ComputerStep, model: string, usage: StoredReply['usage']): ComputerNode {
  const steps = (node?.steps ?? []).filter((kept) => canonical(kept) !== canonical(step));
  return { model, steps: [...steps, step].slice(-MAX_STEPS_PER_NODE), usage };
}

/** What the request looks like now, as the checks read it. */
export type LiveScreen = {
  screen?: Screenshot;
  url?: string;
  /** The last point acted on in this run (where typed keys go). */
  focus?: Point;
  /** Regions of this run's screenshots that show typed values. */
  masks: readonly Box[];
};

export type StepChoice = { kind: 'serve'; step: ComputerStep; action: ComputerAction } | { kind: 'miss'; reason: string };

/**
 * The one step of the node that this screenshot shows it is safe to serve, with this run's
 * values; a miss that says why when none is, or when two different actions both pass (nothing
 * recorded tells them apart), or when the one that passes was recorded with a safety check.
 */
export async function chooseStep(node: ComputerNode, live: LiveScreen, values: DeclaredValues): Promise<StepChoice> {
  const passed: { step: ComputerStep; action: ComputerAction }[] = [];
  const reasons: string[] = [];
  for (const step of node.steps) {
    const failed = await checkStep(step, live, values);
    if (failed !== undefined) {
      reasons.push(failed);
      continue;
    }
    if (step.pendingSafetyChecks > 0) return { kind: 'miss', reason: 'the recorded step came with a safety check the model asked for: it is never served' };
    const action = renderAction(step.action, values);
    if (!action.ok) return { kind: 'miss', reason: action.reason };
    passed.push({ step, action: action.value });
  }
  const actions = new Set(passed.map((one) => canonical(one.action)));
  if (actions.size > 1) return { kind: 'miss', reason: `${actions.size} recorded steps match this screenshot, and nothing recorded tells them apart` };
  if (passed.length === 0) return { kind: 'miss', reason: reasons[0] ?? 'no step is stored here' };
  return { kind: 'serve', ...passed[0]! };
}

/** Why this step may not be served on this screenshot, or undefined when its check passes. */
async function checkStep(step: ComputerStep, live: LiveScreen, values: DeclaredValues): Promise<string | undefined> {
  const kind = kindOf(step.action);
  if (kind === undefined) return `the recorded action "${step.action.type}" is not one the proxy serves`;
  if (kind === 'harmless') return undefined;
  if (step.completed !== true) return 'the step is on no path followed to its end yet: which values its clicks choose is not known';
  for (const name of step.untyped ?? []) {
    const value = values.get(name);
    if (value === undefined || valueHash(value) !== step.values?.[name]) return `parameter "${name}" is never typed on the recorded path (clicks chose it) and its value is not the recorded one: the recorded clicks would choose the recorded value`;
  }
  if (!live.screen) return 'the request carries no screenshot to check the step on';
  if (!step.screen || !step.crop) return 'the step was recorded with no screenshot to check it against';
  if (live.screen.width !== step.screen.width || live.screen.height !== step.screen.height) return `the screenshot is ${live.screen.width}x${live.screen.height}, recorded ${step.screen.width}x${step.screen.height}`;
  if (step.url !== undefined) {
    if (live.url === undefined) return 'the step was recorded at a URL, and the request sends none';
    const templated = templateText(live.url, values);
    if (!templated.ok || templated.value.text !== step.url) return 'the page is at another URL than the recorded step';
  }
  if (kind === 'keyed') {
    if (!step.focus || !live.focus || step.focus.x !== live.focus.x || step.focus.y !== live.focus.y) return 'the keys would go to another point than the one they went to when recorded';
  } else {
    const point = pointOf(step.action);
    if (!point) return 'the recorded action has no point';
  }
  if (step.lookAlike) return 'the recorded crop shows elsewhere in its own screenshot too: nothing in it tells the target from another';
  const masks = [...step.masks, ...live.masks];
  if (maskedShare(step.crop.box, masks) > MAX_MASKED_SHARE) return 'typed values cover most of the crop: too little of it is left to check';
  const compared = await compareCrop(Buffer.from(step.crop.png, 'base64'), live.screen, step.crop.box, masks);
  if (compared.reason) return compared.reason;
  // The recorded look at the point, and the same look somewhere else now: which one is the target cannot be told.
  if (cropFoundElsewhere(live.screen, step.crop.box)) return 'what the crop shows is on the screen elsewhere too: nothing in it tells the target from another';
  return undefined;
}

/** A declared value as a step keeps it: never the value itself. */
export function valueHash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

/** The hashes of a run's declared values. */
export function valueHashes(values: DeclaredValues): Record<string, string> {
  return Object.fromEntries([...values].map(([name, value]) => [name, valueHash(value)]));
}

/** More of the crop than this masked (typed values), and what is left proves too little. */
const MAX_MASKED_SHARE = 0.5;

/** The share of the box the masks cover (their overlaps counted once, pixel by pixel). */
function maskedShare(box: Box, masks: readonly Box[]): number {
  if (masks.length === 0) return 0;
  const covered = new Uint8Array(box.width * box.height);
  for (const mask of masks) {
    const inside = intersect(mask, box);
    if (!inside) continue;
    for (let y = inside.y - box.y; y < inside.y - box.y + inside.height; y++) covered.fill(1, y * box.width + inside.x - box.x, y * box.width + inside.x - box.x + inside.width);
  }
  return covered.reduce((sum, one) => sum + one, 0) / covered.length;
}
