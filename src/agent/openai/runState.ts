/**
 * Per-run state of a model agent: telling a new run from the next call of the same run, and the
 * run's budget (model calls, tokens). A new run id is a new run; within a run the conversation
 * goes on only while the history grows from what the model saw, and the step after its last answer
 * is its own first action (otherwise the engine replayed from the cache in between).
 */
import type { AgentUsage, Observation } from '../agent.js';
import { RoteError } from '../../errors/roteError.js';
import type { TokenUsage } from './modelTypes.js';

type Seen = { runId: string; task: string; params: string; steps: string[]; answered: number };

export class RunTracker {
  private seen: Seen | undefined;

  /** Whether `observation` belongs to the run of the last one remembered. */
  continues(observation: Observation): boolean {
    const seen = this.seen;
    if (!seen) return false;
    if (seen.runId !== observation.runId) return false;
    if (seen.task !== observation.task || seen.params !== JSON.stringify(observation.params)) return false;
    const steps = observation.history.map(stepKey);
    // A prompt opened by the action the model's last answer asked for: that action is still under way.
    if (observation.dialog && steps.length === seen.steps.length) return seen.steps.every((step, index) => steps[index] === step);
    if (steps.length < seen.steps.length + (seen.answered > 0 ? 1 : 0)) return false;
    if (!seen.steps.every((step, index) => steps[index] === step)) return false;
    // Right after the last answer the engine did the agent's first action; a replayed step there means another run.
    return seen.answered === 0 || observation.history[seen.steps.length]?.kind === 'agent';
  }

  /** Remembers the observation an answer with `answered` actions was given to. */
  remember(observation: Observation, answered: number): void {
    this.seen = { runId: observation.runId, task: observation.task, params: JSON.stringify(observation.params), steps: observation.history.map(stepKey), answered };
  }

  forget(): void {
    this.seen = undefined;
  }
}

function stepKey(step: Observation['history'][number]): string {
  return `${step.kind} ${JSON.stringify(step.action)}`;
}

export type BudgetLimits = { maxModelCalls: number; maxTokens: number | undefined };

/** What one run has used, and the limits it may not pass. Model calls are read from the client's request count. */
export class RunBudget {
  private startRequests: number;
  private inputTokens = 0;
  private outputTokens = 0;

  constructor(
    private readonly caller: string,
    private readonly limits: BudgetLimits,
    private readonly requests: () => number,
  ) {
    this.startRequests = requests();
  }

  reset(): void {
    this.startRequests = this.requests();
    this.inputTokens = 0;
    this.outputTokens = 0;
  }

  /** Throws when the run may not make another model call. */
  checkBeforeRequest(): void {
    const { maxModelCalls, maxTokens } = this.limits;
    const calls = this.requests() - this.startRequests;
    if (calls >= maxModelCalls) throw new RoteError('agent', `${this.caller}: the budget of ${maxModelCalls} model calls for this run is spent`);
    const tokens = this.inputTokens + this.outputTokens;
    if (maxTokens !== undefined && tokens >= maxTokens) throw new RoteError('agent', `${this.caller}: the budget of ${maxTokens} tokens for this run is spent (${tokens} used)`);
  }

  add(usage: TokenUsage): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
  }

  /** The run's usage so far. */
  get usage(): AgentUsage {
    return { modelCalls: this.requests() - this.startRequests, inputTokens: this.inputTokens, outputTokens: this.outputTokens };
  }
}

/** The usage between two readings of a run's usage. */
export function usageSince(before: AgentUsage, after: AgentUsage): AgentUsage {
  return { modelCalls: after.modelCalls - before.modelCalls, inputTokens: after.inputTokens - before.inputTokens, outputTokens: after.outputTokens - before.outputTokens };
}

/** The model's own words, for an intent or an error: collapsed whitespace, at most `max` characters. */
export function modelWords(parts: readonly string[], max = 300): string | undefined {
  const text = parts.join(' ').replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
