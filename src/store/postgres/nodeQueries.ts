/**
 * Raw SQL where the SQLite store has it too (children, subtree, getNode), mapped by nodeFromDriver
 * so a damaged row is a miss, not a failed run. Named, so each connection prepares them once.
 * A root's children are asked with IS NULL: `IS NOT DISTINCT FROM $2` would not use the index.
 */
import { getTableColumns } from 'drizzle-orm';
import type { NodeRow } from '../rows.js';
import { nodeFromDriver, type NodeColumns } from '../statements.js';
import { nodes } from './schema.js';

const nodeColumns = getTableColumns(nodes) as unknown as NodeColumns;
export const nodeList = (rows: Record<string, unknown>[]) => rows.map((raw) => nodeFromDriver(raw, nodeColumns));

const CHILDREN_ORDER = 'ORDER BY last_success_at DESC NULLS LAST, created_at ASC, id ASC';
const CHILDREN_OF_ROOT = { name: 'rote_children_of_root', text: `SELECT * FROM nodes WHERE task_id = $1 AND parent_id IS NULL ${CHILDREN_ORDER}` };
const CHILDREN_OF_NODE = { name: 'rote_children_of_node', text: `SELECT * FROM nodes WHERE task_id = $1 AND parent_id = $2 ${CHILDREN_ORDER}` };
export const GET_NODE = { name: 'rote_get_node', text: 'SELECT * FROM nodes WHERE id = $1' };
export const GET_BLOB = { name: 'rote_get_blob', text: 'SELECT bytes FROM blobs WHERE hash = $1' };
/** Deeper than any run goes (runs are bounded by maxSteps); stops a damaged parent loop from walking forever. */
const MAX_DEPTH = 10_000;

type Query = { name: string; text: string; values: unknown[] };

/** The children of `parentId` (of the task's root when null), run on the connection `run` queries: the pool's, or a transaction's. */
export async function childrenVia(run: (query: Query) => Promise<{ rows: Record<string, unknown>[] }>, taskId: string, parentId: string | null): Promise<NodeRow[]> {
  const query = parentId === null ? { ...CHILDREN_OF_ROOT, values: [taskId] } : { ...CHILDREN_OF_NODE, values: [taskId, parentId] };
  return nodeList((await run(query)).rows);
}

/** The nodes under `rootParentId` (the whole task when null), breadth first, at most `limit` of them. */
export function subtreeQuery(taskId: string, rootParentId: string | null, limit: number): { text: string; values: unknown[] } {
  return {
    text: `WITH RECURSIVE sub(id, depth) AS (
           SELECT id, 1 FROM nodes WHERE task_id = $1 AND ${rootParentId === null ? 'parent_id IS NULL' : 'parent_id = $2'}
           UNION ALL
           SELECT n.id, sub.depth + 1 FROM nodes n JOIN sub ON n.parent_id = sub.id WHERE n.task_id = $1 AND sub.depth < ${MAX_DEPTH}
         )
         SELECT n.* FROM sub JOIN nodes n ON n.id = sub.id ORDER BY sub.depth, n.created_at, n.id LIMIT ${rootParentId === null ? '$2' : '$3'}`,
    values: rootParentId === null ? [taskId, Math.min(limit, Number.MAX_SAFE_INTEGER)] : [taskId, rootParentId, Math.min(limit, Number.MAX_SAFE_INTEGER)],
  };
}
