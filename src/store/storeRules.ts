import { createHash } from 'node:crypto';
import { RoteError } from '../errors/roteError.js';
import { hostname } from 'node:os';
import { isProcessAlive } from './processAlive.js';
import { stepImageKeys, type NewBlob, type StepImageKey, type TaskRow } from './rows.js';

/**
 * The rules both stores keep, written once: SQLite and PostgreSQL only run the operations these
 * decide (sqliteStore.ts, postgres/postgresStore.ts). A rule changed here changes in both.
 */

/**
 * A task as stored after a run or an import learned into it: its first creation time stays, every
 * parameter name ever seen is kept (a task's templates may use different ones), types learned
 * before stay unless this one declares or infers the name anew, and the latest update wins.
 */
export function mergedTask(task: TaskRow, stored: TaskRow | undefined): TaskRow {
  return {
    ...task,
    createdAt: stored?.createdAt ?? task.createdAt,
    paramNames: [...new Set([...(stored?.paramNames ?? []), ...task.paramNames])],
    paramSchema: stored?.paramSchema || task.paramSchema ? { ...(stored?.paramSchema ?? {}), ...(task.paramSchema ?? {}) } : null,
    updatedAt: Math.max(stored?.updatedAt ?? 0, task.updatedAt),
  };
}

/** A blob is stored under the hash of its bytes, or not at all: a mismatch fails the whole write. */
export function checkBlob(blob: NewBlob): void {
  const actual = createHash('sha256').update(blob.bytes).digest('hex');
  if (actual !== blob.hash) throw new Error(`blob hash ${blob.hash} does not match its bytes (sha256 ${actual})`);
}

/** Blobs in hash order: two writers that share crops take their row locks in one order, never crosswise. */
export function inHashOrder(blobs: readonly NewBlob[]): NewBlob[] {
  return [...blobs].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
}

/** An import may update a node it stored before, but never let one task's node id stand for another task's. */
export function checkImportClash(node: { id: string; taskId: string }, stored: { taskId: string } | undefined): void {
  if (stored && stored.taskId !== node.taskId) throw new Error(`node ${node.id} is already stored under task ${stored.taskId}, not ${node.taskId}`);
}

/** A step row's image columns, all empty: what a step that kept no images stores. */
export const NO_IMAGES = Object.fromEntries(stepImageKeys.map((key) => [key, null])) as Record<StepImageKey, null>;

/** The host a run is begun on: only there can its process be asked whether it still lives. */
export const thisHost = (): string => hostname();

/**
 * Who a run or slot with no host belongs to. SQLite: it was begun before hosts were recorded, when
 * a store file was used from one machine, so it is this machine's. PostgreSQL: rote has recorded
 * the host there from the first schema and many machines share it, so whose it is cannot be told,
 * and no machine closes it by asking its own processes.
 */
export type Hostless = 'this-machine' | 'unknown';

/**
 * Which 'running' runs or schedule slots were left by a process that is gone, so are closed as
 * 'interrupted'. Only this machine's processes can be asked; one of another host is that host's
 * to close (or the queue's); one with no host as `hostless` says.
 */
export function leftByDeadProcess<Row extends { host: string | null; pid: number | null }>(
  running: readonly Row[],
  hostless: Hostless,
  host = thisHost(),
  alive: (pid: number) => boolean = isProcessAlive,
): Row[] {
  const mine = (row: Row) => (row.host === null ? hostless === 'this-machine' : row.host === host);
  return running.filter((row) => mine(row) && (row.pid === null || !alive(row.pid)));
}

/** Why a run or slot closed by leftByDeadProcess is 'interrupted'. */
export function deadProcessReason(row: { pid: number | null }, what: 'run' | 'slot', host = thisHost()): string {
  return `process ${row.pid ?? '?'} on ${host} exited before the ${what} finished`;
}

/**
 * A store whose schema a newer rote changed is not opened by an older one: the older code would
 * miss what moved (a node's end URL in its own column, read by no older rote) and could replay
 * without a check the newer one keeps. `appliedUpTo` and `knownUpTo` are migration times (ms).
 */
export function refuseNewerSchema(location: string, appliedUpTo: number, knownUpTo: number): void {
  if (appliedUpTo <= knownUpTo) return;
  throw new RoteError(
    'store',
    `rote: the store at ${location} was upgraded by a newer rote (its schema is of ${new Date(appliedUpTo).toISOString()}, this rote knows up to ${new Date(knownUpTo).toISOString()}); upgrade rote on this machine to the version that upgraded it`,
  );
}
