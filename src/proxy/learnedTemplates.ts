import { chatKey, type ChatKey } from './chatKey.js';
import { renderReply, type StoredReply } from './chatReply.js';
import { canonicalJson, type JsonValue } from '../params/jsonValues.js';
import type { ConversationTree } from './conversationTree.js';
import type { DeclaredValues } from './declaredValues.js';
import { induceTemplates, readValues, templatePathHash } from './templateInduction.js';

/**
 * Learned templates at work in the proxy: learning after a conversation with no declared values
 * is stored, and using them for a request with no declared values that the tree does not hold as
 * it is. The rules of both are in templateInduction.ts.
 *
 * Two conversations show where values stand; they cannot show that the model's answer depends on
 * a value only by repeating it (it may decide on it: two orders over a limit both approved teach a
 * template that would approve a third under it). So a new template is not served from at once: the
 * first request it reads is forwarded, and the upstream's answer must be the one the template would
 * have given. One that differs refutes it for good; one that agrees makes it servable.
 */

/** How many stored conversations, and how many templates, one request is compared with: the newest. */
const COMPARED = 20;

/**
 * What the learned templates say of a request: a hit (a template the upstream has agreed with
 * before reads it), a check (a template reads it, but the upstream has never yet answered a request
 * it read: the request is forwarded and its answer judged against the template's), or none.
 */
export type LearnedReading =
  | { kind: 'hit' | 'check'; templateId: string; reply: StoredReply; values: DeclaredValues }
  | { kind: 'none'; reason?: string };

/**
 * The reading of this request by the learned templates of its shape and length, when exactly one
 * reading fits. Anything that goes wrong here (the store, a damaged template) is none: forwarded.
 */
export async function lookupLearned(tree: ConversationTree, namespace: string, body: Record<string, unknown>, rawKey: ChatKey, log: (line: string) => void = () => undefined): Promise<LearnedReading> {
  try {
    const templates = await tree.templatesAt(namespace, rawKey.shape, rawKey.levels.length, COMPARED);
    const fits: { templateId: string; reply: StoredReply; values: DeclaredValues; confirmed: boolean }[] = [];
    for (const template of templates) {
      const values = readValues(template.exemplar, rawKey.levels);
      if (!values.ok) continue;
      const key = chatKey(body, values.value);
      // Exact: the request with these values as variables is the template's very messages...
      if (!key.ok || templatePathHash(key.value.levels) !== template.pathHash) continue;
      // ...and its reply can be written with them (one that needs a value the request lacks is no reading).
      if (!renderReply(template.reply, values.value).ok) continue;
      fits.push({ templateId: template.id, reply: template.reply, values: values.value, confirmed: template.confirmations > 0 });
    }
    if (fits.length === 0) return { kind: 'none' };
    // Templates that overlap (one learned with a value fixed that another has as a variable) read a
    // request alike when they would answer it alike: what counts is the answer each would serve.
    const answers = new Set(fits.map((fit) => answerText(fit.reply, fit.values)));
    if (answers.size > 1) return { kind: 'none', reason: `${answers.size} learned templates would answer this request differently: forwarded rather than guessed` };
    const fit = fits.find((candidate) => candidate.confirmed) ?? fits[0]!;
    return { kind: fit.confirmed ? 'hit' : 'check', templateId: fit.templateId, reply: fit.reply, values: fit.values };
  } catch (error) {
    log(`learned templates could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).name}); forwarded`);
    return { kind: 'none' };
  }
}

/**
 * Whether the upstream's own answer (kept with no values, as a request with none declared is) is
 * the one the template would have served with these values: the same text, the same tools called
 * with the same arguments (as JSON values, whatever their spacing), the same finish.
 */
export function agrees(template: StoredReply, values: DeclaredValues, answer: StoredReply): boolean {
  const rendered = renderReply(template, values);
  if (!rendered.ok || template.finishReason !== answer.finishReason || rendered.value.content !== answer.content) return false;
  if (rendered.value.toolCalls.length !== answer.toolCalls.length) return false;
  return rendered.value.toolCalls.every((call, index) => call.name === answer.toolCalls[index]!.name && sameJson(call.arguments, answer.toolCalls[index]!.arguments));
}

/** The answer a template would serve with these values, as one text: its text, tools, arguments (as JSON values) and finish. */
function answerText(reply: StoredReply, values: DeclaredValues): string {
  const rendered = renderReply(reply, values);
  if (!rendered.ok) return `unwritable ${rendered.reason}`;
  const calls = rendered.value.toolCalls.map((call) => [call.name, jsonText(call.arguments)]);
  return JSON.stringify([reply.finishReason, rendered.value.content, calls]);
}

function jsonText(text: string): string {
  try {
    return canonicalJson(JSON.parse(text) as JsonValue);
  } catch {
    return text;
  }
}

function sameJson(first: string, second: string): boolean {
  try {
    return canonicalJson(JSON.parse(first) as JsonValue) === canonicalJson(JSON.parse(second) as JsonValue);
  } catch {
    return first === second;
  }
}

/**
 * After a conversation with no declared values was stored: compared with the newest stored ones of
 * its shape and length, and the templates of the first that differs from it only in values are
 * kept (one for it, and one for each earlier turn on its path). Never fails the request:
 * what goes wrong here is logged by kind and the conversation stays stored as it is.
 */
export async function learnFrom(tree: ConversationTree, namespace: string, key: ChatKey, nodeId: string, log: (line: string) => void): Promise<void> {
  try {
    const stored = await tree.pathTo(nodeId);
    if (!stored) return;
    for (const other of await tree.pathsAt(namespace, key.shape, key.levels.length, COMPARED + 1)) {
      if (other.nodeId === nodeId) continue;
      const templates = induceTemplates(other, stored);
      if (!templates.ok) continue;
      const outcomes = { added: 0, known: 0, refuted: 0 };
      for (const template of templates.value) outcomes[await tree.learn(namespace, key.shape, template)]++;
      const values = Object.keys(templates.value[0]!.exemplar.values).length;
      if (outcomes.added === 0 && outcomes.refuted === 0) return;
      return log(`learned: ${outcomes.added} template${outcomes.added === 1 ? '' : 's'} (requests of up to ${key.levels.length} messages) with ${values} values${outcomes.refuted > 0 ? `; ${outcomes.refuted} kept before answer otherwise and are refuted` : ''}`);
    }
  } catch (error) {
    log(`learning failed (${(error as NodeJS.ErrnoException).code ?? (error as Error).name}); the conversation stays stored as it is`);
  }
}
