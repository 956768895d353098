import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { submissionProblems } from '../src/demo/patients.js';
import { DEMO_PATIENTS, INTAKE_TASK, expect, test } from './fixtures.js';

const [first, second, third] = DEMO_PATIENTS as [typeof DEMO_PATIENTS[0], typeof DEMO_PATIENTS[1], typeof DEMO_PATIENTS[2]];

test('a miss is recorded by the agent and stored as a trajectory', async ({ app, rote, runIntake }) => {
  const { result } = await runIntake(first);
  expect(result.status).toBe('agent');
  expect(result.agentCalls).toBeGreaterThan(1);
  expect(result.steps.every((step) => step.kind === 'agent')).toBe(true);
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  const run = (await rote.store.listRuns(1))[0]!;
  expect(run.status).toBe('agent');
  // Where the run's time went is kept on its record, as the result gave it (the report and rote stats read it).
  expect(run.time).toEqual(result.time);
  expect(await rote.store.children(result.taskKey, null)).toHaveLength(1);
});

test('a hit with new values replays every step from the cache and submits the new values', async ({ app, rote, recordIntake, runIntake }) => {
  const recorded = await recordIntake(first);
  const { result } = await runIntake(second);
  // The run's steps are stored as recorded, with templates: the values stay out of the store.
  const stored = JSON.stringify(await rote.store.runSteps(result.runId));
  expect(stored).toContain('{{lastName}}');
  expect(stored).not.toContain(second.lastName);
  expect(result.status).toBe('replayed');
  expect(result.agentCalls).toBe(0);
  expect(result.steps).toHaveLength(recorded.steps.length);
  expect(result.steps.every((step) => step.kind === 'cached')).toBe(true);
  expect(app.submissions).toHaveLength(1);
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
});

test('two recordings that picked the plan by its value (Standard, then Basic) are one way on: a third value replays with no agent call', async ({ app, runIntake }) => {
  // Recorded twice on purpose (mode record), as processes that record side by side leave a store.
  const recordedBy = [first, third];
  expect(recordedBy.map((patient) => patient.plan)).toEqual(['standard', 'basic']);
  for (const patient of recordedBy) {
    const { page, result } = await runIntake(patient, { mode: 'record' });
    expect(result.status, result.error).toBe('agent');
    await page.close();
  }
  app.reset();
  const premium = { firstName: 'Barbara', lastName: 'Liskov', dob: '11/07/1939', state: 'California', plan: 'premium', reminders: true, notes: 'First visit' };
  const { result } = await runIntake(premium, { mode: 'replay-only' });
  expect(result.status, result.error).toBe('replayed');
  expect(app.submissions).toHaveLength(1);
  expect(submissionProblems(premium, app.submissions[0])).toEqual([]);
});

test('a popup over the target is caught before the click, and the agent detour is re-joined then replayed', async ({ app, recordIntake, runIntake }) => {
  await recordIntake(first);
  app.setPerturbations({ sessionPopup: true });
  const replayOnly = await runIntake(second, { mode: 'replay-only', checkTimeout: 500 });
  expect(replayOnly.result.status).toBe('diverged');
  expect(replayOnly.result.steps).toHaveLength(0);
  expect(replayOnly.result.divergences[0]).toMatchObject({ step: 0, intent: 'Fill "First name"' });
  await expect(replayOnly.page.getByRole('dialog')).toBeVisible();
  expect(await replayOnly.page.locator('input[name=first_name]').inputValue()).toBe('');

  const takeover = await runIntake(second);
  expect(takeover.result.status).toBe('mixed');
  expect(takeover.result.agentCalls).toBe(1);
  expect(takeover.result.steps[0]!.kind).toBe('agent');
  expect(takeover.result.steps.slice(1).every((step) => step.kind === 'cached')).toBe(true);
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);

  app.reset();
  app.setPerturbations({ sessionPopup: true });
  const again = await runIntake(third);
  expect(again.result.status).toBe('replayed');
  expect(again.result.agentCalls).toBe(0);
  expect(submissionProblems(third, app.submissions[0])).toEqual([]);
});

test('swapped Save and Delete buttons never lead to a click on Delete', async ({ app, recordIntake, runIntake }) => {
  await recordIntake(first);
  app.setPerturbations({ swappedButtons: true });
  const { result } = await runIntake(second);
  expect(app.destructiveClicks).toEqual([]);
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
  // The Save click is moved to where Save now is (by its role and name), with no agent call.
  expect(result.status).toBe('replayed');
  expect(result.steps.at(-1)!.kind).toBe('relocated');
});

test('a renamed label diverges: replay-only stops there, auto hands over to the agent', async ({ app, recordIntake, runIntake }) => {
  await recordIntake(first);
  app.setPerturbations({ renamedLabel: true });
  const stopped = await runIntake(second, { mode: 'replay-only', checkTimeout: 300 });
  expect(stopped.result.status).toBe('diverged');
  expect(stopped.result.divergences.at(-1)!.reason).toContain('"First name"');
  expect(app.submissions).toHaveLength(0);

  const handed = await runIntake(second);
  expect(['mixed', 'agent']).toContain(handed.result.status);
  expect(handed.result.divergences[0]!.step).toBe(0);
  // The takeover costs the renamed field: the agent fills it, and the recorded path goes on after it.
  expect(handed.result.agentCalls).toBe(1);
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
});

test('a banner that shifts the layout is handled by relocation with no agent call', async ({ app, recordIntake, runIntake }) => {
  await recordIntake(first);
  app.setPerturbations({ banner: true });
  const { result } = await runIntake(second);
  expect(result.status).toBe('replayed');
  expect(result.agentCalls).toBe(0);
  expect(result.relocatedSteps).toBeGreaterThan(3);
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
});

test('replay-only mode returns diverged with the step, its intent and the reason, and calls no agent', async ({ app, recordIntake, runIntake }) => {
  await recordIntake(first);
  app.setPerturbations({ renamedLabel: true });
  const agent = scriptedAgent([]);
  const { result } = await runIntake(second, { mode: 'replay-only', agent, checkTimeout: 300 });
  expect(agent.calls).toBe(0);
  expect(result.status).toBe('diverged');
  const divergence = result.divergences.at(-1)!;
  expect(divergence.step).toBe(0);
  expect(divergence.intent).toBe('Fill "First name"');
  expect(divergence.reason).toMatch(/target is now .*Given name.*expected "First name"/);
  expect(result.error).toContain(`rote.run("${INTAKE_TASK}"): step 1 (Fill "First name") diverged:`);
  // The call log at its end numbers the step as the headline does.
  expect(result.error).toMatch(/\nSteps that ran:\n(.*\n)*  - step 1 diverged: .*target is now/);
});

test('a failed agent run stores a run record and no trajectory', async ({ app, rote, openForm }) => {
  const page = await openForm();
  const box = (await page.getByLabel('Last name').boundingBox())!;
  const agent = scriptedAgent([
    { actions: [{ type: 'click', x: box.x + 5, y: box.y + 5 }, { type: 'type', text: 'Lovelace' }], intent: 'Fill Last name' },
    { actions: [{ type: 'teleport' } as never] },
  ]);
  const result = await rote.run(page, { task: INTAKE_TASK, params: { firstName: 'Ada', lastName: 'Lovelace' }, agent });
  expect(result.status).toBe('failed');
  expect(result.error).toContain('cannot perform');
  expect(await rote.store.children(result.taskKey, null)).toHaveLength(0);
  expect(await rote.store.getTask(result.taskKey)).toBeUndefined();
  const run = (await rote.store.listRuns(1))[0]!;
  expect(run).toMatchObject({ id: result.runId, status: 'failed', agentSteps: 2 });
  expect(app.submissions).toHaveLength(0);

  const empty = await rote.run(await openForm(), { task: INTAKE_TASK, params: { firstName: 'Ada', lastName: 'Lovelace' }, agent: scriptedAgent([{ done: true }]) });
  expect(empty.status).toBe('agent');
  expect(await rote.store.children(empty.taskKey, null)).toHaveLength(0);
});
