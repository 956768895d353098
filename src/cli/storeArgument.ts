import { existsSync } from 'node:fs';
import { RoteError } from '../errors/roteError.js';
import { checkStoreScheme, isPostgresUrl, openStore, type Store } from '../store/store.js';

/**
 * Opens a store a command only reads from. Opening creates a missing file, so a mistyped --store
 * would show an empty store; it is refused instead.
 */
export async function openExistingStore(path: string, command: string): Promise<Store> {
  checkStoreScheme(path);
  if (path !== ':memory:' && !isPostgresUrl(path) && !existsSync(path)) {
    throw new RoteError('invalid-argument', `rote ${command}: no store at "${path}"; give --store PATH of a rote store (default .rote/rote.db) or a postgres:// URL`);
  }
  return openStore(path);
}
