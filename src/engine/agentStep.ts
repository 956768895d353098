import { createHash } from 'node:crypto';
import type { Page } from 'playwright';
import { actionPoint, type Action } from '../actions/action.js';
import { performAction } from '../actions/perform.js';
import { navigationWatch, settle } from '../checks/settle.js';
import { targetAt } from '../checks/target.js';
import type { BoundParams } from '../params/params.js';
import { templateNames, templatize } from '../params/template.js';
import { captureEvidence } from './evidence.js';
import { checkboxParam, selectParam, semanticName } from './paramBindings.js';
import { newNode, templatedAction } from './recordStep.js';
import type { TrajectoryNode } from './trajectoryNode.js';

export type AgentStep = {
  /** A new node for the step; the caller decides whether an equal stored node stands for it. */
  node: TrajectoryNode;
  crop: { hash: string; bytes: Buffer } | null;
};

/**
 * Does one of the agent's actions and records it: evidence from the page before it acts, the
 * action itself, then what ties it to the parameters (typed text and chosen options as
 * templates, a target named by a value, a checkbox set from a yes/no parameter).
 */
export async function performAgentStep(
  page: Page,
  action: Action,
  input: { intent: string | undefined; params: BoundParams; taskId: string; parentId: string | null; deadline: number },
): Promise<AgentStep> {
  const { params } = input;
  const evidence = await captureEvidence(page, action, params);
  const commits = navigationWatch(page).commitCount;
  await performAction(page, action, evidence.state.typeMode === 'select' ? 'select' : 'keys');
  await settle(page, commits, { timeoutMs: Math.max(0, input.deadline - Date.now()) });

  const point = actionPoint(action);
  if (point && evidence.state.checkedBefore != null) {
    evidence.state.checkedAfter = (await targetAt(page, point))?.checked ?? null;
  }
  const stored = templatedAction(action, params);
  const ambiguous = [...stored.ambiguous];
  if (stored.action.type === 'type' && evidence.state.typeMode === 'select' && templateNames(stored.action.text).length === 0) {
    // The option chosen may be the parameter's value under another label ("CA" shown as "California").
    const names = await selectParam(page, params);
    if (names.length > 0) stored.action = { ...stored.action, text: `{{${names[0]}}}` };
    if (names.length > 1) ambiguous.push(names);
  }
  if (action.type === 'click') {
    const semantic = semanticName(evidence.target, params);
    if (semantic.nameTemplate) evidence.state.nameTemplate = semantic.nameTemplate;
    ambiguous.push(...(semantic.ambiguous ?? []));
    const checkbox = semantic.nameTemplate ? undefined : checkboxParam(evidence.target, evidence.state.checkedAfter, params);
    if (checkbox) evidence.state.checkedParam = checkbox;
  }
  if (ambiguous.length > 0) evidence.state.ambiguous = ambiguous;

  const crop = evidence.crop ? { hash: createHash('sha256').update(evidence.crop).digest('hex'), bytes: evidence.crop } : null;
  // The intent is stored with parameter values as templates too: "Open {{customerName}}" reads right for the next customer.
  const intent = input.intent === undefined ? undefined : templatize(input.intent, params).template;
  const node = newNode({ taskId: input.taskId, parentId: input.parentId, action: stored.action, intent, evidence, cropHash: crop?.hash ?? null });
  return { node, crop };
}
