import type { BrowserContext, Locator, Page } from '@playwright/test';
import type { IntakeApp } from '../src/demo/app/server.js';
import { submissionProblems } from '../src/demo/patients.js';
import { PersonAgent } from '../src/recorder/personAgent.js';
import { Rote } from '../src/rote.js';
import { secret } from '../src/params/secret.js';
import { DEMO_PATIENTS, INTAKE_TASK, expect, test } from './fixtures.js';

const [first, second] = DEMO_PATIENTS as [typeof DEMO_PATIENTS[0], typeof DEMO_PATIENTS[1]];

/**
 * The person at the keyboard, played by Playwright's trusted input on the page the recorder
 * listens to. A click waits until rote asks for the next input (as a person waits for the page to
 * react); typing follows at once, as a person types right after clicking a field.
 */
function person(page: Page, agent: PersonAgent) {
  const click = async (target: Locator) => {
    await agent.listening();
    const box = (await target.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  };
  return {
    click,
    fill: async (target: Locator, text: string) => {
      await click(target);
      await page.keyboard.type(text);
    },
    /** Opens a select's own list with a click, types the option in it and presses Enter, as in a native dropdown. */
    choose: async (target: Locator, label: string) => {
      await click(target);
      await agent.listening();
      await page.keyboard.type(label);
      await page.keyboard.press('Enter');
    },
    finishWithControl: async () => click(page.getByRole('button', { name: 'Finish recording' })),
  };
}

/** The recording replays on a fresh page with the second patient: from the cache, no agent, right values. */
async function expectReplayWithNewValues(app: IntakeApp, rote: Rote, context: BrowserContext): Promise<void> {
  app.reset();
  const replayPage = await context.newPage();
  await replayPage.goto(app.url);
  const replay = await rote.run(replayPage, { task: INTAKE_TASK, params: second });
  expect(replay.status, replay.error).toBe('replayed');
  expect(replay.agentCalls).toBe(0);
  expect(app.submissions).toHaveLength(1);
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
}

test('a person fills the intake form: each input is performed once, and the recording replays with new values and no agent', async ({ app, rote, page, context }) => {
  const agent = await PersonAgent.attach(page);
  await page.goto(app.url);
  const recording = rote.run(page, { task: INTAKE_TASK, params: first, agent, mode: 'record' });
  const you = person(page, agent);
  await you.fill(page.getByLabel('First name'), first.firstName);
  await you.fill(page.getByLabel('Last name'), first.lastName);
  await you.fill(page.getByLabel('Date of birth'), first.dob);
  await you.choose(page.getByLabel('State'), first.state);
  await you.click(page.getByLabel('Standard'));
  await you.click(page.getByLabel('Send appointment reminders'));
  await you.fill(page.getByLabel('Notes'), first.notes);
  await you.click(page.getByRole('button', { name: 'Save' }));
  await expect(page.locator('#confirmation')).toHaveText('Thank you. Record #1 was saved.');
  await you.finishWithControl();
  const result = await recording;

  expect(result.status, result.error).toBe('agent');
  expect(app.submissions).toHaveLength(1);
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  expect(app.destructiveClicks).toEqual([]);
  expect(result.steps.map((step) => step.intent)).toEqual([
    'Click "First name"',
    'Type into "First name"',
    'Click "Last name"',
    'Type into "Last name"',
    'Click "Date of birth"',
    'Type into "Date of birth"',
    'Click "State"',
    `Choose "${first.state}" in "State"`,
    'Choose "Standard"',
    'Check "Send appointment reminders"',
    'Click "Notes"',
    'Type into "Notes"',
    'Click "Save"',
  ]);
  // Typed values are stored as parameters, so a replay types the new ones.
  const stored = JSON.stringify(await rote.store.runSteps(result.runId));
  for (const name of ['firstName', 'lastName', 'dob', 'state', 'notes']) expect(stored).toContain(`{{${name}}}`);
  expect(stored).not.toContain(first.lastName);
  // The overlay is gone once the recording ended.
  await expect(page.locator('rote-recorder')).toBeHidden();

  await expectReplayWithNewValues(app, rote, context);
});

test('keys, a select chosen by its own keys, a checkbox and Enter to submit are recorded; closing the page finishes', async ({ app, rote, page, context }) => {
  // Long pauses: the keys a busy machine sends slowly (Backspace after "Lovelacx") are still one
  // typing; each typing here ends by the next action anyway, so nothing waits them out.
  const agent = await PersonAgent.attach(page, { typingPauseMs: 5_000, midValuePauseMs: 8_000 });
  await page.goto(app.url);
  const recording = rote.run(page, { task: INTAKE_TASK, params: first, agent, mode: 'record' });
  const you = person(page, agent);
  // Backspace edits what is typed before it reaches the page: one step, the whole value.
  await you.fill(page.getByLabel('Last name'), 'Lovelacx');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('e');
  await you.fill(page.getByLabel('Date of birth'), first.dob);
  await page.keyboard.press('Tab');
  // The select has the focus now; its arrow keys are its own, and the option it ends on is recorded.
  await agent.listening();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('State')).toHaveValue('CA');
  await you.click(page.getByLabel('Standard'));
  await you.click(page.getByLabel('Send appointment reminders'));
  await you.fill(page.getByLabel('Notes'), first.notes);
  await you.fill(page.getByLabel('First name'), first.firstName);
  await page.keyboard.press('Enter');
  await expect(page.locator('#confirmation')).toHaveText('Thank you. Record #1 was saved.');
  await agent.listening();
  await page.close();
  const result = await recording;

  expect(result.status, result.error).toBe('agent');
  expect(app.submissions).toHaveLength(1);
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  const steps = result.steps.map((step) => ({ action: step.action, intent: step.intent }));
  expect(steps).toContainEqual({ action: { type: 'type', text: 'Lovelace' }, intent: 'Type into "Last name"' });
  expect(steps).toContainEqual({ action: { type: 'keypress', keys: ['TAB'] }, intent: 'Press Tab in "Date of birth"' });
  expect(steps).toContainEqual({ action: { type: 'type', text: 'California' }, intent: 'Choose "California" in "State"' });
  expect(steps.filter((step) => step.intent?.startsWith('Choose "California"'))).toHaveLength(1);
  expect(steps).toContainEqual(expect.objectContaining({ intent: 'Check "Send appointment reminders"' }));
  expect(steps.at(-1)).toEqual({ action: { type: 'keypress', keys: ['ENTER'] }, intent: 'Press Enter in "First name"' });
  expect(JSON.stringify(await rote.store.runSteps(result.runId))).toContain('{{state}}');

  await expectReplayWithNewValues(app, rote, context);
});

test('abort() ends the recording as failed: no trajectory is stored and the page is left alone', async ({ app, rote, page }) => {
  const agent = await PersonAgent.attach(page);
  await page.goto(app.url);
  const recording = rote.run(page, { task: INTAKE_TASK, params: first, agent, mode: 'record' });
  const you = person(page, agent);
  await you.fill(page.getByLabel('First name'), first.firstName);
  await you.click(page.getByLabel('Last name'));
  await agent.listening();
  agent.abort('recording aborted (Ctrl+C); nothing was stored');
  const result = await recording;

  expect(result.status).toBe('failed');
  expect(result.error).toContain('recording aborted (Ctrl+C)');
  expect(await rote.store.getTask(result.taskKey)).toBeUndefined();
  expect((await rote.store.listRuns(1))[0]).toMatchObject({ id: result.runId, status: 'failed' });
  // The page is the page's own again: input reaches it directly, and nothing is captured.
  await page.getByLabel('Last name').click();
  await page.keyboard.type('Byron');
  await expect(page.getByLabel('Last name')).toHaveValue('Byron');
  await expect(page.getByLabel('First name')).toHaveValue(first.firstName);
  expect(app.submissions).toHaveLength(0);
});

test('a wheel gesture is one scroll step the engine performs; the click after it lands once', async ({ page }) => {
  const html = `<!doctype html><title>Far</title><body style="margin:0">
    <div style="height:2000px">Top</div><button id="far" onclick="window.clicks = (window.clicks || 0) + 1">Far button</button>
    <iframe srcdoc="<button>Inside</button>" style="display:block;height:80px"></iframe><div style="height:1200px"></div></body>`;
  await page.route('http://rote.test/**', (route) => route.fulfill({ contentType: 'text/html', body: html }));
  const notices: string[] = [];
  // A long rest before the wheel gesture becomes a step: five wheel events a busy machine sends
  // slowly are still one gesture, and the page is still unscrolled when the test looks.
  const agent = await PersonAgent.attach(page, { onNotice: (notice) => notices.push(notice), gesturePauseMs: 3_000 });
  await page.goto('http://rote.test/far');
  const rote = await Rote.open({ store: ':memory:' });
  try {
    const recording = rote.run(page, { task: 'Press the far button', agent, mode: 'record' });
    await agent.listening();
    await page.mouse.move(640, 400);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 300);
    // Held back from the page until the gesture ends; then the engine scrolls.
    expect(await page.evaluate('window.scrollY')).toBe(0);
    await expect.poll(() => page.evaluate('window.scrollY'), { timeout: 15_000 }).toBe(1500);
    const you = person(page, agent);
    await you.click(page.getByRole('button', { name: 'Far button' }));
    await expect.poll(() => page.evaluate('window.clicks')).toBe(1);
    // Input inside a frame is blocked and said so, not passed to the page unrecorded.
    await you.click(page.frameLocator('iframe').getByRole('button', { name: 'Inside' }));
    await expect.poll(() => notices).toContain('not recorded: input inside a frame (it was blocked)');
    await you.finishWithControl();
    const result = await recording;

    expect(result.status, result.error).toBe('agent');
    expect(result.steps.map((step) => [step.action.type, step.intent])).toEqual([
      ['scroll', 'Scroll down'],
      ['click', 'Click "Far button"'],
    ]);
    expect(result.steps[0]!.action).toMatchObject({ x: 640, y: 400, scroll_x: 0, scroll_y: 1500 });
    expect(await page.evaluate('window.clicks')).toBe(1);
  } finally {
    await rote.close();
  }
});

test('a password typed with a pause in the middle is one step, stored as its placeholder and never in part', async ({ rote, page }) => {
  const posts: string[] = [];
  await page.route('http://127.0.0.1:9/**', async (route) => {
    if (route.request().method() === 'POST') {
      posts.push(route.request().postData() ?? '');
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><h1>Welcome</h1>' });
    }
    return route.fulfill({ contentType: 'text/html', body: '<!doctype html><form method="post" action="/login"><label>Password <input type="password" name="pw"></label> <button>Log in</button></form>' });
  });
  const agent = await PersonAgent.attach(page);
  await page.goto('http://127.0.0.1:9/login');
  const recording = rote.run(page, { task: 'Log in', params: { password: secret('hunter2') }, agent, mode: 'record' });
  const you = person(page, agent);
  await you.click(page.getByLabel('Password'));
  await page.keyboard.type('hun');
  await page.waitForTimeout(1_500); // longer than the typing pause
  await page.keyboard.type('ter2');
  await you.click(page.getByRole('button', { name: 'Log in' }));
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await you.finishWithControl();
  const result = await recording;
  expect(result.status, result.error).toBe('agent');
  expect(posts).toEqual(['pw=hunter2']);
  const stored = JSON.stringify(await rote.store.subtree(result.taskKey, null, 20));
  expect(stored).toContain('{{password}}');
  expect(stored).not.toMatch(/hun|ter2/);
});
