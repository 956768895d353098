import type { Action } from '../actions/action.js';
import { actionTexts, mapActionText } from '../actions/actionText.js';
import { sameFingerprint } from '../checks/fingerprint.js';
import type { BoundParams } from '../params/boundParams.js';
import { hideSecrets, templateUses, templatize, type SecretFound } from '../params/template.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { sameToolCall } from '../trajectory/sameStep.js';

/**
 * The action as it is stored: typed text, URLs and a tool's string arguments with parameter values
 * replaced by their names (`{ id: "C-1042" }` is stored as `{ id: "{{claimId}}" }`).
 * `asGiven` is the action as the agent gave it, before its `{{name}}`s were bound: a secret it
 * typed by name inside a longer text is known to stand there; one found there by its value alone
 * is guarded (literal), so a replay with another secret never splices it into the old text.
 */
export function templatedAction(action: Action, params: BoundParams, asGiven: Action = action): { action: Action; ambiguous: string[][]; literal: string[]; pieceOf: string[]; readings?: { param: string; formats: string[] } } {
  const ambiguous: string[][] = [];
  let readings: { param: string; formats: string[] } | undefined;
  const literal = new Set<string>();
  const pieceOf = new Set<string>();
  const asGivenTexts = actionTexts(asGiven);
  let templated = mapActionText(action, (text, field) => {
    const result = templatize(text, params, field === 'url' ? 'url' : 'text');
    ambiguous.push(...result.ambiguous);
    result.literal.forEach((name) => literal.add(name));
    unprovenSecrets(result.secretsFound, asGivenTexts).forEach((name) => literal.add(name));
    result.pieceOf.forEach((name) => pieceOf.add(name));
    // Typed text read more than one way: kept for a later value to decide (NodeState.readings).
    if (action.type === 'type' && result.readings) readings = result.readings;
    return result.template;
  });
  // A secret standing as a number or an object key of a tool's arguments is never stored either.
  if (templated.type === 'tool') templated = mapActionText(templated, (text) => hideSecrets(text, params).template, { keysAndNumbers: true });
  return { action: templated, ambiguous, literal: [...literal], pieceOf: [...pieceOf], ...(readings ? { readings } : {}) };
}

/**
 * The secrets found in recorded text that nothing proves stood there, to be guarded: proven are
 * those the agent typed by name (`asGiven`, its text before binding) as many times as they were
 * found (a PIN typed once as {{pin}} does not also vouch for the 1990 of a date beside it), and,
 * typed by no name (a person recording), those that stood alone every time.
 */
export function unprovenSecrets(found: readonly SecretFound[], asGiven: readonly string[]): string[] {
  const typedByName = placeholderCounts(asGiven);
  return found.flatMap((secret) => {
    const typed = secret.names.reduce((sum, name) => sum + (typedByName.get(name) ?? 0), 0);
    const proven = typed > 0 ? secret.count <= typed : secret.alone;
    return proven ? [] : secret.names;
  });
}

/** How many times each `{{name}}` stands in the texts. */
function placeholderCounts(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) for (const use of templateUsesOrNone(text)) counts.set(use.name, (counts.get(use.name) ?? 0) + 1);
  return counts;
}

function templateUsesOrNone(text: string): { name: string }[] {
  try {
    return templateUses(text);
  } catch {
    return [];
  }
}

/**
 * Whether an agent's step did what a cached step would have done: same kind of action on a
 * target with the same fingerprint (and the same text, for typing). Used to follow the cached
 * path while the agent is in charge, so a re-join does not repeat or skip its work.
 */
export function doesSameWork(cached: TrajectoryNode, agentStep: TrajectoryNode): boolean {
  if (cached.action.type !== agentStep.action.type) return false;
  if ((cached.state.window ?? 0) !== (agentStep.state.window ?? 0)) return false;
  if (cached.action.type === 'tool') return sameToolCall(cached.action, agentStep.action);
  if (cached.fingerprint === null || agentStep.fingerprint === null) return false;
  if (!sameFingerprint(cached.fingerprint, agentStep.fingerprint)) return false;
  // Among look-alikes (a row of Approve buttons), the same role and name is not the same element:
  // what told it apart when recorded must agree too.
  if (JSON.stringify(cached.state.identity ?? null) !== JSON.stringify(agentStep.state.identity ?? null)) return false;
  if (JSON.stringify(cached.state.position ?? null) !== JSON.stringify(agentStep.state.position ?? null)) return false;
  switch (cached.action.type) {
    case 'type':
      return agentStep.action.type === 'type' && cached.action.text === agentStep.action.text;
    case 'keypress':
      return agentStep.action.type === 'keypress' && cached.action.keys.join('+').toUpperCase() === agentStep.action.keys.join('+').toUpperCase();
    default:
      return true;
  }
}
