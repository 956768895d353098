import type { AgentAnswer, AgentUsage, Observation } from '../agent.js';
import type { ModelClient } from './modelTypes.js';
import { RunBudget, RunTracker, usageSince, type BudgetLimits } from './runState.js';

/**
 * What both OpenAI agents do around one answer: notice a new run (and start a new conversation
 * and budget), report the answer's usage, put a failed answer's usage on the error for the
 * engine, and forget the conversation when the task is done or failed. Subclasses answer.
 */
export abstract class ConversationAgent<Conversation> {
  protected readonly tracker = new RunTracker();
  protected readonly budget: RunBudget;
  protected conversation: Conversation | undefined;

  constructor(caller: string, limits: BudgetLimits, client: ModelClient) {
    this.budget = new RunBudget(caller, limits, () => client.requests);
  }

  get usage(): AgentUsage {
    return this.budget.usage;
  }

  async next(observation: Observation): Promise<AgentAnswer> {
    if (!this.tracker.continues(observation)) {
      this.conversation = undefined;
      this.budget.reset();
    }
    const before = this.budget.usage;
    let answer: AgentAnswer;
    try {
      answer = await this.answer(observation);
    } catch (error) {
      this.tracker.forget();
      this.conversation = undefined;
      // The engine adds a failed call's cost to the run from the error's usage.
      if (typeof error === 'object' && error !== null) Object.assign(error, { usage: usageSince(before, this.budget.usage) });
      throw error;
    }
    if ('done' in answer) {
      this.tracker.forget();
      this.conversation = undefined;
    } else {
      this.tracker.remember(observation, answer.actions.length);
    }
    return { ...answer, usage: usageSince(before, this.budget.usage) };
  }

  protected abstract answer(observation: Observation): Promise<AgentAnswer>;
}
