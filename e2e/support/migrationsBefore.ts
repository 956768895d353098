/** The migrations a store had before a change, for tests that build a store from before it and open it with today's code. */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
