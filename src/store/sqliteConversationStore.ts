import { and, count, desc, eq, inArray, isNotNull, max, sql, sum } from 'drizzle-orm';
import { CONVERSATION_ROOT, namespaceRows, type ConversationStore, type ProxyNamespaceTotals, type ProxyNodeLink, type ProxyNodeStep, type ProxyTemplateRow } from './conversationStore.js';
import { guardStore } from './guard.js';
import type { RoteDatabase } from './open.js';
import { proxyNodes, proxyTemplates } from './schema.js';

/** Templates not refuted; a refuted one's past hits still count as served. */
const LIVE_TEMPLATES = sql<number>`sum(case when ${proxyTemplates.refuted} = 0 then 1 else 0 end)`;

const LINK = { id: proxyNodes.id, namespace: proxyNodes.namespace, shape: proxyNodes.shape, parentId: proxyNodes.parentId, level: proxyNodes.level, reply: proxyNodes.reply, hits: proxyNodes.hits, tokensSaved: proxyNodes.tokensSaved };

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
        for (const [index, { hash, level }] of input.levels.entries()) {
          const node = { id: input.newId(), namespace: input.namespace, shape: input.shape, parentId, levelHash: hash, level, createdAt: input.at, depth: index + 1 };
          this.db.insert(proxyNodes).values(node).onConflictDoNothing().run();
          const place = and(eq(proxyNodes.namespace, input.namespace), eq(proxyNodes.shape, input.shape), eq(proxyNodes.parentId, parentId), eq(proxyNodes.levelHash, hash));
          parentId = this.db.select({ id: proxyNodes.id }).from(proxyNodes).where(place).get()!.id;
        }
        this.db.update(proxyNodes).set({ reply: input.reply, depth: input.levels.length }).where(eq(proxyNodes.id, parentId)).run();
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

  async repliesAt(namespace: string, shape: string, depth: number, limit: number): Promise<{ id: string }[]> {
    return this.guard('read conversations', () =>
      this.db
        .select({ id: proxyNodes.id })
        .from(proxyNodes)
        .where(and(eq(proxyNodes.namespace, namespace), eq(proxyNodes.shape, shape), eq(proxyNodes.depth, depth), isNotNull(proxyNodes.reply)))
        .orderBy(desc(proxyNodes.createdAt))
        .limit(limit)
        .all(),
    );
  }

  async nodes(ids: readonly string[]): Promise<ProxyNodeLink[]> {
    if (ids.length === 0) return [];
    return this.guard('read a conversation', () => this.db.select(LINK).from(proxyNodes).where(inArray(proxyNodes.id, [...new Set(ids)])).all());
  }

  async addTemplate(template: Omit<ProxyTemplateRow, 'refuted' | 'hits' | 'tokensSaved' | 'lastHitAt'>): Promise<boolean> {
    return this.guard('keep a template', () => this.db.insert(proxyTemplates).values(template).onConflictDoNothing().run().changes === 1);
  }

  async noteTemplateHit(id: string, tokens: number, at: number): Promise<void> {
    this.guard('count a hit', () =>
      this.db
        .update(proxyTemplates)
        .set({ hits: sql`${proxyTemplates.hits} + 1`, tokensSaved: sql`${proxyTemplates.tokensSaved} + ${tokens}`, lastHitAt: at })
        .where(eq(proxyTemplates.id, id))
        .run(),
    );
  }

  async templateAt(namespace: string, shape: string, pathHash: string): Promise<ProxyTemplateRow | undefined> {
    return this.guard('read a template', () =>
      this.db
        .select()
        .from(proxyTemplates)
        .where(and(eq(proxyTemplates.namespace, namespace), eq(proxyTemplates.shape, shape), eq(proxyTemplates.pathHash, pathHash)))
        .get(),
    );
  }

  async templatesAt(namespace: string, shape: string, depth: number, limit: number): Promise<ProxyTemplateRow[]> {
    return this.guard('read templates', () =>
      this.db
        .select()
        .from(proxyTemplates)
        .where(and(eq(proxyTemplates.namespace, namespace), eq(proxyTemplates.shape, shape), eq(proxyTemplates.depth, depth), eq(proxyTemplates.refuted, 0)))
        .orderBy(desc(proxyTemplates.createdAt))
        .limit(limit)
        .all(),
    );
  }

  async judgeTemplate(id: string, agreed: boolean): Promise<void> {
    this.guard('judge a template', () =>
      this.db
        .update(proxyTemplates)
        .set(agreed ? { confirmations: sql`${proxyTemplates.confirmations} + 1` } : { refuted: 1 })
        .where(eq(proxyTemplates.id, id))
        .run(),
    );
  }

  async everything(namespace?: string): Promise<{ nodes: ProxyNodeLink[]; templates: ProxyTemplateRow[] }> {
    return this.guard('read conversations', () => ({
      nodes: this.db.select(LINK).from(proxyNodes).where(namespace === undefined ? undefined : eq(proxyNodes.namespace, namespace)).orderBy(proxyNodes.createdAt).all(),
      templates: this.db.select().from(proxyTemplates).where(namespace === undefined ? undefined : eq(proxyTemplates.namespace, namespace)).orderBy(proxyTemplates.createdAt).all(),
    }));
  }

  async clearBranch(id: string): Promise<{ nodes: number; templates: number }> {
    return this.guard('clear a branch', () =>
      this.db.$client.transaction(() => ({
        nodes: this.db.run(sql`WITH RECURSIVE branch(id) AS (SELECT id FROM proxy_nodes WHERE id = ${id} UNION ALL SELECT child.id FROM proxy_nodes child JOIN branch ON child.parent_id = branch.id) DELETE FROM proxy_nodes WHERE id IN (SELECT id FROM branch)`).changes,
        templates: this.db.update(proxyTemplates).set({ refuted: 1 }).where(eq(proxyTemplates.id, id)).run().changes,
      }))(),
    );
  }

  async clear(namespace?: string): Promise<number> {
    return this.guard('clear conversations', () =>
      this.db.$client.transaction(() => {
        this.db.delete(proxyTemplates).where(namespace === undefined ? undefined : eq(proxyTemplates.namespace, namespace)).run();
        return this.db.delete(proxyNodes).where(namespace === undefined ? undefined : eq(proxyNodes.namespace, namespace)).run().changes;
      })(),
    );
  }

  async totals(): Promise<{ nodes: number; replies: number; hits: number; tokensSaved: number; templates: number }> {
    const rows = await this.namespaceTotals();
    const add = (field: 'nodes' | 'replies' | 'hits' | 'tokensSaved' | 'templates') => rows.reduce((total, row) => total + row[field], 0);
    return { nodes: add('nodes'), replies: add('replies'), hits: add('hits'), tokensSaved: add('tokensSaved'), templates: add('templates') };
  }

  async namespaceTotals(): Promise<ProxyNamespaceTotals[]> {
    return this.guard('count conversations', () => {
      const rows = this.db
        .select({ namespace: proxyNodes.namespace, nodes: count(), replies: count(proxyNodes.reply), hits: sum(proxyNodes.hits), tokensSaved: sum(proxyNodes.tokensSaved), lastHitAt: max(proxyNodes.lastHitAt) })
        .from(proxyNodes)
        .groupBy(proxyNodes.namespace)
        .all();
      const templates = this.db
        .select({ namespace: proxyTemplates.namespace, templates: LIVE_TEMPLATES, hits: sum(proxyTemplates.hits), tokensSaved: sum(proxyTemplates.tokensSaved), lastHitAt: max(proxyTemplates.lastHitAt) })
        .from(proxyTemplates)
        .groupBy(proxyTemplates.namespace)
        .all();
      return namespaceRows(rows, templates);
    });
  }

  private guard<T>(operation: string, fn: () => T): T {
    return guardStore(this.path, operation, fn);
  }
}
