/**
 * A whole Responses API response as the event stream a client that asked for `stream: true`
 * reads: `response.created`, `response.in_progress`, each output item added, filled and done, then
 * `response.completed`, each event with the next `sequence_number` (from 0) and no `[DONE]`. The
 * proxy writes this itself for what it serves (and for what it forwards under ids of its own), so
 * a stream and a JSON answer to the same request carry the same response.
 *
 * The shapes are those of the pinned SDK's types (openai/resources/responses/responses.d.ts) and
 * what its accumulator (openai/lib/responses/ResponseStream) rebuilds a response from: an item is
 * added empty where the stream fills it (a message's text parts, a function call's arguments) and
 * whole otherwise (a computer call, a reasoning summary).
 */
type Json = Record<string, unknown>;

export function responseEvents(response: Json): string[] {
  const events: string[] = [];
  const emit = (type: string, fields: Json) => events.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: events.length, ...fields })}\n\n`);
  const started = { ...response, status: 'in_progress', output: [], usage: null, incomplete_details: null, error: null };
  emit('response.created', { response: started });
  emit('response.in_progress', { response: started });
  const output = Array.isArray(response.output) ? (response.output as Json[]) : [];
  output.forEach((item, outputIndex) => itemEvents(item, outputIndex, emit));
  emit('response.completed', { response });
  return events;
}

function itemEvents(item: Json, output_index: number, emit: (type: string, fields: Json) => void): void {
  const item_id = String(item.id ?? '');
  const inProgress = 'status' in item ? { status: 'in_progress' } : {};
  switch (item.type) {
    case 'message': {
      const parts = Array.isArray(item.content) ? (item.content as Json[]) : [];
      emit('response.output_item.added', { output_index, item: { ...item, ...inProgress, content: [] } });
      parts.forEach((part, content_index) => {
        const text = typeof part.text === 'string' ? part.text : undefined;
        if (part.type !== 'output_text' || text === undefined) {
          // A refusal or another part: added whole.
          emit('response.content_part.added', { item_id, output_index, content_index, part });
          emit('response.content_part.done', { item_id, output_index, content_index, part });
          return;
        }
        emit('response.content_part.added', { item_id, output_index, content_index, part: { ...part, text: '' } });
        if (text !== '') emit('response.output_text.delta', { item_id, output_index, content_index, delta: text, logprobs: [] });
        emit('response.output_text.done', { item_id, output_index, content_index, text, logprobs: [] });
        emit('response.content_part.done', { item_id, output_index, content_index, part });
      });
      break;
    }
    case 'function_call': {
      const args = String(item.arguments ?? '');
      emit('response.output_item.added', { output_index, item: { ...item, ...inProgress, arguments: '' } });
      if (args !== '') emit('response.function_call_arguments.delta', { item_id, output_index, delta: args });
      emit('response.function_call_arguments.done', { item_id, output_index, name: item.name, arguments: args });
      break;
    }
    default:
      emit('response.output_item.added', { output_index, item: { ...item, ...inProgress } });
  }
  emit('response.output_item.done', { output_index, item });
}
