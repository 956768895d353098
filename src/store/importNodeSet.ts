import { sql, type SQL } from 'drizzle-orm';

/** The node columns an import overwrites with the file's: the recording's own fields, which a reviewed edit may have changed. */
const FROM_FILE = ['parentId', 'action', 'intent', 'url', 'fingerprint', 'box', 'cropHash', 'cropRect', 'masks', 'state'] as const;

type NodeTable = Record<(typeof FROM_FILE)[number] | 'resumeAtId' | 'endsRun' | 'endUrl', { name: string }>;

/**
 * The SET of an import's upsert of a node already stored, for either dialect: the file's fields
 * apply, and what runs learned stays (use counters are not touched). Links a run learned (a detour
 * re-joining, the run ending here and where) stay unless the file has them too; `endsRunEither` is the
 * dialect's "true if either is" (SQLite max(), PostgreSQL OR).
 */
export function importNodeSet(nodes: NodeTable, endsRunEither: (excluded: SQL, stored: SQL) => SQL): Record<string, SQL> {
  const excluded = (column: { name: string }) => sql`excluded.${sql.identifier(column.name)}`;
  return {
    ...Object.fromEntries(FROM_FILE.map((key) => [key, excluded(nodes[key])])),
    resumeAtId: sql`coalesce(${excluded(nodes.resumeAtId)}, ${nodes.resumeAtId})`,
    endUrl: sql`coalesce(${excluded(nodes.endUrl)}, ${nodes.endUrl})`,
    endsRun: endsRunEither(excluded(nodes.endsRun), sql`${nodes.endsRun}`),
  };
}
