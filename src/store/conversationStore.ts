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
};

/** A node as a lookup walks it. */
export type ProxyNodeStep = Pick<ProxyNodeRow, 'id' | 'parentId' | 'levelHash' | 'reply'>;

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
  /** Removes a namespace's trees (every namespace's when none is given); how many nodes went. */
  clear(namespace?: string): Promise<number>;
  /** Over every namespace: stored nodes, replies stored, hits served, tokens saved. */
  totals(): Promise<{ nodes: number; replies: number; hits: number; tokensSaved: number }>;
}
