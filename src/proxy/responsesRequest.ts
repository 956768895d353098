import type { ChatBodyError } from './chatRequest.js';
import { isJsonObject } from '../params/jsonValues.js';
import { DATA_URL } from '../checks/screenshotCrop.js';

/**
 * A Responses API request as the computer-use proxy reads it: the checks OpenAI makes before
 * anything else (400, `invalid_request_error`, the parameter named), which computer tool it
 * offers, and what the agent sent with its last action: the screenshot (a data URL), the page's
 * URL where the client sends one, and the safety checks it acknowledged. Anything deeper is left
 * to the upstream to judge: a request the proxy cannot read is forwarded, never answered.
 */
export type ComputerToolForm =
  /** `computer_use_preview`: one action per call, with the display's size. */
  | 'preview'
  /** `computer`: a batch of `actions` per call. */
  | 'batch';

export type SentScreenshot = {
  /** The call it answers; none for a screenshot the task's message carries (a first turn). */
  callId?: string;
  dataUrl: string;
  /** `current_url`, where the client sends it: inside the output (OpenAI's sample app) or beside it. */
  currentUrl?: string;
  /** Whether the URL came inside the output: the upstream gets it where the client put it. */
  urlInside?: boolean;
  /** The ids of the safety checks the client acknowledged for that call. */
  acknowledged: string[];
};

export type ResponsesRequest = {
  body: Record<string, unknown>;
  /** The computer tool offered; undefined when there is none (not a computer-use request). */
  form?: ComputerToolForm;
  /** The preview tool's display size. */
  display?: { width: number; height: number };
  previousResponseId?: string;
  /** The input's items (a string input is one user message). */
  input: Record<string, unknown>[];
  /** The last `computer_call_output` of the input: the screenshot after the agent's last action. */
  screenshot?: SentScreenshot;
  /** The call the last `computer_call_output` answers, whether or not its screenshot can be read. */
  answersCall?: string;
  /** That output item as the client sent it: passed on when its screenshot cannot be read here (a file id, a remote URL). */
  rawOutput?: Record<string, unknown>;
  /** The ids of the safety checks that output acknowledges, whatever its screenshot is. */
  acknowledged: string[];
  /**
   * What the client sent beside its screenshot (a user message, a function call's output): new
   * input the cache knows nothing of. With `previous_response_id`, every item but the output; with
   * the whole conversation, the items after the output.
   */
  extra: Record<string, unknown>[];
};

const fail = (message: string, param: string | null, code: string | null): { ok: false; error: ChatBodyError } => ({ ok: false, error: { message, param, code } });

export function readResponsesBody(raw: Buffer): { ok: true; request: ResponsesRequest } | { ok: false; error: ChatBodyError } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return fail('We could not parse the JSON body of your request. The body must be valid JSON: an object with "model" and "input".', null, null);
  }
  if (!isJsonObject(parsed)) return fail('The body of your request must be a JSON object.', null, null);
  const body = parsed;
  if (typeof body.model !== 'string' || body.model === '') return fail("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  if (body.input !== undefined && typeof body.input !== 'string' && !Array.isArray(body.input)) return fail("Invalid type for 'input': expected a string or an array of input items.", 'input', 'invalid_type');
  if (body.previous_response_id !== undefined && body.previous_response_id !== null && typeof body.previous_response_id !== 'string') return fail("Invalid type for 'previous_response_id': expected a string.", 'previous_response_id', 'invalid_type');
  if (body.tools !== undefined && !Array.isArray(body.tools)) return fail("Invalid type for 'tools': expected an array.", 'tools', 'invalid_type');
  const items = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input as unknown[] | undefined) ?? []);
  for (const [index, item] of items.entries()) if (!isJsonObject(item)) return fail(`Invalid type for 'input[${index}]': expected an object.`, `input[${index}]`, 'invalid_type');
  const input = items as Record<string, unknown>[];
  const tool = ((body.tools as unknown[] | undefined) ?? []).filter(isJsonObject).find((candidate) => candidate.type === 'computer_use_preview' || candidate.type === 'computer');
  const form: ComputerToolForm | undefined = tool === undefined ? undefined : tool.type === 'computer_use_preview' ? 'preview' : 'batch';
  const display = tool && typeof tool.display_width === 'number' && typeof tool.display_height === 'number' ? { width: tool.display_width, height: tool.display_height } : undefined;
  return {
    ok: true,
    request: {
      body,
      input,
      ...(form ? { form } : {}),
      ...(display ? { display } : {}),
      ...(typeof body.previous_response_id === 'string' ? { previousResponseId: body.previous_response_id } : {}),
      ...screenshotOf(input),
      ...answeredCallOf(input, typeof body.previous_response_id === 'string'),
    },
  };
}

/** The last computer call output whose output is a screenshot given as a data URL; nothing when there is none. */
function screenshotOf(input: readonly Record<string, unknown>[]): { screenshot?: SentScreenshot } {
  const last = [...input].reverse().find((item) => item.type === 'computer_call_output');
  if (!last) return firstScreenshot(input);
  if (typeof last.call_id !== 'string' || !isJsonObject(last.output)) return {};
  const output = last.output;
  // A screenshot by file id or a remote URL cannot be checked here: no screenshot, so nothing is served.
  // `computer_screenshot` as the API documents it; `input_image` as OpenAI's sample app sends it.
  if ((output.type !== 'computer_screenshot' && output.type !== 'input_image') || typeof output.image_url !== 'string' || !DATA_URL.test(output.image_url)) return {};
  const urlInside = typeof output.current_url === 'string';
  const currentUrl = urlInside ? (output.current_url as string) : typeof last.current_url === 'string' ? last.current_url : undefined;
  return { screenshot: { callId: last.call_id, dataUrl: output.image_url, ...(currentUrl !== undefined ? { currentUrl, urlInside } : {}), acknowledged: acknowledgedBy(last) } };
}

/** A first turn's screenshot: the last image (a data URL) of the task's user messages, when the agent sends one with the task. */
function firstScreenshot(input: readonly Record<string, unknown>[]): { screenshot?: SentScreenshot } {
  const parts = input.filter((item) => item.role === 'user' && Array.isArray(item.content)).flatMap((item) => (item.content as unknown[]).filter(isJsonObject));
  const image = [...parts].reverse().find((part) => part.type === 'input_image' && typeof part.image_url === 'string' && DATA_URL.test(part.image_url));
  return image ? { screenshot: { dataUrl: image.image_url as string, acknowledged: [] } } : {};
}

/** The call the last computer call output answers, and what came beside it (see ResponsesRequest.extra). */
function answeredCallOf(input: readonly Record<string, unknown>[], chained: boolean): { answersCall?: string; rawOutput?: Record<string, unknown>; extra: Record<string, unknown>[]; acknowledged: string[] } {
  const at = input.map((item) => item.type).lastIndexOf('computer_call_output');
  if (at === -1) return { extra: chained ? [...input] : [], acknowledged: [] };
  const last = input[at]!;
  const extra = chained ? input.filter((_, index) => index !== at) : input.slice(at + 1);
  return { ...(typeof last.call_id === 'string' ? { answersCall: last.call_id } : {}), rawOutput: last, extra, acknowledged: acknowledgedBy(last) };
}

/** The ids of the safety checks a computer call output acknowledges. */
function acknowledgedBy(output: Record<string, unknown>): string[] {
  return (Array.isArray(output.acknowledged_safety_checks) ? output.acknowledged_safety_checks : []).filter(isJsonObject).map((check) => String(check.id));
}
