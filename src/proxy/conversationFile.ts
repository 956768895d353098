import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CONVERSATION_ROOT, type ConversationStore, type ProxyNodeLink } from '../store/conversationStore.js';
import { templateLevel } from './chatKey.js';
import type { StoredReply } from './chatReply.js';
import { ambiguity, templatable } from './declaredValues.js';
import { levelHash } from './storeConversationTree.js';
import { templatePathHash, type Exemplar } from './templateInduction.js';

/**
 * A conversation tree as a file (`rote proxy export`, `rote proxy import`): every stored
 * conversation that ends in a reply, as the path of its levels from the root, and the templates
 * learned over them (refuted ones as such). What the store holds and nothing more: no API key (a
 * namespace is a hash of one), no declared value (they are templated out before anything is
 * stored; a conversation that declared none, and a template's exemplar, hold theirs as sent), and
 * no counts.
 */
export const CONVERSATIONS_FORMAT = 'rote-proxy-conversations';

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');
/** A level is a message in the key's canonical JSON: anything else would never match a request. */
const level = z.string().refine((text) => {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}, 'a message as canonical JSON');
const reply = z.strictObject({
  model: z.string(),
  finishReason: z.enum(['stop', 'tool_calls']),
  content: z.string().nullable(),
  toolCalls: z.array(z.strictObject({ name: z.string(), arguments: z.string() })),
  usage: z.strictObject({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() }),
});

export const conversationFileSchema = z.strictObject({
  format: z.literal(CONVERSATIONS_FORMAT),
  version: z.literal(1),
  conversations: z.array(z.strictObject({ namespace: hash, shape: hash, levels: z.array(level).min(1), reply })),
  templates: z.array(
    z.strictObject({
      namespace: hash,
      shape: hash,
      /** The conversation it was learned from, as stored, and the value of each variable in it: the template's messages are these templated. */
      exemplar: z.strictObject({ levels: z.array(level).min(1), values: z.record(z.string().regex(/^value\d+$/), z.string().min(1)) }),
      /** The reply it serves, templated. */
      reply,
      /** An upstream answer or another pair of conversations disagreed with it: imported refuted, so it is never learned again there. */
      refuted: z.boolean(),
    }),
  ),
});

export type ConversationFile = z.infer<typeof conversationFileSchema>;

/** The namespace's trees (every namespace's when none is given) as a file's content. */
export async function exportConversations(conversations: ConversationStore, namespace?: string): Promise<ConversationFile> {
  const { nodes, templates } = await conversations.everything(namespace);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const out: ConversationFile['conversations'] = [];
  const place = new Map<string, number>();
  for (const node of nodes) {
    if (node.reply === null || node.reply === undefined) continue;
    const levels = pathTo(node, byId);
    if (!levels) continue;
    place.set(node.id, out.length);
    out.push({ namespace: node.namespace, shape: node.shape, levels, reply: node.reply as ConversationFile['conversations'][number]['reply'] });
  }
  const learned = templates.map((template) => ({ namespace: template.namespace, shape: template.shape, exemplar: template.exemplar as Exemplar, reply: template.reply as StoredReply, refuted: template.refuted !== 0 }));
  return { format: CONVERSATIONS_FORMAT, version: 1, conversations: out, templates: learned };
}

/**
 * Stores a file's conversations and templates: each path shares what the tree already holds and
 * adds the rest. Into `namespace` when one is given (another key's trees), else where they were.
 */
export async function importConversations(conversations: ConversationStore, file: ConversationFile, namespace?: string): Promise<{ conversations: number; templates: number }> {
  for (const conversation of file.conversations) {
    const levels = conversation.levels.map((text) => ({ hash: levelHash(text), level: text }));
    await conversations.storePath({ namespace: namespace ?? conversation.namespace, shape: conversation.shape, levels, reply: conversation.reply, at: Date.now(), newId: randomUUID });
  }
  let templates = 0;
  for (const template of file.templates) {
    const levels = templatedLevels(template.exemplar);
    if (!levels) continue;
    // Checked again in the store it serves from: a file says what was learned, not that it is right here.
    const row = { id: randomUUID(), namespace: namespace ?? template.namespace, shape: template.shape, depth: levels.length, pathHash: templatePathHash(levels), exemplar: template.exemplar, reply: template.reply, confirmations: 0, createdAt: Date.now() };
    if (!(await conversations.addTemplate(row))) continue;
    if (template.refuted) await conversations.judgeTemplate(row.id, false);
    else templates++;
  }
  return { conversations: file.conversations.length, templates };
}

/**
 * The problems a schema cannot see: a template whose exemplar's values are not ones the proxy
 * would learn (too common, ambiguous, absent from its messages). Empty when there are none.
 */
export function referenceProblems(file: ConversationFile): string[] {
  return file.templates.flatMap((template, index) => {
    const values = new Map(Object.entries(template.exemplar.values));
    const problem = [...values.values()].some((value) => !templatable(value)) ? 'a value too common to stand for one (true, false or under three characters)' : ambiguity(values);
    if (problem) return [`templates[${index}].exemplar.values: ${problem}`];
    if (!templatedLevels(template.exemplar)) return [`templates[${index}].exemplar: its values do not all stand in its messages`];
    return [];
  });
}

/** The exemplar's messages with its values as variables; undefined when a value stands in none of them. */
function templatedLevels(exemplar: Exemplar): string[] | undefined {
  const values = new Map(Object.entries(exemplar.values));
  const used = new Set<string>();
  const levels: string[] = [];
  for (const text of exemplar.levels) {
    const templated = templateLevel(text, values, used);
    if (!templated.ok) return undefined;
    levels.push(templated.value);
  }
  return used.size === values.size ? levels : undefined;
}

function pathTo(node: ProxyNodeLink, byId: ReadonlyMap<string, ProxyNodeLink>): string[] | undefined {
  const levels: string[] = [];
  for (let at: ProxyNodeLink | undefined = node; at; at = byId.get(at.parentId)) {
    levels.unshift(at.level);
    if (at.parentId === CONVERSATION_ROOT) return levels;
  }
  return undefined;
}
