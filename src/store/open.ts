import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { RoteError } from '../errors/roteError.js';
import * as schema from './schema.js';
import { refuseNewerSchema } from './storeRules.js';
import { messageOf } from '../errors/messageOf.js';

export type RoteDatabase = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const MEMORY = ':memory:';
const EXPECTED = `expected a writable file path or "${MEMORY}"`;

/**
 * Opens (creating if needed) the store at `path` and brings its schema up to date.
 * File databases use WAL so readers (e.g. `rote runs`) never block a running replay.
 */
export function openDatabase(path: string): RoteDatabase {
  const isMemory = path === MEMORY;
  if (!isMemory) checkWritableFilePath(path);

  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(path);
    // busy_timeout first, so switching to WAL and migrating wait for a concurrent opener.
    sqlite.pragma('busy_timeout = 5000');
    if (!isMemory) sqlite.pragma('journal_mode = WAL');
    // In WAL mode NORMAL never corrupts and survives a killed process; it skips an fsync per commit.
    if (!isMemory) sqlite.pragma('synchronous = NORMAL');
    // Must be set outside a transaction, i.e. before migrate() opens one.
    sqlite.pragma('foreign_keys = ON');
    const db = drizzle(sqlite, { schema });
    const folder = migrationsFolder();
    migrate(db, { migrationsFolder: folder });
    const applied = sqlite.prepare('SELECT max(created_at) AS at FROM __drizzle_migrations').get() as { at: number | null } | undefined;
    refuseNewerSchema(path, Number(applied?.at ?? 0), newestMigration(folder));
    return db;
  } catch (error) {
    sqlite?.close();
    if (RoteError.isInstance(error)) throw error;
    throw cannotOpen(path, describe(error), error);
  }
}

/** Fails early with a message naming the path, instead of SQLite's bare "unable to open". */
function checkWritableFilePath(path: string): void {
  const absolute = resolve(path);
  const existing = statIfExists(absolute, path);
  if (existing?.isDirectory()) throw cannotOpen(path, 'it is a directory');

  const parent = dirname(absolute);
  try {
    makeDirectories(parent);
    accessSync(parent, constants.W_OK);
    if (existing) accessSync(absolute, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw cannotOpen(path, describe(error), error);
  }
}

/**
 * `mkdir -p`, one level at a time. Not `mkdirSync(dir, { recursive: true })`: on Node 20 that
 * loops forever where mkdir keeps failing with ENOENT although the parent exists (e.g. /proc/x).
 */
function makeDirectories(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) makeDirectories(parent);
  mkdirSync(dir);
}

function statIfExists(absolute: string, path: string) {
  try {
    return statSync(absolute, { throwIfNoEntry: false });
  } catch (error) {
    // e.g. ENOTDIR when a parent is a file, or EACCES on a parent.
    throw cannotOpen(path, describe(error), error);
  }
}

function cannotOpen(path: string, reason: string, cause?: unknown): RoteError {
  return new RoteError('store', `rote: cannot open store at "${path}": ${reason} (${EXPECTED})`, { cause });
}

function describe(error: unknown): string {
  return messageOf(error);
}

let cachedMigrationsFolder: string | undefined;

/**
 * The committed `drizzle/` folder, found by walking up from this file. The depth differs between
 * src/store/open.ts (tsx, vitest) and dist/src/store/open.js (built), and the folder ships next
 * to dist/ in the published package.
 */
export function migrationsFolder(): string {
  if (cachedMigrationsFolder) return cachedMigrationsFolder;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return (cachedMigrationsFolder = candidate);
    if (dirname(dir) === dir) break;
  }
  throw new RoteError('store', `rote: cannot find the store migrations (drizzle/meta/_journal.json) above "${start}"`);
}

/** The time of the newest migration this rote ships (drizzle's folderMillis, as its migrations table records it). */
export function newestMigration(folder: string): number {
  return Math.max(0, ...readMigrationFiles({ migrationsFolder: folder }).map((migration) => migration.folderMillis));
}
