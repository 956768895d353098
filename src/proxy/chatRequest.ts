/**
 * The checks a chat completions body must pass before the proxy keys it, with the error OpenAI
 * gives for each (400, `invalid_request_error`, the parameter named). What the proxy does not key
 * on is left to the upstream to judge: a request rote cannot read is forwarded, never answered.
 */
export type ChatBodyError = { message: string; param: string | null; code: string | null };

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

export function readChatBody(raw: Buffer): { ok: true; body: Record<string, unknown> } | { ok: false; error: ChatBodyError } {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, error: { message: 'We could not parse the JSON body of your request. The body must be valid JSON: an object with "model" and "messages".', param: null, code: null } };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: { message: 'The body of your request must be a JSON object.', param: null, code: null } };
  const fields = body as Record<string, unknown>;
  if (typeof fields.model !== 'string' || fields.model === '') return { ok: false, error: { message: "Missing required parameter: 'model'.", param: 'model', code: 'missing_required_parameter' } };
  if (!Array.isArray(fields.messages) || fields.messages.length === 0) {
    return { ok: false, error: { message: "Missing required parameter: 'messages' (a non-empty array).", param: 'messages', code: fields.messages === undefined ? 'missing_required_parameter' : 'invalid_type' } };
  }
  for (const [index, message] of (fields.messages as unknown[]).entries()) {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return { ok: false, error: { message: `Invalid type for 'messages[${index}]': expected an object.`, param: `messages[${index}]`, code: 'invalid_type' } };
    const role = (message as Record<string, unknown>).role;
    if (typeof role !== 'string' || !ROLES.has(role)) {
      return { ok: false, error: { message: `Invalid value for 'messages[${index}].role': ${JSON.stringify(role)}. Expected one of ${[...ROLES].join(', ')}.`, param: `messages[${index}].role`, code: 'invalid_value' } };
    }
  }
  return { ok: true, body: fields };
}
