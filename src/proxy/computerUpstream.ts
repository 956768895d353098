import type { IncomingHttpHeaders } from 'node:http';
import type { ComputerSession, UpstreamCall } from './computerSessions.js';
import type { SentScreenshot } from './responsesRequest.js';
import { forward, type Forwarded } from './upstream.js';

/**
 * A computer-use turn the cache cannot serve, as the upstream is asked it. Never the client's
 * input as it came: it echoes ids the proxy minted, which the upstream never gave (a 404), and
 * calls the proxy answered itself. Either the upstream's own conversation goes on (its last call
 * answered with this screenshot, when that call was the upstream's and the upstream keeps its
 * responses), or a new one starts with the task, a note of the steps already done, and the
 * screenshot: valid input whatever the proxy served before.
 */
type Json = Record<string, unknown>;

/** Fields of the client's request that belong to the client's conversation, not to the question asked. */
const OWN_FIELDS = new Set(['input', 'previous_response_id', 'stream', 'stream_options', 'background', 'conversation']);

export type UpstreamAsk = { body: Json; continued: boolean };

/** `extra`: what the client sent beside its screenshot, passed on after it. */
export function upstreamRequest(body: Json, session: ComputerSession, screenshot: SentScreenshot | undefined, extra: readonly Json[] = [], rawOutput?: Json): UpstreamAsk {
  const base = Object.fromEntries(Object.entries(body).filter(([key]) => !OWN_FIELDS.has(key)));
  const call = session.pending?.upstream;
  // A screenshot this proxy cannot read (a file id, a remote URL) goes on as the client sent it.
  if (call && call.chained && call.rest.length === 0 && !screenshot && rawOutput) {
    // Its id (if the client gave one) is the client's, never the upstream's; its checks are the upstream's.
    const { id: _id, acknowledged_safety_checks: _checks, ...kept } = rawOutput;
    const output: Json = { ...kept, call_id: call.callId, ...(call.acknowledged.length > 0 ? { acknowledged_safety_checks: call.acknowledged } : {}) };
    return { body: { ...base, previous_response_id: call.responseId, input: [output, ...extra] }, continued: true };
  }
  if (call && call.chained && call.rest.length === 0 && screenshot) {
    // The URL where the client put it: inside the output (as OpenAI's sample app does) or beside it.
    const url = screenshot.currentUrl !== undefined ? { current_url: screenshot.currentUrl } : {};
    const output: Json = {
      type: 'computer_call_output',
      call_id: call.callId,
      output: { type: 'computer_screenshot', image_url: screenshot.dataUrl, ...(screenshot.urlInside ? url : {}) },
      ...(call.acknowledged.length > 0 ? { acknowledged_safety_checks: call.acknowledged } : {}),
      ...(screenshot.urlInside ? {} : url),
    };
    return { body: { ...base, previous_response_id: call.responseId, input: [output, ...extra] }, continued: true };
  }
  // A first turn: the task's messages as they came (a screenshot the agent sent with them included).
  if (session.done.length === 0) return { body: { ...base, input: [...session.taskItems, ...extra] }, continued: false };
  const note = noteOf(session.done, screenshot !== undefined);
  const content: Json[] = [
    { type: 'input_text', text: note },
    ...(screenshot ? [{ type: 'input_image', image_url: screenshot.dataUrl, detail: 'auto' }] : imageOf(rawOutput)),
    ...(screenshot?.currentUrl !== undefined ? [{ type: 'input_text', text: `The page's URL: ${screenshot.currentUrl}` }] : []),
  ];
  return { body: { ...base, input: [...session.taskItems, { role: 'user', content }, ...extra] }, continued: false };
}

/** What a model taking over in the middle of a task is told: what was done, in order, and that the screenshot is now. */
function noteOf(done: readonly string[], withScreenshot: boolean): string {
  const steps = done.map((step, index) => `${index + 1}. ${step}`).join('\n');
  return `This task is already under way. These steps were done, in this order:\n${steps}\n${withScreenshot ? 'The screenshot shows the screen now. ' : ''}Continue the task from here.`;
}

/** Sends the turn upstream with the client's own headers (its key among them), never stream: the proxy reads the whole answer. */
export function askUpstream(upstream: URL, path: string, headers: IncomingHttpHeaders, ask: UpstreamAsk): Promise<Forwarded> {
  return forward(upstream, 'POST', path, { ...headers, 'content-type': 'application/json', accept: 'application/json' }, Buffer.from(JSON.stringify({ ...ask.body, stream: false })));
}

/** The image of an output this proxy could not read, as an input image the upstream can (its file id or URL). */
function imageOf(rawOutput: Json | undefined): Json[] {
  const output = rawOutput?.output as Json | undefined;
  if (typeof output?.file_id === 'string') return [{ type: 'input_image', file_id: output.file_id, detail: 'auto' }];
  if (typeof output?.image_url === 'string') return [{ type: 'input_image', image_url: output.image_url, detail: 'auto' }];
  return [];
}

/** What a model is told when only part of its batch was done before the client sent new input. */
export function skippedNote(held: UpstreamCall): Json {
  return { role: 'user', content: [{ type: 'input_text', text: `Of the ${held.size} actions of your last call, only the first ${held.size - held.rest.length} were done before this message; the rest were not.` }] };
}
