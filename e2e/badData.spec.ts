import { submissionProblems } from '../src/demo/patients.js';
import { DEMO_PATIENTS, expect, test } from './fixtures.js';

const [first, second, third] = DEMO_PATIENTS as [(typeof DEMO_PATIENTS)[0], (typeof DEMO_PATIENTS)[1], (typeof DEMO_PATIENTS)[2]];

test('a damaged evidence crop is a refusal that names the blob, never a replay from it; the agent takes over', async ({ app, rote, recordIntake, runIntake }) => {
  const recorded = await recordIntake(first);
  const firstNode = rote.store.children(recorded.taskKey, null)[0]!;
  expect(firstNode.cropHash).toBeTruthy();
  rote.store.db.$client.prepare('UPDATE blobs SET bytes = ? WHERE hash = ?').run(Buffer.from('not a picture'), firstNode.cropHash);

  const refused = await runIntake(second, { mode: 'replay-only' });
  expect(refused.result.status).toBe('diverged');
  expect(refused.result.error).toContain(`the recorded crop of this step (blob ${firstNode.cropHash!.slice(0, 12)}) cannot be read: the stored evidence is damaged`);
  expect(app.submissions).toHaveLength(0);

  const takeover = await runIntake(third);
  expect(['mixed', 'agent']).toContain(takeover.result.status);
  expect(submissionProblems(third, app.submissions[0])).toEqual([]);
});
