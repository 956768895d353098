import { describe, expect, it } from 'vitest';
import { readResponsesBody } from './responsesRequest.js';

/** A Responses request as the computer-use proxy reads it: OpenAI's own refusals first, then what the agent sent with its last action. */
const read = (body: unknown) => readResponsesBody(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));
const SHOT = 'data:image/png;base64,iVBORw0KGgo=';
const PREVIEW = { type: 'computer_use_preview', display_width: 1280, display_height: 800, environment: 'browser' };

describe('a Responses request', () => {
  it('is refused as OpenAI refuses it: not JSON, no model, an input, previous response or tools of the wrong type', () => {
    expect(read('{"model": ')).toMatchObject({ ok: false, error: { param: null, code: null } });
    expect(read([])).toMatchObject({ ok: false, error: { message: 'The body of your request must be a JSON object.' } });
    expect(read({ input: 'hi' })).toMatchObject({ ok: false, error: { param: 'model', code: 'missing_required_parameter' } });
    expect(read({ model: 'm', input: 42 })).toMatchObject({ ok: false, error: { param: 'input', code: 'invalid_type' } });
    expect(read({ model: 'm', input: [null] })).toMatchObject({ ok: false, error: { param: 'input[0]', code: 'invalid_type' } });
    expect(read({ model: 'm', input: 'hi', previous_response_id: 7 })).toMatchObject({ ok: false, error: { param: 'previous_response_id' } });
    expect(read({ model: 'm', input: 'hi', tools: {} })).toMatchObject({ ok: false, error: { param: 'tools' } });
  });

  it('says which computer tool it offers, and reads the screenshot, URL and acknowledged checks of the last call output', () => {
    const request = read({
      model: 'computer-use-preview',
      tools: [PREVIEW],
      previous_response_id: 'resp_rote_1',
      input: [
        { type: 'computer_call_output', call_id: 'call_1', output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AAAA' } },
        { type: 'computer_call_output', call_id: 'call_2', output: { type: 'computer_screenshot', image_url: SHOT }, current_url: 'http://127.0.0.1:3000/intake', acknowledged_safety_checks: [{ id: 'cu_sc_1', code: 'malicious_instructions', message: 'Check.' }] },
      ],
    });
    expect(request).toMatchObject({ ok: true, request: { form: 'preview', display: { width: 1280, height: 800 }, previousResponseId: 'resp_rote_1', screenshot: { callId: 'call_2', dataUrl: SHOT, currentUrl: 'http://127.0.0.1:3000/intake', acknowledged: ['cu_sc_1'] } } });
    // The batched tool, with the URL inside the screenshot as rote's own client sends it.
    const batch = read({ model: 'gpt-5', tools: [{ type: 'computer' }], input: [{ role: 'user', content: 'Fill the form.' }, { type: 'computer_call_output', call_id: 'c', output: { type: 'computer_screenshot', image_url: SHOT, current_url: 'http://x/' } }] });
    expect(batch).toMatchObject({ ok: true, request: { form: 'batch', screenshot: { currentUrl: 'http://x/', acknowledged: [] } } });
  });

  it('has no screenshot to check when there is no computer call output, or its image is a file or a remote URL', () => {
    expect(read({ model: 'm', input: 'Fill the form.', tools: [PREVIEW] })).toMatchObject({ ok: true, request: { input: [{ role: 'user', content: 'Fill the form.' }] } });
    expect((read({ model: 'm', input: 'Fill the form.' }) as { request: object }).request).not.toHaveProperty('form');
    for (const output of [{ type: 'computer_screenshot', file_id: 'file_1' }, { type: 'computer_screenshot', image_url: 'https://example.com/shot.png' }]) {
      const request = read({ model: 'm', tools: [PREVIEW], input: [{ type: 'computer_call_output', call_id: 'c', output }] });
      expect((request as { request: object }).request).not.toHaveProperty('screenshot');
    }
  });

  it("reads a first turn's screenshot from the task's message, answering no call", () => {
    const first = read({ model: 'm', tools: [PREVIEW], input: [{ role: 'user', content: [{ type: 'input_text', text: 'Fill the form.' }, { type: 'input_image', image_url: SHOT }] }] });
    expect(first).toMatchObject({ ok: true, request: { screenshot: { dataUrl: SHOT, acknowledged: [] } } });
    expect((first as { request: { screenshot: object } }).request.screenshot).not.toHaveProperty('callId');
  });
});
