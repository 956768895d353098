/** Written out, not inferred from the schema (see rows.ts); rowTypes.check.ts keeps it equal. */
export type ProxyNodeRow = {
  id: string;
  namespace: string;
  shape: string;
  parentId: string;
  levelHash: string;
  level: string;
  reply: unknown;
  hits: number;
  tokensSaved: number;
  createdAt: number;
  lastHitAt: number | null;
  depth: number | null;
};

/** A template the proxy learned (src/proxy/templateInduction.ts); written out like ProxyNodeRow. */
export type ProxyTemplateRow = {
  id: string;
  namespace: string;
  shape: string;
  depth: number;
  pathHash: string;
  exemplar: unknown;
  reply: unknown;
  confirmations: number;
  refuted: number;
  hits: number;
  tokensSaved: number;
  lastHitAt: number | null;
  createdAt: number;
};

/** A node as a lookup walks it. */
export type ProxyNodeStep = Pick<ProxyNodeRow, 'id' | 'parentId' | 'levelHash' | 'reply'>;

/** A node as a path is read back from it: what learning and export need. */
export type ProxyNodeLink = Pick<ProxyNodeRow, 'id' | 'namespace' | 'shape' | 'parentId' | 'level' | 'reply' | 'hits' | 'tokensSaved'>;

/** One namespace's traffic and what it holds, for the report. */
export type ProxyNamespaceTotals = { namespace: string; nodes: number; replies: number; hits: number; tokensSaved: number; templates: number; lastHitAt: number | null };

/** The parent id of a conversation's first message. */
export const CONVERSATION_ROOT = '';

/**
 * The proxy's conversation trees, in the same database as the cache and the run log. One
 * implementation per dialect (sqliteConversationStore.ts, postgres/); the tree's rules are in
 * src/proxy/storeConversationTree.ts, which only runs these operations.
 */
export interface ConversationStore {
  /** The nodes of one request shape in a namespace whose level is one of `levelHashes`: what a lookup walks. */
  nodesAt(namespace: string, shape: string, levelHashes: readonly string[]): Promise<ProxyNodeStep[]>;
  /**
   * The path of `levels` from the root, its missing nodes added, and `reply` at its end, in one
   * transaction (a path another process stored meanwhile is shared, not doubled); the end node's id.
   */
  storePath(input: { namespace: string; shape: string; levels: readonly { hash: string; level: string }[]; reply: unknown; at: number; newId: () => string }): Promise<string>;
  /** A request served from this node's reply, and the tokens it did not cost. */
  noteHit(nodeId: string, tokens: number, at: number): Promise<void>;
  /** The nodes with a reply at this depth of one shape's tree, the newest first: what a new conversation is compared with. */
  repliesAt(namespace: string, shape: string, depth: number, limit: number): Promise<{ id: string }[]>;
  /** The nodes of these ids that are there (gone ones are not). */
  nodes(ids: readonly string[]): Promise<ProxyNodeLink[]>;
  /** Keeps a learned template; false (and nothing written) when one for the same templated messages is kept already. */
  addTemplate(template: Omit<ProxyTemplateRow, 'refuted' | 'hits' | 'tokensSaved' | 'lastHitAt'>): Promise<boolean>;
  /** A request served from this template, and the tokens it did not cost. */
  noteTemplateHit(id: string, tokens: number, at: number): Promise<void>;
  /** The template kept for these templated messages, refuted or not. */
  templateAt(namespace: string, shape: string, pathHash: string): Promise<ProxyTemplateRow | undefined>;
  /** The templates of one shape and depth that were not refuted, the newest first. */
  templatesAt(namespace: string, shape: string, depth: number, limit: number): Promise<ProxyTemplateRow[]>;
  /** The upstream's answer agreed with the template's reply (one confirmation more), or did not (refuted for good). */
  judgeTemplate(id: string, agreed: boolean): Promise<void>;
  /** Every node and template (refuted ones too), of a namespace (of every namespace when none is given): what an export writes. */
  everything(namespace?: string): Promise<{ nodes: ProxyNodeLink[]; templates: ProxyTemplateRow[] }>;
  /**
   * Forgets one branch: a node and every node below it (the conversations that went through it),
   * or, when the id is a learned template's, that template (refuted, so it is not learned again).
   */
  clearBranch(id: string): Promise<{ nodes: number; templates: number }>;
  /** Removes a namespace's trees and templates (every namespace's when none is given); how many nodes went. */
  clear(namespace?: string): Promise<number>;
  /** Over every namespace: stored nodes, replies stored, hits served, tokens saved, templates learned. */
  totals(): Promise<{ nodes: number; replies: number; hits: number; tokensSaved: number; templates: number }>;
  /** The same, one row per namespace. */
  namespaceTotals(): Promise<ProxyNamespaceTotals[]>;
}

/**
 * The per-namespace counts of both tables as one row each, the busiest first: hits and tokens saved
 * through the tree and through learned templates together. Numbers as numbers (sums come back as text).
 */
type CountRow = { namespace: string; hits: unknown; tokensSaved: unknown; lastHitAt: unknown };

export function namespaceRows(rows: readonly (CountRow & { nodes: number; replies: number })[], templates: readonly (CountRow & { templates: number })[]): ProxyNamespaceTotals[] {
  const byNamespace = new Map<string, ProxyNamespaceTotals>();
  const at = (namespace: string) => byNamespace.get(namespace) ?? byNamespace.set(namespace, { namespace, nodes: 0, replies: 0, hits: 0, tokensSaved: 0, templates: 0, lastHitAt: null }).get(namespace)!;
  const add = (row: ProxyNamespaceTotals, counted: CountRow) => {
    row.hits += Number(counted.hits ?? 0);
    row.tokensSaved += Number(counted.tokensSaved ?? 0);
    if (counted.lastHitAt !== null && counted.lastHitAt !== undefined) row.lastHitAt = Math.max(row.lastHitAt ?? 0, Number(counted.lastHitAt));
  };
  for (const counted of rows) {
    const row = at(counted.namespace);
    row.nodes += Number(counted.nodes);
    row.replies += Number(counted.replies);
    add(row, counted);
  }
  for (const counted of templates) {
    const row = at(counted.namespace);
    row.templates += Number(counted.templates);
    add(row, counted);
  }
  return [...byNamespace.values()].sort((a, b) => b.hits - a.hits || b.replies - a.replies);
}
