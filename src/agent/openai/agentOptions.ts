import { z } from 'zod';
import { RoteError } from '../../errors/roteError.js';
import type { ComputerToolForm, SafetyCheck } from './modelTypes.js';

/** Options both model agents take. */
export type ModelAgentOptions = {
  /** The model, e.g. 'computer-use-preview' or 'gpt-5.4'. */
  model: string;
  /** Default: OPENAI_API_KEY. Never logged or stored. */
  apiKey?: string;
  /** Default: OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseURL?: string;
  /** At most this many model requests per run, checked before each request rote makes (the SDK's retries of it count too). Default 100. */
  maxModelCalls?: number;
  /** At most this many tokens (input + output) per run; no new request once reached. Default: no limit. */
  maxTokens?: number;
  /** Timeout of one HTTP request. Default 60000. */
  timeoutMs?: number;
  /** Retries of a request that failed with 408, 409, 429 or 5xx, or could not connect (the SDK's, honouring Retry-After). Default 2. */
  maxRetries?: number;
};

/** The computer-use model used when none is named. */
export const DEFAULT_MODEL = 'computer-use-preview';

export type OpenAIComputerAgentOptions = ModelAgentOptions & {
  /** Default: 'preview' for computer-use-preview models, 'batch' (the `computer` tool) for others. */
  toolForm?: ComputerToolForm;
  /**
   * Asked about each pending safety check the service raises before an action. Return true to
   * acknowledge it (the action then goes ahead and the acknowledgement is sent back); anything
   * else, or no handler, fails the run.
   */
  onSafetyCheck?: (check: SafetyCheck) => boolean | Promise<boolean>;
};

export type ChatCompletionsAgentOptions = ModelAgentOptions & {
  /** Required: the OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama. */
  baseURL: string;
  /** The server's key, if it needs one. OPENAI_API_KEY is not read here: an OpenAI key never goes to another server unasked. */
  apiKey?: string;
};

const positive = z.number().int().positive();
const common = {
  model: z.string().trim().min(1, 'must be a non-empty string'),
  apiKey: z.string().min(1, 'must be a non-empty string').optional(),
  baseURL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  maxModelCalls: positive.optional(),
  maxTokens: positive.optional(),
  timeoutMs: positive.optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
};

const computerSchema = z.object({
  ...common,
  toolForm: z.enum(['preview', 'batch']).optional(),
  onSafetyCheck: z.custom<(check: SafetyCheck) => boolean>((value) => typeof value === 'function', 'must be a function').optional(),
});

const chatSchema = z.object({ ...common, baseURL: common.baseURL.unwrap() });

export type ValidComputerOptions = Required<Pick<OpenAIComputerAgentOptions, 'model' | 'toolForm' | 'maxModelCalls' | 'timeoutMs' | 'maxRetries'>> &
  Pick<OpenAIComputerAgentOptions, 'apiKey' | 'baseURL' | 'maxTokens' | 'onSafetyCheck'>;

export type ValidChatOptions = Required<Pick<ChatCompletionsAgentOptions, 'model' | 'baseURL' | 'maxModelCalls' | 'timeoutMs' | 'maxRetries'>> &
  Pick<ChatCompletionsAgentOptions, 'apiKey' | 'maxTokens'>;

const DEFAULTS = { maxModelCalls: 100, timeoutMs: 60_000, maxRetries: 2 };

export function validComputerOptions(input: unknown): ValidComputerOptions {
  const options = parse('openaiComputerAgent', computerSchema, input, '{ model, apiKey?, baseURL?, toolForm?, onSafetyCheck? }');
  return { ...DEFAULTS, ...options, toolForm: options.toolForm ?? defaultToolForm(options.model) };
}

/** computer-use-preview models take the preview tool; newer models (gpt-5.4 and on) the `computer` tool. */
export function defaultToolForm(model: string): ComputerToolForm {
  return /^computer-use-preview/.test(model) ? 'preview' : 'batch';
}

export function validChatOptions(input: unknown): ValidChatOptions {
  return { ...DEFAULTS, ...parse('chatCompletionsAgent', chatSchema, input, '{ model, baseURL, apiKey? }') };
}

/** Validates at the boundary; the message names the option, its value (never a key's) and what was expected. */
function parse<T>(caller: string, schema: z.ZodType<T>, input: unknown, shape: string): T {
  if (typeof input !== 'object' || input === null) throw new RoteError('invalid-argument', `${caller}: expected an options object ${shape}, got ${String(input)}`);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map(String).join('.');
  const value = (input as Record<string, unknown>)[path];
  const shown = path === 'apiKey' ? 'a value that is not a non-empty string' : JSON.stringify(value) ?? String(value);
  throw new RoteError('invalid-argument', `${caller}: options.${path} ${issue.message.replace(/^Invalid input: /, '')}, got ${shown}`);
}
