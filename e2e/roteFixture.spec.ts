/** The rote/test fixture in this suite's own process: recordings, errors and attachments. */
import { DEMO_PATIENTS } from '../src/demo/patients.js';
import { expect, test } from './intakeApp.js';

const patient = DEMO_PATIENTS[1]!;

test('a page that is not on an http(s) origin cannot take a recording, and a missing one names where it was looked for', async ({ rote }) => {
  await expect(rote.run({ recording: 'intake', params: patient })).rejects.toThrow(/rote\.run: to run recording "intake", first open the app's start page \(the page is at about:blank\)/);
  await expect(rote.run({ recording: 'no-such-recording', params: patient })).rejects.toThrow(/recording "no-such-recording" is not a folder: looked for .*recordings\/no-such-recording/);
  await expect(rote.run({ params: patient })).rejects.toThrow('rote.run: options.task is required unless options.recording names a recording to take it from');
});

test('a run that starts elsewhere than the recording says so instead of only "no recorded trajectory"', async ({ intakeApp, page, rote }) => {
  await page.goto(`${intakeApp.origin}/confirmation?id=1`);
  const result = await rote.run({ recording: 'intake', params: patient, mode: 'replay-only' });
  // Judged here, so the fixture does not fail the test for it when it ends.
  expect(result).not.toBeReplayed();
  expect(result.status).toBe('diverged');
  expect(result.divergences[0]!.reason).toBe(
    `no recorded trajectory for this task yet; recording "intake" is the task "Register patient {{firstName}} {{lastName}} in the intake form" from ${intakeApp.origin}/intake, and this run was "Register patient {{firstName}} {{lastName}} in the intake form" from ${intakeApp.origin}/confirmation`,
  );
});

test('a replay-only run that diverges attaches the three images and a summary to the running test', async ({ intakeApp, page, rote }) => {
  intakeApp.setPerturbations({ renamedLabel: true });
  await page.goto(intakeApp.url);
  const result = await rote.run({ recording: 'intake', params: patient, mode: 'replay-only', checkTimeout: 300 });
  expect(result.status).toBe('diverged');
  const names = test.info().attachments.map((attachment) => `${attachment.name} ${attachment.contentType}`);
  expect(names).toEqual(['step-1-expected.png image/png', 'step-1-actual.png image/png', 'step-1-diff.png image/png', 'rote-summary.txt text/plain']);
  expect(() => expect(result).toBeReplayed()).toThrow(/diverged at step 1 \(Fill "First name"\): target is now "Given name" \(textbox, input\[type=text\]\), expected "First name"/);
  expect(intakeApp.submissions).toHaveLength(0);

  // A replayed run attaches nothing.
  intakeApp.setPerturbations({ renamedLabel: false });
  await page.goto(intakeApp.url);
  expect(await rote.run({ recording: 'intake', params: patient })).toBeReplayed();
  expect(test.info().attachments).toHaveLength(4);
});
