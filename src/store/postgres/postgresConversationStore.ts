import { and, count, eq, inArray, isNotNull, sql, sum } from 'drizzle-orm';
import { CONVERSATION_ROOT, type ConversationStore, type ProxyNodeStep } from '../conversationStore.js';
import { guardStoreAsync } from '../guard.js';
import type { PostgresDatabase } from './openPostgres.js';
import { proxyNodes } from './schema.js';

/** The proxy's conversation trees on PostgreSQL (the contract is in ../conversationStore.ts). */
export class PostgresConversationStore implements ConversationStore {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly location: string,
  ) {}

  nodesAt(namespace: string, shape: string, levelHashes: readonly string[]): Promise<ProxyNodeStep[]> {
    if (levelHashes.length === 0) return Promise.resolve([]);
    return this.guard('read a conversation', () =>
      this.db
        .select({ id: proxyNodes.id, parentId: proxyNodes.parentId, levelHash: proxyNodes.levelHash, reply: proxyNodes.reply })
        .from(proxyNodes)
        .where(and(eq(proxyNodes.namespace, namespace), eq(proxyNodes.shape, shape), inArray(proxyNodes.levelHash, [...new Set(levelHashes)]))),
    );
  }

  storePath(input: Parameters<ConversationStore['storePath']>[0]): Promise<string> {
    return this.guard('store a conversation', () =>
      this.db.transaction(async (tx) => {
        let parentId = CONVERSATION_ROOT;
        for (const { hash, level } of input.levels) {
          await tx.insert(proxyNodes).values({ id: input.newId(), namespace: input.namespace, shape: input.shape, parentId, levelHash: hash, level, createdAt: input.at }).onConflictDoNothing();
          const place = and(eq(proxyNodes.namespace, input.namespace), eq(proxyNodes.shape, input.shape), eq(proxyNodes.parentId, parentId), eq(proxyNodes.levelHash, hash));
          parentId = (await tx.select({ id: proxyNodes.id }).from(proxyNodes).where(place))[0]!.id;
        }
        await tx.update(proxyNodes).set({ reply: input.reply }).where(eq(proxyNodes.id, parentId));
        return parentId;
      }),
    );
  }

  noteHit(nodeId: string, tokens: number, at: number): Promise<void> {
    return this.guard('count a hit', async () => {
      await this.db
        .update(proxyNodes)
        .set({ hits: sql`${proxyNodes.hits} + 1`, tokensSaved: sql`${proxyNodes.tokensSaved} + ${tokens}`, lastHitAt: at })
        .where(eq(proxyNodes.id, nodeId));
    });
  }

  clear(namespace?: string): Promise<number> {
    return this.guard('clear conversations', async () => (await this.db.delete(proxyNodes).where(namespace === undefined ? undefined : eq(proxyNodes.namespace, namespace))).rowCount ?? 0);
  }

  totals(): Promise<{ nodes: number; replies: number; hits: number; tokensSaved: number }> {
    return this.guard('count conversations', async () => {
      const [row] = await this.db.select({ nodes: count(), hits: sum(proxyNodes.hits), tokensSaved: sum(proxyNodes.tokensSaved) }).from(proxyNodes);
      const [replies] = await this.db.select({ replies: count() }).from(proxyNodes).where(isNotNull(proxyNodes.reply));
      return { nodes: Number(row?.nodes ?? 0), replies: Number(replies?.replies ?? 0), hits: Number(row?.hits ?? 0), tokensSaved: Number(row?.tokensSaved ?? 0) };
    });
  }

  private guard<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return guardStoreAsync(this.location, operation, fn);
  }
}
