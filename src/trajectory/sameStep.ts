import { sameFingerprint } from '../checks/fingerprint.js';
import { canonicalJson, type JsonValue } from '../params/jsonValues.js';
import type { Action } from '../actions/action.js';
import type { TrajectoryNode } from './trajectoryNode.js';

/**
 * Whether a freshly recorded step is the same step as a stored one: same action (templates
 * compared, so new values do not make it new) on the same target at the same place. Runs that
 * share a prefix share nodes.
 */
export function sameStep(existing: TrajectoryNode, candidate: TrajectoryNode): boolean {
  // A step in a window the page opened is never the same step as one in the page.
  if ((existing.state.window ?? 0) !== (candidate.state.window ?? 0)) return false;
  if (existing.action.type === 'tool' || candidate.action.type === 'tool') {
    // As a step that looks different is kept: a call whose checks captured other data (another account
    // type) is an alternative, so that situation replays next time instead of diverging again.
    const captured = (node: TrajectoryNode) => canonicalJson((node.state.tool ?? {}) as JsonValue);
    return sameToolCall(existing.action, candidate.action) && existing.url === candidate.url && captured(existing) === captured(candidate);
  }
  if (JSON.stringify(existing.action) !== JSON.stringify(candidate.action)) return false;
  if (existing.url !== candidate.url) return false;
  // The same step that looks different (a dark theme) is kept as an alternative, so it replays next time.
  if (existing.cropHash !== candidate.cropHash) return false;
  if (existing.fingerprint === null || candidate.fingerprint === null) return existing.fingerprint === candidate.fingerprint;
  return sameFingerprint(existing.fingerprint, candidate.fingerprint);
}

/** Two tool calls are the same step when they call the same tool with the same templated arguments (in any key order). */
export function sameToolCall(a: Action, b: Action): boolean {
  return a.type === 'tool' && b.type === 'tool' && a.name === b.name && canonicalJson(a.args) === canonicalJson(b.args);
}
