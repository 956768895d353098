import { DEFAULT_MODEL } from '../agent/openai/agentOptions.js';
import { openaiComputerAgent } from '../agent/openai/computerAgent.js';
import { demoAgent } from '../demo/demoAgent.js';
import { RoteError } from '../errors/roteError.js';
import type { AgentCatalog } from '../scheduler/agentCatalog.js';

/**
 * none: no agent; a step the cache cannot do ends the run `diverged`. demo: the offline demo agent,
 * which reads the page's form fields (an honest stand-in for a model; no model service is called).
 * openai: the OpenAI computer-use agent, with OPENAI_API_KEY (and OPENAI_BASE_URL) from the
 * environment, checked now, so a missing key fails before any browser starts.
 */
export const agentByName: AgentCatalog = (name, options, env, where) => {
  switch (name) {
    case 'none':
      return { name, description: 'no agent: a step the cache cannot do ends the run as diverged', create: undefined };
    case 'demo':
      return { name, description: 'the offline demo agent (reads the form; no model service)', create: (page) => demoAgent(page) };
    case 'openai': {
      const apiKey = env.OPENAI_API_KEY?.trim();
      if (!apiKey) throw new RoteError('invalid-argument', `${where}: --agent openai needs OPENAI_API_KEY in the environment (and OPENAI_BASE_URL for a server other than OpenAI's)`);
      const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
      const settings = { model: options.model ?? DEFAULT_MODEL, apiKey, ...(baseURL ? { baseURL } : {}) };
      openaiComputerAgent(settings); // validates now
      return { name, description: `the OpenAI computer-use agent, model ${settings.model}`, create: () => openaiComputerAgent(settings) };
    }
  }
};
