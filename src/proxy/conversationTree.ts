import { randomUUID } from 'node:crypto';
import type { ChatKey } from './chatKey.js';
import type { StoredReply } from './chatReply.js';

/**
 * A namespace's conversations as a tree: one root per request shape, one level per message. A
 * request whose every message matches a stored path, and whose last node holds a reply, is a hit;
 * anything else is a miss that says where the request left the tree, and the reply the upstream
 * gives it is stored as a branch at that point.
 */
export type TreeLookup =
  | { kind: 'hit'; nodeId: string; reply: StoredReply }
  | { kind: 'miss'; /** How many of the request's messages the tree already holds. */ depth: number; reason: string };

export interface ConversationTree {
  lookup(namespace: string, key: ChatKey): Promise<TreeLookup>;
  /** Stores the reply at the request's path, adding the levels the tree lacks; returns the node that holds it. */
  store(namespace: string, key: ChatKey, reply: StoredReply): Promise<string>;
  /** A request was served from this node's reply: counted, with the tokens it did not cost. */
  served(nodeId: string, reply: StoredReply): Promise<void>;
}

type Node = { id: string; children: Map<string, Node>; reply?: StoredReply; hits: number };

/** The tree in memory, for one process: what the store-backed tree must answer the same way. */
export class MemoryConversationTree implements ConversationTree {
  private readonly roots = new Map<string, Node>();
  private readonly byId = new Map<string, Node>();

  async lookup(namespace: string, key: ChatKey): Promise<TreeLookup> {
    const root = this.roots.get(rootKey(namespace, key));
    if (!root) return { kind: 'miss', depth: 0, reason: 'no conversation with this model, these tools and these settings yet' };
    let node: Node = root;
    for (let depth = 0; depth < key.levels.length; depth++) {
      const next: Node | undefined = node.children.get(key.levels[depth]!);
      if (!next) return { kind: 'miss', depth, reason: `message ${depth} is new here` };
      node = next;
    }
    return node.reply ? { kind: 'hit', nodeId: node.id, reply: node.reply } : { kind: 'miss', depth: key.levels.length, reason: 'every message is known, but no reply to them is stored' };
  }

  async store(namespace: string, key: ChatKey, reply: StoredReply): Promise<string> {
    const root = rootKey(namespace, key);
    let node: Node | undefined = this.roots.get(root);
    if (!node) this.roots.set(root, (node = { id: randomUUID(), children: new Map(), hits: 0 }));
    for (const level of key.levels) {
      let next: Node | undefined = node.children.get(level);
      if (!next) node.children.set(level, (next = { id: randomUUID(), children: new Map(), hits: 0 }));
      node = next;
    }
    node.reply = reply;
    this.byId.set(node.id, node);
    return node.id;
  }

  async served(nodeId: string): Promise<void> {
    const node = this.byId.get(nodeId);
    if (node) node.hits++;
  }

  /** Requests served from the node's reply. */
  hitsOf(nodeId: string): number {
    return this.byId.get(nodeId)?.hits ?? 0;
  }
}

function rootKey(namespace: string, key: ChatKey): string {
  return `${namespace}\n${key.shape}`;
}
