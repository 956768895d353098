import type { Agent, AgentAnswer, AgentUsage, Observation } from '../agent/agent.js';
import { RoteError } from '../errors/roteError.js';
import type { RunState } from './runState.js';

/**
 * One agent call, bounded by the run's deadline and abort signal (an agent that never answers is
 * abandoned then); its cost is counted even when it fails.
 */
export async function askAgent(run: RunState, agent: Agent, observation: Observation): Promise<AgentAnswer> {
  const { context, ledger } = run;
  ledger.agentCalls++;
  run.asking = true;
  try {
    const answer = await context.bounded(Promise.resolve().then(() => agent.next(observation)), 'waiting for the agent', { stoppable: true });
    ledger.addUsage(answer.usage);
    return answer;
  } catch (error) {
    // A failed call still cost something: an agent may put its usage on the error.
    ledger.addUsage((error as { usage?: AgentUsage } | undefined)?.usage);
    // The run's own timeout names where it stood, and the dialog that held the page, if one did.
    if (RoteError.isInstance(error) && error.code === 'timeout' && Date.now() >= context.deadline) {
      const dialog = observation.dialog ? `prompt "${observation.dialog.message.slice(0, 80)}"` : run.dialogs.openNow;
      throw context.timeoutError(`at step ${run.nextStepNumber} while waiting for the agent${dialog ? ` (a ${dialog} was open; it was dismissed)` : ''}`);
    }
    throw error;
  } finally {
    run.asking = false;
  }
}
