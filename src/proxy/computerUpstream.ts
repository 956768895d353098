import type { IncomingHttpHeaders } from 'node:http';
import type { ComputerSession } from './computerSessions.js';
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

export function upstreamRequest(body: Json, session: ComputerSession, screenshot: SentScreenshot | undefined): UpstreamAsk {
  const base = Object.fromEntries(Object.entries(body).filter(([key]) => !OWN_FIELDS.has(key)));
  const call = session.pending?.upstream;
  if (call && call.chained && call.rest.length === 0 && screenshot) {
    const output: Json = {
      type: 'computer_call_output',
      call_id: call.callId,
      output: { type: 'computer_screenshot', image_url: screenshot.dataUrl },
      ...(call.acknowledged.length > 0 ? { acknowledged_safety_checks: call.acknowledged } : {}),
      ...(screenshot.currentUrl !== undefined ? { current_url: screenshot.currentUrl } : {}),
    };
    return { body: { ...base, previous_response_id: call.responseId, input: [output] }, continued: true };
  }
  // A first turn: the task's messages as they came (a screenshot the agent sent with them included).
  if (session.done.length === 0) return { body: { ...base, input: [...session.taskItems] }, continued: false };
  const note = noteOf(session.done, screenshot !== undefined);
  const content: Json[] = [
    { type: 'input_text', text: note },
    ...(screenshot ? [{ type: 'input_image', image_url: screenshot.dataUrl, detail: 'auto' }] : []),
    ...(screenshot?.currentUrl !== undefined ? [{ type: 'input_text', text: `The page's URL: ${screenshot.currentUrl}` }] : []),
  ];
  return { body: { ...base, input: [...session.taskItems, { role: 'user', content }] }, continued: false };
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
