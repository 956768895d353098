import { randomUUID } from 'node:crypto';
import type { ChatKey } from './chatKey.js';
import type { StoredReply } from './chatReply.js';
import { sameAnswer, templatePathHash, type Exemplar, type LearnedTemplate, type StoredPath } from './templateInduction.js';

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
  /** The newest stored conversations of one shape with `depth` messages and a reply: what a new one is compared with to learn a template. */
  pathsAt(namespace: string, shape: string, depth: number, limit: number): Promise<StoredPath[]>;
  /** The stored conversation that ends at this node (with a reply), or undefined. */
  pathTo(nodeId: string): Promise<StoredPath | undefined>;
  /**
   * Keeps a learned template, apart from the tree (a client that declares values never reaches it).
   * One kept already for the same templated messages stays as it is when its reply is the same
   * ('known'); with another reply it is refuted ('refuted'): two pairs of conversations disagree on
   * what to answer, so neither is served.
   */
  learn(namespace: string, shape: string, template: LearnedTemplate): Promise<'added' | 'known' | 'refuted'>;
  /** The templates learned for one shape and depth that were not refuted, the newest first. */
  templatesAt(namespace: string, shape: string, depth: number, limit: number): Promise<LearnedAt[]>;
  /** The upstream answered a request the template read as it would have (agreed), or otherwise (refuted: never used again). */
  judge(templateId: string, agreed: boolean): Promise<void>;
  /** A request was served from this template: counted, with the tokens it did not cost. */
  servedByTemplate(templateId: string, reply: StoredReply): Promise<void>;
}

/** A learned template as a lookup uses it. */
export type LearnedAt = {
  id: string;
  /** templatePathHash of its templated messages. */
  pathHash: string;
  exemplar: Exemplar;
  /** The reply it serves, templated. */
  reply: StoredReply;
  /** How often the upstream answered a request it read as it would have. */
  confirmations: number;
};

type Node = { id: string; children: Map<string, Node>; reply?: StoredReply; hits: number; levels?: readonly string[]; shape?: string; namespace?: string; path?: Node[] };

/** The tree in memory, for one process: what the store-backed tree must answer the same way. */
export class MemoryConversationTree implements ConversationTree {
  private readonly roots = new Map<string, Node>();
  private readonly byId = new Map<string, Node>();
  private readonly templates: (LearnedAt & { namespace: string; shape: string; depth: number; refuted: boolean; hits: number })[] = [];

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
    const path: Node[] = [];
    for (const level of key.levels) {
      let next: Node | undefined = node.children.get(level);
      if (!next) node.children.set(level, (next = { id: randomUUID(), children: new Map(), hits: 0 }));
      node = next;
      path.push(node);
    }
    node.reply = reply;
    Object.assign(node, { levels: [...key.levels], shape: key.shape, namespace, path });
    // The newest last, as pathsAt reads them newest first.
    this.byId.delete(node.id);
    this.byId.set(node.id, node);
    return node.id;
  }

  async pathsAt(namespace: string, shape: string, depth: number, limit: number): Promise<StoredPath[]> {
    const found = [...this.byId.values()].filter((node) => node.namespace === namespace && node.shape === shape && node.levels?.length === depth && node.reply);
    return found.reverse().slice(0, limit).map(storedPath);
  }

  async pathTo(nodeId: string): Promise<StoredPath | undefined> {
    const node = this.byId.get(nodeId);
    return node?.reply ? storedPath(node) : undefined;
  }

  async learn(namespace: string, shape: string, template: LearnedTemplate): Promise<'added' | 'known' | 'refuted'> {
    const pathHash = templatePathHash(template.levels);
    const known = this.templates.find((kept) => kept.namespace === namespace && kept.shape === shape && kept.pathHash === pathHash);
    if (known) {
      if (sameAnswer(known.reply, template.reply)) return 'known';
      known.refuted = true;
      return 'refuted';
    }
    this.templates.push({ id: randomUUID(), namespace, shape, depth: template.levels.length, pathHash, exemplar: template.exemplar, reply: template.reply, confirmations: 0, refuted: false, hits: 0 });
    return 'added';
  }

  async templatesAt(namespace: string, shape: string, depth: number, limit: number): Promise<LearnedAt[]> {
    return this.templates
      .filter((kept) => kept.namespace === namespace && kept.shape === shape && kept.depth === depth && !kept.refuted)
      .reverse()
      .slice(0, limit)
      .map(({ id, pathHash, exemplar, reply, confirmations }) => ({ id, pathHash, exemplar, reply, confirmations }));
  }

  async servedByTemplate(templateId: string): Promise<void> {
    const kept = this.templates.find((template) => template.id === templateId);
    if (kept) kept.hits++;
  }

  async judge(templateId: string, agreed: boolean): Promise<void> {
    const kept = this.templates.find((template) => template.id === templateId);
    if (!kept) return;
    if (agreed) kept.confirmations++;
    else kept.refuted = true;
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

function storedPath(node: Node): StoredPath {
  return { nodeId: node.id, levels: node.levels!, reply: node.reply!, replies: node.path!.map((on) => on.reply ?? null) };
}

function rootKey(namespace: string, key: ChatKey): string {
  return `${namespace}\n${key.shape}`;
}
