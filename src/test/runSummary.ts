import { describeAction } from '../actions/action.js';
import type { Divergence, RunResult } from '../engine/runResult.js';

/** `step 3 (Fill "Date of birth")`: steps count from 1, as in the run's own error. */
export function describeStep(divergence: Divergence): string {
  const what = divergence.intent ?? (divergence.action ? describeAction(divergence.action) : undefined);
  return `step ${divergence.step + 1}${what ? ` (${what})` : ''}`;
}

/** What a run did instead of replaying from the cache, as the end of a sentence ("but it ..."). */
export function describeOutcome(result: RunResult): string {
  const last = result.divergences.at(-1);
  switch (result.status) {
    case 'replayed':
      return `it was replayed: ${result.steps.length} steps from the cache, no agent call`;
    case 'diverged':
      return last ? `it diverged at ${describeStep(last)}: ${last.reason}` : `it diverged: ${firstLine(result.error)}`;
    case 'failed':
      return `it failed: ${firstLine(result.error)}`;
    case 'interrupted':
      return `it was interrupted: ${firstLine(result.error)}`;
    case 'mixed':
    case 'agent': {
      const first = result.divergences[0];
      const handedOver = first ? `; the first hand-over was at ${describeStep(first)}: ${first.reason}` : '';
      const made = `${result.agentCalls} agent call${result.agentCalls === 1 ? '' : 's'}`;
      return `the agent did ${result.agentSteps} of its ${result.steps.length} steps (${made}, status ${result.status})${handedOver}`;
    }
  }
}

/** The text attached to a test's report for a run that did not replay. */
export function runReport(result: RunResult): string {
  const lines = [`rote.run(${JSON.stringify(result.task)}): ${result.status}`, `Expected a replay from the cache, but ${describeOutcome(result)}.`];
  result.divergences.forEach((divergence) => {
    const images = (['expected', 'actual', 'diff'] as const).filter((kind) => divergence[kind]);
    lines.push(`- ${describeStep(divergence)}: ${divergence.reason}${images.length ? ` [attached: ${images.join(', ')}]` : ''}`);
  });
  for (const warning of result.warnings ?? []) lines.push(`- warning: ${warning}`);
  if (result.error) lines.push('', result.error);
  return `${lines.join('\n')}\n`;
}

function firstLine(text: string | undefined): string {
  return (text ?? 'no reason was given').split('\n')[0]!;
}
