/**
 * A fake model's mind for the intake app: it decides each answer from the live page's DOM with
 * the demo agent's policy (never from stored coordinates). Only the decision is taken from the
 * page; what reaches rote goes over the wire, through the fake server and the real client.
 */
import type { Page } from 'playwright';
import { isDone, type Observation } from '../../src/agent/agent.js';
import { demoAgent } from '../../src/demo/demoAgent.js';
import type { FakeBrain, FakeDecision, WireAction } from './fakeOpenAI.js';

export type DomBrainOptions = {
  /** First ask for a screenshot, as computer-use-preview often does. */
  lookFirst?: boolean;
};

export function domBrain(page: Page, options: DomBrainOptions = {}): FakeBrain {
  const policy = demoAgent(page);
  return async (turn) => {
    if (options.lookFirst && turn.turn === 0) return { actions: [{ type: 'screenshot' }], intent: 'Look at the screen first' };
    return decideFromPage(policy, turn.params);
  };
}

/** The demo policy's next answer, in wire shapes; the parameters are the ones the prompt carried. */
export async function decideFromPage(policy: ReturnType<typeof demoAgent>, params: Record<string, string>): Promise<FakeDecision> {
  // The demo policy reads only the parameters from its observation; the rest comes from the DOM.
  const answer = await policy.next({ params } as Observation);
  if (isDone(answer)) return { done: true, answer: answer.answer ?? 'Done.' };
  return { actions: answer.actions.map((action) => ({ ...action }) as WireAction), ...(answer.intent ? { intent: answer.intent } : {}) };
}
