/** The migrations a store had before a change, for tests that build a store from before it and open it with today's code. */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { migrate as sqliteMigrate } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { migrate as pgMigrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder } from '../../src/store/open.js';

type Journal = { entries: { tag: string }[] } & Record<string, unknown>;

/** A folder (`into`) of the journal's migrations in `folder` that came before the one tagged `tag`. */
export function migrationsBefore(folder: string, tag: string, into: string): string {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag} in ${folder}`);
  const shipped = journal.entries.slice(0, at);
  mkdirSync(join(into, 'meta'), { recursive: true });
  for (const entry of shipped) copyFileSync(join(folder, `${entry.tag}.sql`), join(into, `${entry.tag}.sql`));
  writeFileSync(join(into, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: shipped }));
  return into;
}

/**
 * A SQLite store file at `path` with the migrations before `tag` applied, then `seed` run on it:
 * a store from before the change, to be opened with today's code.
 */
export async function sqliteStoreBefore(path: string, tag: string, work: string, seed: (db: Database.Database) => void): Promise<string> {
  const db = new Database(path);
  try {
    sqliteMigrate(sqliteDrizzle(db), { migrationsFolder: migrationsBefore(migrationsFolder(), tag, join(work, `sqlite-before-${tag}`)) });
    seed(db);
  } finally {
    db.close();
  }
  return path;
}

/** The same on a PostgreSQL database (`url`), migrated in the schema its connection uses. */
export async function postgresStoreBefore(url: string, tag: string, work: string, seed: (client: pg.Client) => Promise<void>): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const folder = migrationsBefore(join(migrationsFolder(), 'postgres'), tag, join(work, `pg-before-${tag}`));
    const { rows } = await client.query<{ schema: string }>('SELECT current_schema() AS schema');
    await pgMigrate(pgDrizzle(client), { migrationsFolder: folder, migrationsSchema: rows[0]!.schema, migrationsTable: '__drizzle_migrations' });
    await seed(client);
  } finally {
    await client.end();
  }
  return url;
}
