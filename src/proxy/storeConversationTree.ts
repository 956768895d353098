import { createHash, randomUUID } from 'node:crypto';
import { CONVERSATION_ROOT, type ConversationStore, type ProxyNodeLink, type ProxyNodeStep } from '../store/conversationStore.js';
import type { ChatKey } from './chatKey.js';
import type { StoredReply } from './chatReply.js';
import type { ConversationTree, LearnedAt, TreeLookup } from './conversationTree.js';
import { sameAnswer, templatePathHash, type Exemplar, type LearnedTemplate, type StoredPath } from './templateInduction.js';

/**
 * The conversation tree in rote's store (SQLite or PostgreSQL): what survives the proxy's
 * restart and is shared by every proxy on one store. A lookup is one query (the nodes of the
 * request's shape whose message is one of the request's) walked from the root in memory.
 */
export class StoreConversationTree implements ConversationTree {
  constructor(private readonly conversations: ConversationStore) {}

  async lookup(namespace: string, key: ChatKey): Promise<TreeLookup> {
    const hashes = key.levels.map(levelHash);
    const nodes = await this.conversations.nodesAt(namespace, key.shape, hashes);
    const byPlace = new Map<string, ProxyNodeStep>(nodes.map((node) => [`${node.parentId}\n${node.levelHash}`, node]));
    if (nodes.length === 0) return { kind: 'miss', depth: 0, reason: 'no conversation with this model, these tools and these settings starts with this message yet' };
    let parentId = CONVERSATION_ROOT;
    let reached: ProxyNodeStep | undefined;
    for (let depth = 0; depth < hashes.length; depth++) {
      reached = byPlace.get(`${parentId}\n${hashes[depth]}`);
      if (!reached) return { kind: 'miss', depth, reason: `message ${depth} is new here` };
      parentId = reached.id;
    }
    return reached?.reply ? { kind: 'hit', nodeId: reached.id, reply: reached.reply as StoredReply } : { kind: 'miss', depth: hashes.length, reason: 'every message is known, but no reply to them is stored' };
  }

  store(namespace: string, key: ChatKey, reply: StoredReply): Promise<string> {
    return this.conversations.storePath({ namespace, shape: key.shape, levels: key.levels.map((level) => ({ hash: levelHash(level), level })), reply, at: Date.now(), newId: randomUUID });
  }

  served(nodeId: string, reply: StoredReply): Promise<void> {
    return this.conversations.noteHit(nodeId, reply.usage.promptTokens + reply.usage.completionTokens, Date.now());
  }

  async pathsAt(namespace: string, shape: string, depth: number, limit: number): Promise<StoredPath[]> {
    const ends = await this.conversations.repliesAt(namespace, shape, depth, limit);
    return (await this.pathsTo(ends.map((end) => end.id))).filter((path) => path.levels.length === depth);
  }

  async pathTo(nodeId: string): Promise<StoredPath | undefined> {
    return (await this.pathsTo([nodeId]))[0];
  }

  /**
   * The conversations that end at these nodes, walked to the root together: one query per level,
   * whatever their number. One whose end has no reply, or with a node gone on the way (cleared
   * meanwhile), is left out.
   */
  private async pathsTo(ends: readonly string[]): Promise<StoredPath[]> {
    const walks = (await this.conversations.nodes(ends)).filter((node) => node.reply).map((node) => ({ end: node, on: [node] as ProxyNodeLink[] }));
    let open = walks.filter((walk) => walk.end.parentId !== CONVERSATION_ROOT);
    while (open.length > 0) {
      const parents = new Map((await this.conversations.nodes(open.map((walk) => walk.on[0]!.parentId))).map((node) => [node.id, node]));
      const next: typeof open = [];
      for (const walk of open) {
        const parent = parents.get(walk.on[0]!.parentId);
        if (!parent) {
          walk.on = [];
          continue;
        }
        walk.on.unshift(parent);
        if (parent.parentId !== CONVERSATION_ROOT) next.push(walk);
      }
      open = next;
    }
    // In the order asked (repliesAt gives the newest first), whatever order the store read them in.
    const order = new Map(ends.map((id, index) => [id, index]));
    return walks
      .filter((walk) => walk.on.length > 0)
      .sort((a, b) => order.get(a.end.id)! - order.get(b.end.id)!)
      .map((walk) => ({ nodeId: walk.end.id, levels: walk.on.map((node) => node.level), reply: walk.end.reply as StoredReply, replies: walk.on.map((node) => (node.reply as StoredReply | null | undefined) ?? null) }));
  }

  async learn(namespace: string, shape: string, template: LearnedTemplate): Promise<'added' | 'known' | 'refuted'> {
    const pathHash = templatePathHash(template.levels);
    const row = { id: randomUUID(), namespace, shape, depth: template.levels.length, pathHash, exemplar: template.exemplar, reply: template.reply, confirmations: 0, createdAt: Date.now() };
    if (await this.conversations.addTemplate(row)) return 'added';
    const known = await this.conversations.templateAt(namespace, shape, pathHash);
    if (!known || known.refuted || sameAnswer(known.reply as StoredReply, template.reply)) return 'known';
    await this.conversations.judgeTemplate(known.id, false);
    return 'refuted';
  }

  async templatesAt(namespace: string, shape: string, depth: number, limit: number): Promise<LearnedAt[]> {
    return (await this.conversations.templatesAt(namespace, shape, depth, limit)).map((row) => ({ id: row.id, pathHash: row.pathHash, exemplar: row.exemplar as Exemplar, reply: row.reply as StoredReply, confirmations: row.confirmations }));
  }

  servedByTemplate(templateId: string, reply: StoredReply): Promise<void> {
    return this.conversations.noteTemplateHit(templateId, reply.usage.promptTokens + reply.usage.completionTokens, Date.now());
  }

  judge(templateId: string, agreed: boolean): Promise<void> {
    return this.conversations.judgeTemplate(templateId, agreed);
  }
}

/** What a lookup matches a message on. */
export function levelHash(level: string): string {
  return createHash('sha256').update(level).digest('hex');
}
