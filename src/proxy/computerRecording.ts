import type { ChatContext } from './chatCompletions.js';
import { canonical, kindOf, pointOf, templateAction, type ComputerAction } from './computerActions.js';
import type { ComputerSession } from './computerSessions.js';
import { computerNodeOf, toStoredReply, valueHashes, withStep, type ComputerStep } from './computerStep.js';
import { namesIn, readableTemplate, templateText } from './declaredValues.js';
import { cropBoxAt, cropFoundElsewhere, cropPng, type Screenshot } from '../checks/screenshotCrop.js';

/**
 * What the computer-use proxy keeps of a turn: the step the upstream answered, at the session's
 * point in the tree (with the crop cut from the screenshot it answered on), the mark a path gets
 * once it was followed to the agent's final message, and how a run's record shows an action and
 * its task (values as `{{name}}`).
 */
type Json = Record<string, unknown>;
export type RecordingContext = Pick<ChatContext, 'tree' | 'log'>;

export function keyOf(session: ComputerSession): { shape: string; levels: string[]; used: Set<string> } {
  return { shape: session.shape, levels: session.levels, used: new Set() };
}

/** The step to keep for an action the upstream answered, checked later on the screenshot it was answered on. */
export async function stepOf(session: ComputerSession, action: ComputerAction, screen: Screenshot | undefined, url: string | undefined, pendingSafetyChecks: number): Promise<ComputerStep | undefined> {
  const templated = templateAction(action, session.values);
  if (!templated.ok || kindOf(action) === undefined) return undefined;
  const kind = kindOf(action);
  const point = kind === 'pointed' ? pointOf(action) : kind === 'keyed' ? session.focus : undefined;
  const crop = screen && point ? cropBoxAt(screen, point) : undefined;
  const templatedUrl = url !== undefined ? templateText(url, session.values) : undefined;
  return {
    action: templated.value.template,
    ...(screen ? { screen: { width: screen.width, height: screen.height } } : {}),
    ...(screen && crop ? { crop: { box: crop, png: (await cropPng(screen, crop, session.masks)).toString('base64') } } : {}),
    ...(kind === 'keyed' && session.focus ? { focus: session.focus } : {}),
    masks: [...session.masks],
    ...(templatedUrl?.ok ? { url: templatedUrl.value.text } : {}),
    pendingSafetyChecks,
    values: valueHashes(session.values),
    ...(screen && crop && cropFoundElsewhere(screen, crop) ? { lookAlike: true } : {}),
  };
}

/**
 * The agent's model gave its final message: the session's path was followed to its end. Each step
 * on it is marked so, with the task's values the path never types (its clicks chose them).
 */
export async function markCompleted(context: RecordingContext, session: ComputerSession): Promise<void> {
  // A task that took input no key holds was not followed along a stored path: nothing of it is marked.
  if (session.offPath) return;
  const typed = new Set<string>();
  for (const level of session.levels.slice(1)) {
    const action = JSON.parse(level) as ComputerAction;
    if (action.type === 'type') for (const name of namesIn(String(action.text))) typed.add(name);
  }
  const untyped = [...namesInJson(JSON.parse(session.levels[0]!))].filter((name) => !typed.has(name));
  try {
    for (let at = 1; at < session.levels.length; at++) {
      const key = { shape: session.shape, levels: session.levels.slice(0, at), used: new Set<string>() };
      const found = await context.tree.lookup(session.namespace, key);
      const node = found.kind === 'hit' ? computerNodeOf(found.reply) : undefined;
      if (!node) continue;
      const steps = node.steps.map((step) => (canonical(step.action) === session.levels[at] ? { ...step, completed: true, untyped: [...new Set([...(step.untyped ?? []), ...untyped])] } : step));
      await context.tree.store(session.namespace, key, toStoredReply({ ...node, steps }));
    }
  } catch {
    context.log('final: the store could not mark the path followed to its end');
  }
}

/** Adds the step to the node at the session's point in the tree; the client has its answer whatever the store does. */
export async function keep(context: RecordingContext, session: ComputerSession, step: ComputerStep | undefined, model = 'unknown', usage = { promptTokens: 0, completionTokens: 0 }): Promise<void> {
  if (!step) return context.log('miss: an action the proxy does not key, not kept');
  if (session.offPath) return context.log('miss: the task took input the cache knows nothing of; its steps are not kept');
  try {
    const key = keyOf(session);
    const found = await context.tree.lookup(session.namespace, key);
    const node = found.kind === 'hit' ? computerNodeOf(found.reply) : undefined;
    const kept = await context.tree.store(session.namespace, key, toStoredReply(withStep(node, step, node?.model ?? model, usage)));
    context.log(`miss: computer step kept at action ${session.levels.length - 1} (node ${kept})`);
  } catch {
    context.log('miss: the store could not keep the step');
  }
}

/** The kept step's crop, as PNG bytes for the run's record. */
export function cropOf(step: ComputerStep | undefined): Buffer | undefined {
  return step?.crop ? Buffer.from(step.crop.png, 'base64') : undefined;
}

/** An action whose typed text shows its values as `{{name}}`: what a run's record keeps. */
export function readableAction(action: ComputerAction): ComputerAction {
  return action.type === 'type' ? { ...action, text: readableTemplate(String(action.text)) } : action;
}

/** The task's first user message as a template (`{{name}}` for each declared value), cut to 300 characters. */
export function taskTemplate(session: ComputerSession): string {
  const templated = templateText(firstText(session.taskItems), session.values);
  return templated.ok ? readableTemplate(templated.value.text).slice(0, 300) : 'a computer-use task';
}

function firstText(items: readonly unknown[]): string {
  for (const item of items as Json[]) {
    if (item.role !== 'user') continue;
    if (typeof item.content === 'string') return item.content;
    if (Array.isArray(item.content)) return (item.content as Json[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join(' ');
  }
  return 'a computer-use task';
}

/** The names templated anywhere in the strings of a level read back from its JSON. */
function namesInJson(value: unknown): Set<string> {
  if (typeof value === 'string') return namesIn(value);
  const inner = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : [];
  return new Set(inner.flatMap((item) => [...namesInJson(item)]));
}
