import { and, count, desc, eq, inArray, max, sql, sum, isNotNull } from 'drizzle-orm';
import { CONVERSATION_ROOT, namespaceRows, type ConversationStore, type ProxyNamespaceTotals, type ProxyNodeLink, type ProxyNodeStep, type ProxyTemplateRow } from '../conversationStore.js';
import { guardStoreAsync } from '../guard.js';
import type { PostgresDatabase } from './openPostgres.js';
import { proxyNodes, proxyTemplates } from './schema.js';

/** Templates not refuted; a refuted one's past hits still count as served. */
const LIVE_TEMPLATES = sql<number>`sum(case when ${proxyTemplates.refuted} = 0 then 1 else 0 end)`;

const LINK = { id: proxyNodes.id, namespace: proxyNodes.namespace, shape: proxyNodes.shape, parentId: proxyNodes.parentId, level: proxyNodes.level, reply: proxyNodes.reply, hits: proxyNodes.hits, tokensSaved: proxyNodes.tokensSaved };

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
        for (const [index, { hash, level }] of input.levels.entries()) {
          await tx.insert(proxyNodes).values({ id: input.newId(), namespace: input.namespace, shape: input.shape, parentId, levelHash: hash, level, createdAt: input.at, depth: index + 1 }).onConflictDoNothing();
          const place = and(eq(proxyNodes.namespace, input.namespace), eq(proxyNodes.shape, input.shape), eq(proxyNodes.parentId, parentId), eq(proxyNodes.levelHash, hash));
          parentId = (await tx.select({ id: proxyNodes.id }).from(proxyNodes).where(place))[0]!.id;
        }
        await tx.update(proxyNodes).set({ reply: input.reply, depth: input.levels.length }).where(eq(proxyNodes.id, parentId));
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

  repliesAt(namespace: string, shape: string, depth: number, limit: number): Promise<{ id: string }[]> {
    return this.guard('read conversations', () =>
      this.db
        .select({ id: proxyNodes.id })
        .from(proxyNodes)
        .where(and(eq(proxyNodes.namespace, namespace), eq(proxyNodes.shape, shape), eq(proxyNodes.depth, depth), isNotNull(proxyNodes.reply)))
        .orderBy(desc(proxyNodes.createdAt))
        .limit(limit),
    );
  }

  nodes(ids: readonly string[]): Promise<ProxyNodeLink[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.guard('read a conversation', () => this.db.select(LINK).from(proxyNodes).where(inArray(proxyNodes.id, [...new Set(ids)])));
  }

  addTemplate(template: Omit<ProxyTemplateRow, 'refuted' | 'hits' | 'tokensSaved' | 'lastHitAt'>): Promise<boolean> {
    return this.guard('keep a template', async () => ((await this.db.insert(proxyTemplates).values(template).onConflictDoNothing()).rowCount ?? 0) === 1);
  }

  noteTemplateHit(id: string, tokens: number, at: number): Promise<void> {
    return this.guard('count a hit', async () => {
      await this.db
        .update(proxyTemplates)
        .set({ hits: sql`${proxyTemplates.hits} + 1`, tokensSaved: sql`${proxyTemplates.tokensSaved} + ${tokens}`, lastHitAt: at })
        .where(eq(proxyTemplates.id, id));
    });
  }

  templateAt(namespace: string, shape: string, pathHash: string): Promise<ProxyTemplateRow | undefined> {
    return this.guard('read a template', async () => (await this.db.select().from(proxyTemplates).where(and(eq(proxyTemplates.namespace, namespace), eq(proxyTemplates.shape, shape), eq(proxyTemplates.pathHash, pathHash))))[0]);
  }

  templatesAt(namespace: string, shape: string, depth: number, limit: number): Promise<ProxyTemplateRow[]> {
    return this.guard('read templates', () =>
      this.db
        .select()
        .from(proxyTemplates)
        .where(and(eq(proxyTemplates.namespace, namespace), eq(proxyTemplates.shape, shape), eq(proxyTemplates.depth, depth), eq(proxyTemplates.refuted, 0)))
        .orderBy(desc(proxyTemplates.createdAt))
        .limit(limit),
    );
  }

  judgeTemplate(id: string, agreed: boolean): Promise<void> {
    return this.guard('judge a template', async () => {
      await this.db
        .update(proxyTemplates)
        .set(agreed ? { confirmations: sql`${proxyTemplates.confirmations} + 1` } : { refuted: 1 })
        .where(eq(proxyTemplates.id, id));
    });
  }

  everything(namespace?: string): Promise<{ nodes: ProxyNodeLink[]; templates: ProxyTemplateRow[] }> {
    return this.guard('read conversations', async () => ({
      nodes: await this.db.select(LINK).from(proxyNodes).where(namespace === undefined ? undefined : eq(proxyNodes.namespace, namespace)).orderBy(proxyNodes.createdAt),
      templates: await this.db.select().from(proxyTemplates).where(namespace === undefined ? undefined : eq(proxyTemplates.namespace, namespace)).orderBy(proxyTemplates.createdAt),
    }));
  }

  clearBranch(id: string): Promise<{ nodes: number; templates: number }> {
    return this.guard('clear a branch', () =>
      this.db.transaction(async (tx) => ({
        nodes: (await tx.execute(sql`WITH RECURSIVE branch(id) AS (SELECT id FROM proxy_nodes WHERE id = ${id} UNION ALL SELECT child.id FROM proxy_nodes child JOIN branch ON child.parent_id = branch.id) DELETE FROM proxy_nodes WHERE id IN (SELECT id FROM branch)`)).rowCount ?? 0,
        templates: (await tx.update(proxyTemplates).set({ refuted: 1 }).where(eq(proxyTemplates.id, id))).rowCount ?? 0,
      })),
    );
  }

  clear(namespace?: string): Promise<number> {
    return this.guard('clear conversations', () =>
      this.db.transaction(async (tx) => {
        await tx.delete(proxyTemplates).where(namespace === undefined ? undefined : eq(proxyTemplates.namespace, namespace));
        return (await tx.delete(proxyNodes).where(namespace === undefined ? undefined : eq(proxyNodes.namespace, namespace))).rowCount ?? 0;
      }),
    );
  }

  async totals(): Promise<{ nodes: number; replies: number; hits: number; tokensSaved: number; templates: number }> {
    const rows = await this.namespaceTotals();
    const add = (field: 'nodes' | 'replies' | 'hits' | 'tokensSaved' | 'templates') => rows.reduce((total, row) => total + row[field], 0);
    return { nodes: add('nodes'), replies: add('replies'), hits: add('hits'), tokensSaved: add('tokensSaved'), templates: add('templates') };
  }

  namespaceTotals(): Promise<ProxyNamespaceTotals[]> {
    return this.guard('count conversations', async () => {
      const rows = await this.db
        .select({ namespace: proxyNodes.namespace, nodes: count(), replies: count(proxyNodes.reply), hits: sum(proxyNodes.hits), tokensSaved: sum(proxyNodes.tokensSaved), lastHitAt: max(proxyNodes.lastHitAt) })
        .from(proxyNodes)
        .groupBy(proxyNodes.namespace);
      const templates = await this.db
        .select({ namespace: proxyTemplates.namespace, templates: LIVE_TEMPLATES, hits: sum(proxyTemplates.hits), tokensSaved: sum(proxyTemplates.tokensSaved), lastHitAt: max(proxyTemplates.lastHitAt) })
        .from(proxyTemplates)
        .groupBy(proxyTemplates.namespace);
      return namespaceRows(rows, templates);
    });
  }

  private guard<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return guardStoreAsync(this.location, operation, fn);
  }
}
