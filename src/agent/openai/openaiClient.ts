/**
 * The one file that imports `openai` and knows its wire shapes. It turns the neutral requests of
 * `modelTypes.ts` into Responses and Chat Completions requests, and their answers back.
 *
 * Shapes are those of the pinned `openai` package (resources/responses/responses.d.ts and
 * resources/chat/completions/completions.d.ts), which has both computer tools: the
 * `computer_use_preview` tool (`ComputerUsePreviewTool`, one `action` per `computer_call`) and
 * the newer `computer` tool (`ComputerTool`, a batch in `computer_call.actions`). The one field
 * sent that the types lack is `current_url` in a `computer_call_output`'s screenshot, defined below.
 *
 * Retries are the SDK's own: 408, 409, 429 and 5xx are retried up to `maxRetries` times, waiting
 * what `retry-after-ms` or `Retry-After` says, else 0.5 s doubling up to 8 s with jitter
 * (client.mjs `shouldRetry` / `retryRequest`). Every HTTP request, retries included, passes through
 * the counting `fetch` given to the client, so `requests` is the number of model calls made.
 */
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type {
  Response,
  ResponseComputerToolCallOutputScreenshot,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  Tool,
} from 'openai/resources/responses/responses';
import { RoteError } from '../../errors/roteError.js';
import type { ChatMessage, ChatRequest, ChatTurn, ComputerCall, ComputerInput, ComputerRequest, ComputerTurn, ModelClient, SafetyCheck } from './modelTypes.js';
import { messageOf } from '../../errors/messageOf.js';

export type ModelClientOptions = {
  /** Default: the OPENAI_API_KEY environment variable (the SDK reads it). */
  apiKey?: string;
  /** Default: OPENAI_BASE_URL, else https://api.openai.com/v1 (the SDK reads it). */
  baseURL?: string;
  timeoutMs: number;
  maxRetries: number;
  /** Names the caller in error messages, e.g. `openaiComputerAgent`. */
  caller: string;
  /**
   * For servers that may need no key (a local vLLM or Ollama): without `apiKey` a placeholder is
   * sent, and OPENAI_API_KEY is not read, so an OpenAI key never goes to another server unasked.
   */
  keyOptional?: boolean;
};

/**
 * `current_url` is not in the installed types. OpenAI's computer-use guide says the irrelevant- and
 * sensitive-domain safety checks evaluate "the `current_url` (if provided)", and OpenAI's
 * openai-cua-sample-app sends it inside the output: `call_output["output"]["current_url"] = url`.
 */
type ScreenshotWithUrl = ResponseComputerToolCallOutputScreenshot & { current_url?: string };
type ComputerCallOutputWithUrl = Omit<ResponseInputItem.ComputerCallOutput, 'output'> & { output: ScreenshotWithUrl };

/** The first wait before asking again after a broken answer, doubling as the SDK's own backoff does. */
const BROKEN_ANSWER_PAUSE_MS = 500;
const MAX_BROKEN_ANSWER_RETRIES = 2;
const MIN_ATTEMPT_MS = 1_000;

/** An answer that arrived broken: its body is not whole JSON, or the connection dropped while it came. */
function brokenAnswer(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  const text = error instanceof Error ? `${error.message} ${error.cause instanceof Error ? error.cause.message : ''}` : '';
  return error instanceof TypeError && /terminated|other side closed|socket/i.test(text);
}

export function openaiModelClient(options: ModelClientOptions): ModelClient {
  let requests = 0;
  const countingFetch: typeof fetch = (input, init) => {
    requests++;
    return fetch(input, init);
  };
  const client = newOpenAI(options, countingFetch);
  const secret = options.apiKey ?? (options.keyOptional ? undefined : client.apiKey);
  const redact = (text: string) => (secret && secret.length >= 4 ? text.split(secret).join('[api key]') : text);

  /**
   * One model call (with the SDK's retries), bounded by the per-request timeout and by the run's
   * deadline: an answer that arrives after the run has ended is of no use.
   */
  async function call<T>(what: string, deadline: number | undefined, send: (request: { timeout: number }) => Promise<T>): Promise<T> {
    const before = requests;
    for (let retry = 0; ; retry++) {
      const left = deadline === undefined ? options.timeoutMs : deadline - Date.now();
      if (left <= 0) throw new RoteError('timeout', `${options.caller}: the run's deadline passed before the ${what} request was sent`);
      const timeout = Math.min(options.timeoutMs, left);
      try {
        return await send({ timeout });
      } catch (error) {
        // The SDK retries statuses and failed connections; an answer broken after its headers
        // (JSON cut short, the connection dropped mid-body) is as passing, and is retried here, as often.
        const pause = BROKEN_ANSWER_PAUSE_MS * 2 ** retry;
        // Another try only with time for an answer after the pause, and at most twice: the SDK's own retries come on top of these.
        const inTime = deadline === undefined || Date.now() + pause + MIN_ATTEMPT_MS < deadline;
        if (retry < Math.min(options.maxRetries, MAX_BROKEN_ANSWER_RETRIES) && brokenAnswer(error) && inTime) {
          await new Promise((resolve) => setTimeout(resolve, pause));
          continue;
        }
        throw wireError(error, { caller: options.caller, what, attempts: requests - before, timeoutMs: timeout, redact });
      }
    }
  }

  return {
    get requests() {
      return requests;
    },
    async computerTurn(request) {
      const response = await call('responses.create', request.deadline, (sent) => client.responses.create(responsesBody(request), sent));
      return computerTurn(response);
    },
    async chatTurn(request) {
      const completion = await call('chat.completions.create', request.deadline, (sent) =>
        client.chat.completions.create({ model: request.model, messages: request.messages.map(chatMessage), tools: request.tools.map(chatTool) }, sent),
      );
      return chatTurn(completion);
    },
  };
}

/** The SDK client, sending every request through `countingFetch`; it throws when no API key can be found. */
function newOpenAI(options: ModelClientOptions, countingFetch: typeof fetch): OpenAI {
  try {
    return new OpenAI({
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : options.keyOptional ? { apiKey: 'not-needed' } : {}),
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
      fetch: countingFetch,
      // The SDK logs request details at debug level when OPENAI_LOG asks; rote never logs them.
      logLevel: 'off',
    });
  } catch (error) {
    throw new RoteError('invalid-argument', `${options.caller}: no API key; pass { apiKey } or set OPENAI_API_KEY`, { cause: error });
  }
}

function dataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

function responsesBody(request: ComputerRequest): ResponseCreateParamsNonStreaming {
  const tool: Tool =
    request.toolForm === 'preview'
      ? { type: 'computer_use_preview', display_width: request.display.width, display_height: request.display.height, environment: 'browser' }
      : { type: 'computer' };
  return {
    model: request.model,
    instructions: request.instructions,
    // Custom tools take any JSON object: their arguments are the user's to define, and rote checks they are JSON.
    tools: [tool, ...request.functions.map((fn): Tool => ({ type: 'function', name: fn.name, description: fn.description, parameters: fn.parameters, strict: false }))],
    input: request.input.map(inputItem),
    ...(request.previousResponseId ? { previous_response_id: request.previousResponseId } : {}),
    // The preview model documents 'concise' summaries; newer models choose with 'auto'.
    reasoning: { summary: request.toolForm === 'preview' ? 'concise' : 'auto' },
    // Required by computer-use-preview: drop the oldest turns rather than fail on a long run.
    truncation: 'auto',
  };
}

function inputItem(item: ComputerInput): ResponseInputItem {
  switch (item.kind) {
    case 'user':
      return {
        role: 'user',
        content: [
          { type: 'input_text', text: item.text },
          ...(item.screenshot ? [{ type: 'input_image' as const, image_url: dataUrl(item.screenshot), detail: 'auto' as const }] : []),
        ],
      };
    case 'call-output': {
      const output: ComputerCallOutputWithUrl = {
        type: 'computer_call_output',
        call_id: item.callId,
        output: { type: 'computer_screenshot', image_url: dataUrl(item.screenshot), current_url: item.currentUrl },
        ...(item.acknowledged.length > 0 ? { acknowledged_safety_checks: item.acknowledged.map(wireCheck) } : {}),
      };
      return output;
    }
    case 'function-output':
      return { type: 'function_call_output', call_id: item.callId, output: item.output };
  }
}

function wireCheck(check: SafetyCheck): { id: string; code?: string; message?: string } {
  return { id: check.id, ...(check.code !== undefined ? { code: check.code } : {}), ...(check.message !== undefined ? { message: check.message } : {}) };
}

function computerTurn(response: Response): ComputerTurn {
  if (response.error) throw new RoteError('agent', `openai: the response failed: ${response.error.message} (${response.error.code})`);
  const turn: ComputerTurn = {
    responseId: response.id,
    calls: [],
    functionCalls: [],
    reasoning: [],
    messages: [],
    refusals: [],
    usage: { inputTokens: response.usage?.input_tokens ?? 0, outputTokens: response.usage?.output_tokens ?? 0 },
  };
  if (response.incomplete_details?.reason) turn.incomplete = response.incomplete_details.reason;
  for (const item of response.output ?? []) {
    switch (item.type) {
      case 'computer_call': {
        const call: ComputerCall = {
          callId: item.call_id,
          // The newer tool sends `actions` (a batch); the preview tool one `action`.
          actions: item.actions ?? (item.action ? [item.action] : []),
          pendingSafetyChecks: (item.pending_safety_checks ?? []).map((check) => ({
            id: check.id,
            ...(check.code ? { code: check.code } : {}),
            ...(check.message ? { message: check.message } : {}),
          })),
        };
        turn.calls.push(call);
        break;
      }
      case 'function_call':
        turn.functionCalls.push({ callId: item.call_id, name: item.name, arguments: item.arguments, after: turn.calls.length });
        break;
      case 'reasoning':
        for (const part of item.summary ?? []) if (part.text.trim()) turn.reasoning.push(part.text.trim());
        break;
      case 'message':
        for (const part of item.content ?? []) {
          if (part.type === 'output_text' && part.text.trim()) turn.messages.push(part.text.trim());
          if (part.type === 'refusal') turn.refusals.push(part.refusal.trim() || 'refused');
        }
        break;
      default:
        // Other tools' items cannot appear: only the computer tool and function tools are offered.
        break;
    }
  }
  return turn;
}

/** The neutral turn from a chat completion's first choice; custom tool calls read like function calls. */
function chatTurn(completion: ChatCompletion): ChatTurn {
  const choice = completion.choices[0];
  const message = choice?.message;
  return {
    text: message?.content ?? null,
    refusal: message?.refusal ?? null,
    toolCalls: (message?.tool_calls ?? []).map((toolCall) =>
      toolCall.type === 'function'
        ? { id: toolCall.id, name: toolCall.function.name, arguments: toolCall.function.arguments }
        : { id: toolCall.id, name: toolCall.custom.name, arguments: toolCall.custom.input },
    ),
    finishReason: choice?.finish_reason ?? null,
    usage: { inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 },
  };
}

function chatMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.text };
    case 'user':
      return message.screenshot
        ? { role: 'user', content: [{ type: 'text', text: message.text }, { type: 'image_url', image_url: { url: dataUrl(message.screenshot) } }] }
        : { role: 'user', content: message.text };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.text,
        ...(message.toolCalls.length > 0
          ? { tool_calls: message.toolCalls.map((toolCall) => ({ id: toolCall.id, type: 'function' as const, function: { name: toolCall.name, arguments: toolCall.arguments } })) }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.text };
  }
}

function chatTool(tool: ChatRequest['tools'][number]): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/** A RoteError that says what failed and how often it was tried, never with the API key in it. */
function wireError(
  error: unknown,
  context: { caller: string; what: string; attempts: number; timeoutMs: number; redact: (text: string) => string },
): RoteError {
  if (RoteError.isInstance(error)) return error;
  const tries = context.attempts === 1 ? '1 attempt' : `${context.attempts} attempts`;
  let message: string;
  if (error instanceof OpenAI.APIUserAbortError) {
    return new RoteError('aborted', `${context.caller}: the ${context.what} request was aborted`);
  } else if (error instanceof OpenAI.APIConnectionTimeoutError) {
    message = `the ${context.what} request timed out after ${context.timeoutMs} ms (${tries})`;
  } else if (error instanceof OpenAI.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    message = `could not reach the model service for ${context.what}${cause} (${tries})`;
  } else if (error instanceof OpenAI.APIError) {
    const detail = typeof error.error === 'object' && error.error !== null && typeof (error.error as { message?: unknown }).message === 'string'
      ? (error.error as { message: string }).message
      : error.message;
    const hint = error.status === 401 ? '; check the API key' : error.status === 404 ? '; check the model name and the base URL' : '';
    message = `the model service answered ${error.status ?? 'an error'} to ${context.what}: ${detail}${hint} (${tries})`;
  } else if (brokenAnswer(error)) {
    message = `the answer to ${context.what} came broken (${error instanceof SyntaxError ? 'its JSON was cut short' : 'the connection dropped while it came'}: ${messageOf(error)}) (${tries})`;
  } else {
    message = `${context.what} failed: ${messageOf(error)} (${tries})`;
  }
  return new RoteError('agent', context.redact(`${context.caller}: ${message}`), { cause: redactedCause(error, context.redact) });
}

/** The original error as the cause, unless a server echoed the key into it: then a redacted copy. */
function redactedCause(error: unknown, redact: (text: string) => string): unknown {
  if (!(error instanceof Error)) return error;
  const echoed = redact(error.message) !== error.message || redact(JSON.stringify((error as { error?: unknown }).error ?? null)) !== JSON.stringify((error as { error?: unknown }).error ?? null);
  if (!echoed) return error;
  const copy = new Error(redact(error.message));
  copy.name = error.name;
  return copy;
}
