/** The proxy's tables in the SQLite store (schema.ts exports them with the rest; migrations come from both). */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json } from './jsonColumn.js';

/**
 * The proxy's conversation trees (`rote proxy`): one node per message, under the node of the
 * message before it ('' for a conversation's first), in a namespace (a hash of the client's API
 * key, never the key) and a request shape (a hash of the model, the tools and the sampling
 * settings). `level` is the message as the proxy keys it, canonical and with the declared values
 * templated out; `reply` the stored reply that a request ending at this node is served.
 */
export const proxyNodes = sqliteTable(
  'proxy_nodes',
  {
    id: text('id').primaryKey(),
    namespace: text('namespace').notNull(),
    shape: text('shape').notNull(),
    parentId: text('parent_id').notNull(),
    /** sha256 of `level`: what a lookup matches on. */
    levelHash: text('level_hash').notNull(),
    level: text('level').notNull(),
    reply: json<unknown>('reply'),
    /** Requests served from `reply`, and the tokens they did not cost. */
    hits: integer('hits').notNull().default(0),
    tokensSaved: integer('tokens_saved').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    lastHitAt: integer('last_hit_at'),
    /** How many messages lead to this node (1 for a first message); null on nodes stored before it was kept. */
    depth: integer('depth'),
  },
  (table) => [
    uniqueIndex('proxy_nodes_place').on(table.namespace, table.shape, table.parentId, table.levelHash),
    index('proxy_nodes_lookup').on(table.namespace, table.shape, table.levelHash),
    index('proxy_nodes_depth').on(table.namespace, table.shape, table.depth),
  ],
);

/**
 * Templates the proxy learned from two stored conversations that differ only in values (see
 * src/proxy/templateInduction.ts): `exemplar` is one of the two as it was stored (its levels) with
 * the value of each variable in it, which a new request is compared with to read its own values.
 * Apart from the tree: a client that declares values never reaches one.
 */
export const proxyTemplates = sqliteTable(
  'proxy_templates',
  {
    id: text('id').primaryKey(),
    namespace: text('namespace').notNull(),
    shape: text('shape').notNull(),
    /** How many messages a request it reads has. */
    depth: integer('depth').notNull(),
    /** sha256 of the templated messages: a request read with its values must template to exactly these. */
    pathHash: text('path_hash').notNull(),
    exemplar: json<unknown>('exemplar').notNull(),
    /** The reply it serves, templated; its own, never the tree's (a tree node can be stored again). */
    reply: json<unknown>('reply').notNull(),
    /** Requests its reading was checked on against the upstream's own answer (forwarded while it was not yet trusted). */
    confirmations: integer('confirmations').notNull().default(0),
    /** An upstream answer, or another pair of conversations, that differed from its reply: never used again. */
    refuted: integer('refuted').notNull().default(0),
    /** Requests served from it, and the tokens they did not cost. */
    hits: integer('hits').notNull().default(0),
    tokensSaved: integer('tokens_saved').notNull().default(0),
    lastHitAt: integer('last_hit_at'),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [uniqueIndex('proxy_templates_path').on(table.namespace, table.shape, table.pathHash), index('proxy_templates_lookup').on(table.namespace, table.shape, table.depth)],
);
