import type { Page } from 'playwright';
import type { Agent } from '../agent/agent.js';
import { DEFAULT_MODEL, defaultToolForm } from '../agent/openai/agentOptions.js';
import { chatCompletionsAgent } from '../agent/openai/chatAgent.js';
import { openaiComputerAgent } from '../agent/openai/computerAgent.js';
import type { ComputerToolForm } from '../agent/openai/modelTypes.js';
import { RoteError } from '../errors/roteError.js';

export type AgentChoiceOptions = { model?: string; toolForm?: ComputerToolForm; chatCompletions?: boolean };

/** The agent a command runs with: a model when the environment has one, else the offline demo agent (`create` undefined). */
export type AgentChoice = { description: string; model: boolean; create: ((page: Page) => Agent) | undefined };

export { DEFAULT_MODEL };
const OPENAI_URL = 'https://api.openai.com/v1';

/**
 * OPENAI_API_KEY set: the OpenAI computer-use agent (Responses API) with `--model`, at
 * OPENAI_BASE_URL when set. `--chat-completions`: an OpenAI-compatible chat completions server
 * at OPENAI_BASE_URL, the key optional. Otherwise the offline demo agent.
 */
export function chooseAgent(options: AgentChoiceOptions, env: NodeJS.ProcessEnv): AgentChoice {
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
  const where = shownURL(baseURL ?? OPENAI_URL);
  if (options.chatCompletions) {
    if (!baseURL) throw new RoteError('invalid-argument', 'rote demo --chat-completions: set OPENAI_BASE_URL to the server, e.g. http://127.0.0.1:11434/v1 for Ollama');
    if (!options.model) throw new RoteError('invalid-argument', 'rote demo --chat-completions: name the model with --model, e.g. --model qwen2.5vl');
    const settings = { model: options.model, baseURL, ...(apiKey ? { apiKey } : {}) };
    chatCompletionsAgent(settings); // validates now, so a bad option fails before the browser starts
    return { description: `a vision model over chat completions, model ${options.model}, at ${where}`, model: true, create: () => chatCompletionsAgent(settings) };
  }
  if (!apiKey) {
    const ignored = options.model ? ` (--model ${options.model} is not used: OPENAI_API_KEY is not set)` : '';
    return { description: `the offline demo agent${ignored}`, model: false, create: undefined };
  }
  const model = options.model ?? DEFAULT_MODEL;
  const settings = { model, apiKey, ...(baseURL ? { baseURL } : {}), ...(options.toolForm ? { toolForm: options.toolForm } : {}) };
  openaiComputerAgent(settings); // validates now, so a bad option fails before the browser starts
  const tool = (options.toolForm ?? defaultToolForm(model)) === 'preview' ? 'computer_use_preview' : 'computer';
  return { description: `the OpenAI computer-use agent, model ${model} with the ${tool} tool, at ${where}`, model: true, create: () => openaiComputerAgent(settings) };
}

/** A URL as shown to the user: without any credentials in it. */
function shownURL(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(an invalid URL)';
  }
}
