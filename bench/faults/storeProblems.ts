import { isProcessAlive } from '../../src/store/processAlive.js';
import { SqliteStore } from '../../src/store/sqliteStore.js';

/**
 * What a store must be after any crash, as the next process finds it: it opens (migrations and
 * all), SQLite's own integrity check passes, no run or slot is left "running" by a dead process,
 * and nothing points at what is not there (every node's parent and re-join target, every crop,
 * picture and step's run). Empty: consistent.
 */
export async function storeProblems(path: string): Promise<string[]> {
  let store: SqliteStore;
  try {
    store = await SqliteStore.open(path);
  } catch (error) {
    return [`the store does not open: ${error instanceof Error ? error.message : String(error)}`];
  }
  try {
    const db = store.db.$client;
    const problems: string[] = [];
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') problems.push(`integrity_check: ${String(integrity)}`);
    const count = (label: string, sql: string) => {
      const n = (db.prepare(sql).get() as { n: number }).n;
      if (n > 0) problems.push(`${n} ${label}`);
    };
    // Open marked the runs and slots of dead processes interrupted; the crashed one is dead. Runs of
    // live processes (the load phase's, beside the crashes) may well be running.
    const deadRunning = (table: string) => (db.prepare(`SELECT pid FROM ${table} WHERE status = 'running'`).all() as { pid: number | null }[]).filter((row) => row.pid === null || !isProcessAlive(row.pid)).length;
    const runsLeft = deadRunning('runs');
    if (runsLeft > 0) problems.push(`${runsLeft} runs of dead processes left running`);
    const slotsLeft = deadRunning('schedule_slots');
    if (slotsLeft > 0) problems.push(`${slotsLeft} slots of dead processes left running`);
    count('nodes whose parent is missing', `SELECT COUNT(*) AS n FROM nodes c WHERE c.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM nodes p WHERE p.id = c.parent_id)`);
    // 'root' re-joins at the task's first steps (cursor.ts ROOT_ID), not a node.
    count('nodes whose re-join target is missing', `SELECT COUNT(*) AS n FROM nodes c WHERE c.resume_at_id IS NOT NULL AND c.resume_at_id != 'root' AND NOT EXISTS (SELECT 1 FROM nodes p WHERE p.id = c.resume_at_id)`);
    count('nodes of a missing task', `SELECT COUNT(*) AS n FROM nodes c WHERE NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = c.task_id)`);
    count('crops missing', `SELECT COUNT(*) AS n FROM nodes c WHERE c.crop_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = c.crop_hash)`);
    for (const column of ['thumb_hash', 'page_hash', 'expected_hash', 'actual_hash', 'diff_hash']) {
      count(`run pictures (${column}) missing`, `SELECT COUNT(*) AS n FROM run_steps s WHERE s.${column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = s.${column})`);
    }
    count('last screens missing', `SELECT COUNT(*) AS n FROM runs r WHERE r.screenshot_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = r.screenshot_hash)`);
    count('steps of a missing run', `SELECT COUNT(*) AS n FROM run_steps s WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = s.run_id)`);
    count('steps of a run still running', `SELECT COUNT(*) AS n FROM run_steps s JOIN runs r ON r.id = s.run_id WHERE r.status IN ('running')`);
    count('blobs whose bytes do not match their hash size', `SELECT COUNT(*) AS n FROM blobs WHERE size != length(bytes)`);
    return problems;
  } finally {
    await store.close();
  }
}
