import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CONVERSATION_ROOT, type ConversationStore, type ProxyNodeLink } from '../store/conversationStore.js';
import { levelHash } from './storeConversationTree.js';

/**
 * A conversation tree as a file (`rote proxy export`, `rote proxy import`): every stored
 * conversation that ends in a reply, as the path of its levels from the root, and the templates
 * learned over them (not the refuted ones). What the store holds and nothing more: no API key (a namespace is a hash of
 * one), no declared value (they are templated out before anything is stored), no counts of hits.
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
      /** The conversation (by its place in `conversations`) that is the template's templated path. */
      conversation: z.number().int().nonnegative(),
      exemplar: z.strictObject({ levels: z.array(level).min(1), values: z.record(z.string().regex(/^value\d+$/), z.string().min(1)) }),
      /** Requests on which the upstream's answer agreed with the template's: served from once there is one. */
      confirmations: z.number().int().nonnegative(),
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
  const learned = templates.flatMap((template) => {
    const at = place.get(template.nodeId);
    return at === undefined ? [] : [{ conversation: at, exemplar: template.exemplar as ConversationFile['templates'][number]['exemplar'], confirmations: template.confirmations }];
  });
  return { format: CONVERSATIONS_FORMAT, version: 1, conversations: out, templates: learned };
}

/**
 * Stores a file's conversations and templates: each path shares what the tree already holds and
 * adds the rest. Into `namespace` when one is given (another key's trees), else where they were.
 */
export async function importConversations(conversations: ConversationStore, file: ConversationFile, namespace?: string): Promise<{ conversations: number; templates: number }> {
  const nodeIds: string[] = [];
  for (const conversation of file.conversations) {
    const levels = conversation.levels.map((text) => ({ hash: levelHash(text), level: text }));
    nodeIds.push(await conversations.storePath({ namespace: namespace ?? conversation.namespace, shape: conversation.shape, levels, reply: conversation.reply, at: Date.now(), newId: randomUUID }));
  }
  for (const template of file.templates) {
    const conversation = file.conversations[template.conversation]!;
    await conversations.addTemplate({ id: randomUUID(), namespace: namespace ?? conversation.namespace, shape: conversation.shape, depth: conversation.levels.length, nodeId: nodeIds[template.conversation]!, exemplar: template.exemplar, confirmations: template.confirmations, createdAt: Date.now() });
  }
  return { conversations: nodeIds.length, templates: file.templates.length };
}

/** The problems of a file's cross references that the schema cannot see; empty when there are none. */
export function referenceProblems(file: ConversationFile): string[] {
  return file.templates.flatMap((template, index) => {
    const conversation = file.conversations[template.conversation];
    if (!conversation) return [`templates[${index}].conversation: ${template.conversation} is not a conversation of the file (it has ${file.conversations.length})`];
    if (template.exemplar.levels.length !== conversation.levels.length) return [`templates[${index}].exemplar: ${template.exemplar.levels.length} levels, where its conversation has ${conversation.levels.length}`];
    return [];
  });
}

function pathTo(node: ProxyNodeLink, byId: ReadonlyMap<string, ProxyNodeLink>): string[] | undefined {
  const levels: string[] = [];
  for (let at: ProxyNodeLink | undefined = node; at; at = byId.get(at.parentId)) {
    levels.unshift(at.level);
    if (at.parentId === CONVERSATION_ROOT) return levels;
  }
  return undefined;
}
