import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { RoteError } from '../../errors/roteError.js';
import { messageOf } from '../../errors/messageOf.js';
import { migrationsFolder, newestMigration } from '../open.js';
import { refuseNewerSchema } from '../storeRules.js';
import { serverError } from '../guard.js';
import * as schema from './schema.js';

export type PostgresDatabase = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** Held while migrating, so workers starting together do not create the same tables twice. */
const MIGRATION_LOCK = 0x726f7465; // "rote"
/** Where drizzle keeps the record of applied migrations: beside the tables, so no second schema is needed. */
const MIGRATIONS_TABLE = '__drizzle_migrations';

/**
 * One short connection for a few statements outside a store (the job queue's version check), so
 * node-postgres stays imported here alone. `run` gets a query function; the connection is closed after.
 */
export async function withConnection<T>(url: string, run: (query: <Row extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<Row[]>) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 'rote' });
  try {
    await client.connect();
    return await run(async (text, values) => (await client.query(text, values)).rows);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The URL as messages show it: no password, ever. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    // The query may carry a password too (?password=, ?sslpassword=): messages show none of it.
    parsed.search = '';
    return parsed.toString();
  } catch {
    return 'postgres://(a URL that does not parse)';
  }
}

/**
 * Connects to the server at `url`, checks it answers, and brings the schema up to date. Every
 * failure is one RoteError that names the server (never the password), what went wrong, and what
 * to do about it; nothing is run before it.
 */
export async function openPostgres(url: string): Promise<{ db: PostgresDatabase; location: string }> {
  const location = redactedUrl(url);
  checkUrl(url, location);
  // Workers run a few runs at once and a report reads alongside: a small pool per process.
  const pool = new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 10_000, application_name: 'rote' });
  // An idle connection the server drops (a restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
    await migrateIfBehind(pool, location);
    return { db: Object.assign(drizzle(pool, { schema }), { $client: pool }), location };
  } catch (error) {
    await pool.end().catch(() => {});
    if (RoteError.isInstance(error)) throw error;
    throw new RoteError('store', `rote: cannot open the store at ${location}: ${explain(error)}`, { cause: error });
  }
}

function checkUrl(url: string, location: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RoteError('invalid-argument', `rote: the store URL ${location} is not a URL; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE`);
  }
  if (!parsed.hostname) throw new RoteError('invalid-argument', `rote: the store URL ${location} names no host; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE`);
  if (parsed.pathname.replace(/^\//, '') === '') throw new RoteError('invalid-argument', `rote: the store URL ${location} names no database; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE`);
}

/**
 * Applies the migrations the database has not seen, under an advisory lock. An up-to-date database
 * is only read: a role that may use the tables but not create them opens a store an owner migrated.
 */
async function migrateIfBehind(pool: pg.Pool, location: string): Promise<void> {
  const folder = postgresMigrationsFolder();
  const latest = newestMigration(folder);
  const applied = await appliedUpTo(pool);
  refuseNewerSchema(location, applied, latest);
  if (applied >= latest) return;
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const { rows } = await client.query<{ schema: string }>('SELECT current_schema() AS schema');
      const current = rows[0]?.schema;
      if (!current) throw new RoteError('store', `rote: the store at ${location} has no schema to create its tables in (search_path is empty); set the role's search_path or create the schema`);
      await migrate(drizzle(client), { migrationsFolder: folder, migrationsSchema: current, migrationsTable: MIGRATIONS_TABLE });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    }
  } catch (error) {
    if (RoteError.isInstance(error)) throw error;
    throw new RoteError('store', `rote: cannot create or update the store's tables at ${location}: ${explain(error)}`, { cause: error });
  } finally {
    client.release();
  }
}

/** The `folderMillis` of the newest migration applied, or 0 when none is (or the record is not there). */
async function appliedUpTo(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ table: string | null }>(`SELECT to_regclass(quote_ident(current_schema()) || '.' || quote_ident($1)) AS table`, [MIGRATIONS_TABLE]);
  if (!rows[0]?.table) return 0;
  const applied = await pool.query<{ at: string | null }>(`SELECT max(created_at) AS at FROM ${rows[0].table}`);
  return Number(applied.rows[0]?.at ?? 0);
}

/** Server errors in words a person can act on: which class of problem, and what to change. */
function explain(thrown: unknown): string {
  const error = serverError(thrown);
  const code = (error as { code?: unknown }).code;
  const message = messageOf(error);
  switch (code) {
    case 'ECONNREFUSED':
      return `nothing answers there (${message}); is the server running, and are the host and port right?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name does not resolve (${message})`;
    case 'ETIMEDOUT':
      return `the server did not answer in time (${message})`;
    case '28P01':
    case '28000':
      return `the server refused the login (${message}); check the user and password in the URL`;
    case '3D000':
      return `${message}; create it (createdb) or name an existing database in the URL`;
    case '42501':
      return `the role may not create the store's tables (${message}); grant it CREATE on the schema (GRANT CREATE ON SCHEMA public TO ...), or have an owner open the store once so the tables exist`;
    default:
      return message;
  }
}

/** The committed drizzle/postgres/ folder, beside the SQLite migrations. */
function postgresMigrationsFolder(): string {
  const folder = join(migrationsFolder(), 'postgres');
  if (!existsSync(join(folder, 'meta', '_journal.json'))) throw new RoteError('store', `rote: cannot find the PostgreSQL store migrations (${folder}/meta/_journal.json)`);
  return folder;
}
