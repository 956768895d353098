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
  nodeId: string;
  exemplar: unknown;
  confirmations: number;
  refuted: number;
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
  /** One node, or undefined when it is gone. */
  node(id: string): Promise<ProxyNodeLink | undefined>;
  /** Keeps a learned template (a second one for the same templated node is not added). */
  addTemplate(template: Omit<ProxyTemplateRow, 'refuted'>): Promise<void>;
  /** The templates of one shape and depth that were not refuted, the newest first. */
  templatesAt(namespace: string, shape: string, depth: number, limit: number): Promise<ProxyTemplateRow[]>;
  /** The upstream's answer agreed with what the templates of this templated node would have served (one confirmation more), or did not (refuted). */
  judgeTemplates(namespace: string, nodeId: string, agreed: boolean): Promise<void>;
  /** Every node and template that was not refuted, of a namespace (of every namespace when none is given): what an export writes. */
  everything(namespace?: string): Promise<{ nodes: ProxyNodeLink[]; templates: ProxyTemplateRow[] }>;
  /** Removes a namespace's trees and templates (every namespace's when none is given); how many nodes went. */
  clear(namespace?: string): Promise<number>;
  /** Over every namespace: stored nodes, replies stored, hits served, tokens saved, templates learned. */
  totals(): Promise<{ nodes: number; replies: number; hits: number; tokensSaved: number; templates: number }>;
  /** The same, one row per namespace. */
  namespaceTotals(): Promise<ProxyNamespaceTotals[]>;
}

/** The per-namespace counts of both tables as one row each, the busiest first; numbers as numbers (sums come back as text). */
export function namespaceRows(
  rows: readonly { namespace: string; nodes: number; replies: number; hits: unknown; tokensSaved: unknown; lastHitAt: number | null }[],
  templates: readonly { namespace: string; templates: number }[],
): ProxyNamespaceTotals[] {
  const learned = new Map(templates.map((row) => [row.namespace, Number(row.templates)]));
  return rows
    .map((row) => ({ namespace: row.namespace, nodes: Number(row.nodes), replies: Number(row.replies), hits: Number(row.hits ?? 0), tokensSaved: Number(row.tokensSaved ?? 0), templates: learned.get(row.namespace) ?? 0, lastHitAt: row.lastHitAt === null ? null : Number(row.lastHitAt) }))
    .sort((a, b) => b.hits - a.hits || b.replies - a.replies);
}
