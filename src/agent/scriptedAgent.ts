import type { Agent, AgentAnswer, Observation } from './agent.js';

export type Script = readonly AgentAnswer[] | ((observation: Observation, call: number) => AgentAnswer | Promise<AgentAnswer>);

/**
 * An ordinary Agent that answers from a script: a list of answers in order, or a function of
 * the observation. Tests and benchmarks use it, since no model service is reachable there.
 * `calls` counts next() calls; `observations` keeps what the agent was shown.
 */
export function scriptedAgent(script: Script, name = 'scripted'): Agent & { readonly calls: number; readonly observations: Observation[] } {
  const observations: Observation[] = [];
  return {
    name,
    get calls() {
      return observations.length;
    },
    observations,
    async next(observation) {
      observations.push(observation);
      const call = observations.length - 1;
      if (typeof script === 'function') return script(observation, call);
      return script[call] ?? { done: true, answer: 'the script has no more answers' };
    },
  };
}
