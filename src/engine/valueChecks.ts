import type { Action } from '../actions/action.js';
import { mapActionText } from '../actions/actionText.js';
import { showsValueNow } from '../checks/shownValues.js';
import { renderSecrets } from '../checks/secretTarget.js';
import { messageOf } from '../errors/messageOf.js';
import { accept, refuse, type Outcome } from '../errors/refusal.js';
import type { BoundParams } from '../params/boundParams.js';
import { renderTemplate } from '../params/template.js';
import { urlRenderingParams } from '../params/url.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { arrivalsOf, misfit, type RunValues } from '../trajectory/valueKeys.js';
import { decidedReading } from './decidedReading.js';
import type { CheckEnvironment } from './checkTypes.js';

// The checks of a cached step against this run's values (see preCheck.ts).

/** Renders the node's templates with this run's values, or says why it cannot be. */
export function bindAction(node: TrajectoryNode, params: BoundParams, valueHashes: Readonly<Record<string, string>>): Outcome<Action> {
  for (const names of node.state.ambiguous ?? []) {
    const values = new Set(names.map((name) => params.get(name)));
    if (values.size > 1) return refuse(`the recorded text stood for ${names.join(' or ')} (equal when recorded), whose values now differ`);
  }
  const changed = Object.entries(node.state.literalOf ?? {}).filter(([name, hash]) => valueHashes[name] !== hash).map(([name]) => name);
  const decided = changed.length === 1 ? decidedReading(node, params) : undefined;
  if (decided !== undefined && node.action.type === 'type') return accept({ ...node.action, text: decided });
  if (changed.length > 0) {
    return refuse(`the recorded text renders ${changed.map((name) => `{{${name}}}`).join(', ')} in a form that could not be told for sure (e.g. 01/01: month or day first), and the value differs now: typing the recorded text would be wrong`);
  }
  try {
    return accept(mapActionText(node.action, (text, field) => renderTemplate(text, field === 'url' ? urlRenderingParams(text, params) : params)));
  } catch (error) {
    return refuse(messageOf(error));
  }
}

/**
 * A control that showed a parameter's value when recorded (so the recording never set it) must
 * show this run's value now; otherwise the step diverges and the agent sets it before the submit.
 */
export async function staleWatch(env: CheckEnvironment, node: TrajectoryNode): Promise<string | undefined> {
  for (const watch of node.state.watches ?? []) {
    const value = env.params.get(watch.param);
    if (value === undefined || env.usedSoFar.has(watch.param)) continue;
    if ((await showsValueNow(env.page, renderSecrets(watch.selector, env.params), value)) === 'no') {
      return `the page does not show parameter "${watch.param}"${watch.label ? ` in "${watch.label}"` : ''} as this run's value, and the recorded steps never set it`;
    }
  }
  return undefined;
}

/**
 * The hazard guard: a parameter that neither the steps done so far nor the recorded steps
 * ahead put on the page would be submitted with its recorded value. Allowed only when its value
 * equals the recorded one.
 */
export function unusedChangedParam(env: CheckEnvironment, node: TrajectoryNode): string | undefined {
  // Any path learned through the step will do: each says what it put on the page from here on
  // (a watched parameter is checked on the page where it shows, by staleWatch) and what values
  // it was learned under. A secret is never hashed: unused, it always counts as changed.
  const misfits = arrivalsOf(node.state).map((key) => misfit(key, runValuesOf(env)));
  return misfits.includes(undefined) ? undefined : misfits[0];
}

/** The run as a path's values are compared with it. */
export function runValuesOf(env: CheckEnvironment): RunValues {
  return { names: env.params.names(), valueHashes: env.valueHashes, usedSoFar: env.usedSoFar };
}

