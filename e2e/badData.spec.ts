import { submissionProblems } from '../src/demo/patients.js';
import { exportRecording } from '../src/recordings/exportRecording.js';
import type { SqliteStore } from '../src/store/sqliteStore.js';
import { DEMO_PATIENTS, expect, test } from './fixtures.js';

const [first, second, third] = DEMO_PATIENTS as [(typeof DEMO_PATIENTS)[0], (typeof DEMO_PATIENTS)[1], (typeof DEMO_PATIENTS)[2]];

test('a damaged evidence crop is a refusal that names the blob, never a replay from it; the agent takes over', async ({ app, rote, recordIntake, runIntake }) => {
  const recorded = await recordIntake(first);
  const firstNode = (await rote.store.children(recorded.taskKey, null))[0]!;
  expect(firstNode.cropHash).toBeTruthy();
  (rote.store as SqliteStore).db.$client.prepare('UPDATE blobs SET bytes = ? WHERE hash = ?').run(Buffer.from('not a picture'), firstNode.cropHash);

  const refused = await runIntake(second, { mode: 'replay-only' });
  expect(refused.result.status).toBe('diverged');
  expect(refused.result.error).toContain(`the recorded crop of this step (blob ${firstNode.cropHash!.slice(0, 12)}) cannot be read: the stored evidence is damaged`);
  expect(app.submissions).toHaveLength(0);

  const takeover = await runIntake(third);
  expect(['mixed', 'agent']).toContain(takeover.result.status);
  expect(submissionProblems(third, app.submissions[0])).toEqual([]);
});

/** The recorded path from the first step: each node's first child, in order. */
async function recordedPath(rote: { store: { children: (task: string, parent: string | null) => Promise<{ id: string }[]> } }, taskKey: string): Promise<string[]> {
  const ids: string[] = [];
  for (let parent: string | null = null; ; ) {
    const next: { id: string } | undefined = (await rote.store.children(taskKey, parent))[0];
    if (!next) return ids;
    ids.push(next.id);
    parent = next.id;
  }
}

test('a stored step that cannot be read is a miss with a warning naming it, never a crash and never replayed', async ({ app, rote, recordIntake, runIntake }) => {
  const recorded = await recordIntake(first);
  const path = await recordedPath(rote, recorded.taskKey);
  expect(path.length).toBeGreaterThan(4);
  const notJson = path[2]!;
  const wrongShape = path[4]!;
  const db = (rote.store as SqliteStore).db.$client;
  // A hand edit gone wrong: text that is not JSON in one step, a fingerprint of the wrong shape in another.
  db.prepare('UPDATE nodes SET action = ? WHERE id = ?').run('{"type": "click", "target": ', notJson);
  db.prepare('UPDATE nodes SET fingerprint = ? WHERE id = ?').run(JSON.stringify({ role: 7, name: ['x'] }), wrongShape);

  const refused = await runIntake(second, { mode: 'replay-only' });
  expect(refused.result.status).toBe('diverged');
  expect(refused.result.steps).toHaveLength(2);
  expect(refused.result.warnings).toEqual([expect.stringMatching(new RegExp(`^the stored step ${notJson} of task ${recorded.taskKey} cannot be read, so it was not replayed: its action is not JSON`))]);
  expect(app.submissions).toHaveLength(0);

  // With an agent: the agent does what the damaged steps would have, and the run ends well with both named.
  const takeover = await runIntake(third);
  expect(['mixed', 'agent']).toContain(takeover.result.status);
  expect(submissionProblems(third, app.submissions[0])).toEqual([]);
  expect(takeover.result.warnings?.join('\n')).toContain(`the stored step ${notJson} `);
  // The damaged row is still there (nothing rewritten behind the keeper's back), and the export refuses to write it out.
  await expect(rote.store.children(recorded.taskKey, path[1]!)).resolves.not.toThrow();
  await expect(exportRecording(rote.store, recorded.taskKey, test.info().outputPath('export'))).rejects.toThrow(new RegExp(`the stored step (${notJson}|${wrongShape}) cannot be read`));
});
