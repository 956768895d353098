import { RoteError } from '../errors/roteError.js';
import type { Store } from '../store/store.js';

/** The store argument: a Store (`rote.store`), not the Rote that holds it. */
export function checkStore(store: unknown, where: string): asserts store is Store {
  const candidate = store as Partial<Store> | null | undefined;
  if (typeof candidate?.getTask === 'function' && typeof candidate.importTrajectories === 'function') return;
  const isRote = typeof store === 'object' && store !== null && 'store' in store && typeof (store as { run?: unknown }).run === 'function';
  throw new RoteError('invalid-argument', `${where}: expected a Store as the first argument${isRote ? ' (pass rote.store, not the Rote)' : ''}, got ${describe(store)}`);
}

export function checkFolder(folder: unknown, where: string, what = 'the path of a recording folder'): asserts folder is string {
  if (typeof folder !== 'string' || folder.trim() === '') throw new RoteError('invalid-argument', `${where}: expected ${what}, got ${describe(folder)}`);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}
