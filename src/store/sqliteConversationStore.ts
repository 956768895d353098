import { and, count, eq, inArray, isNotNull, sql, sum } from 'drizzle-orm';
import { CONVERSATION_ROOT, type ConversationStore, type ProxyNodeStep } from './conversationStore.js';
import { guardStore } from './guard.js';
import type { RoteDatabase } from './open.js';
import { proxyNodes } from './schema.js';

/** The proxy's conversation trees in the SQLite store (the contract is in conversationStore.ts). */
export class SqliteConversationStore implements ConversationStore {
  constructor(
    private readonly db: RoteDatabase,
    private readonly path: string,
  ) {}

  async nodesAt(namespace: string, shape: string, levelHashes: readonly string[]): Promise<ProxyNodeStep[]> {
    if (levelHashes.length === 0) return [];
    return this.guard('read a conversation', () =>
      this.db
        .select({ id: proxyNodes.id, parentId: proxyNodes.parentId, levelHash: proxyNodes.levelHash, reply: proxyNodes.reply })
        .from(proxyNodes)
        .where(and(eq(proxyNodes.namespace, namespace), eq(proxyNodes.shape, shape), inArray(proxyNodes.levelHash, [...new Set(levelHashes)])))
        .all(),
    );
  }

  async storePath(input: Parameters<ConversationStore['storePath']>[0]): Promise<string> {
    return this.guard('store a conversation', () => {
      const write = this.db.$client.transaction(() => {
        let parentId = CONVERSATION_ROOT;
        for (const { hash, level } of input.levels) {
          this.db.insert(proxyNodes).values({ id: input.newId(), namespace: input.namespace, shape: input.shape, parentId, levelHash: hash, level, createdAt: input.at }).onConflictDoNothing().run();
          const place = and(eq(proxyNodes.namespace, input.namespace), eq(proxyNodes.shape, input.shape), eq(proxyNodes.parentId, parentId), eq(proxyNodes.levelHash, hash));
          parentId = this.db.select({ id: proxyNodes.id }).from(proxyNodes).where(place).get()!.id;
        }
        this.db.update(proxyNodes).set({ reply: input.reply }).where(eq(proxyNodes.id, parentId)).run();
        return parentId;
      });
      return write.immediate();
    });
  }

  async noteHit(nodeId: string, tokens: number, at: number): Promise<void> {
    this.guard('count a hit', () =>
      this.db
        .update(proxyNodes)
        .set({ hits: sql`${proxyNodes.hits} + 1`, tokensSaved: sql`${proxyNodes.tokensSaved} + ${tokens}`, lastHitAt: at })
        .where(eq(proxyNodes.id, nodeId))
        .run(),
    );
  }

  async clear(namespace?: string): Promise<number> {
    return this.guard('clear conversations', () => this.db.delete(proxyNodes).where(namespace === undefined ? undefined : eq(proxyNodes.namespace, namespace)).run().changes);
  }

  async totals(): Promise<{ nodes: number; replies: number; hits: number; tokensSaved: number }> {
    return this.guard('count conversations', () => {
      const row = this.db.select({ nodes: count(), hits: sum(proxyNodes.hits), tokensSaved: sum(proxyNodes.tokensSaved) }).from(proxyNodes).get();
      const replies = this.db.select({ replies: count() }).from(proxyNodes).where(isNotNull(proxyNodes.reply)).get();
      return { nodes: row?.nodes ?? 0, replies: replies?.replies ?? 0, hits: Number(row?.hits ?? 0), tokensSaved: Number(row?.tokensSaved ?? 0) };
    });
  }

  private guard<T>(operation: string, fn: () => T): T {
    return guardStore(this.path, operation, fn);
  }
}
