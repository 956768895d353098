import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { performAction } from '../actions/perform.js';
import { launchBrowser } from '../browser/launch.js';
import { beforeAction, settle } from '../checks/settle.js';
import { deadlineIn } from '../progress/deadline.js';
import { viewportScreenshot } from '../checks/visual.js';
import { parseAction, type Action } from '../actions/action.js';
import { isDone, type AgentAnswer, type Observation } from '../agent/agent.js';
import { startIntakeApp, type IntakeApp } from './app/server.js';
import { demoAgent } from './demoAgent.js';

const VIEWPORT = { width: 1280, height: 800 };

const params = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dob: '12/10/1815',
  state: 'New York',
  plan: 'standard',
  reminders: 'yes',
  notes: 'Allergic to penicillin.',
};

const expectedFields = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  dob: '12/10/1815',
  state: 'NY',
  plan: 'standard',
  reminders: 'yes',
  notes: 'Allergic to penicillin.',
};

let browser: Browser;
let app: IntakeApp;

beforeAll(async () => {
  browser = await launchBrowser();
  app = await startIntakeApp();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

beforeEach(() => app.reset());

/** Runs an answer's action with rote's own executor and settle step (no cache, no checks). */
async function execute(page: Page, action: Action): Promise<void> {
  const isSelect = action.type === 'type' && (await page.evaluate('document.activeElement && document.activeElement.tagName === "SELECT"'));
  const before = beforeAction(page);
  await performAction(page, action, isSelect ? 'select' : 'keys', deadlineIn(30_000));
  await settle(page, before, deadlineIn(10_000));
}

async function drive(page: Page, agentParams: Record<string, string>): Promise<{ answers: AgentAnswer[]; answer?: string }> {
  const agent = demoAgent(page);
  const history: Observation['history'] = [];
  const answers: AgentAnswer[] = [];
  for (let call = 0; call < 30; call++) {
    const observation: Observation = {
      runId: 'run-1',
      deadline: Number.MAX_SAFE_INTEGER,
      task: 'Register the patient',
      params: agentParams,
      screenshot: await viewportScreenshot(page, deadlineIn(20_000)),
      url: page.url(),
      viewport: VIEWPORT,
      history,
      tools: [],
    };
    const answer = await agent.next(observation);
    answers.push(answer);
    if (isDone(answer)) return { answers, answer: answer.answer };
    for (const input of answer.actions) {
      const action = parseAction(input);
      await execute(page, action);
      history.push({ action, intent: answer.intent, kind: 'agent' });
    }
  }
  throw new Error('the agent did not finish within 30 calls');
}

function intents(answers: AgentAnswer[]): string[] {
  return answers.map((a) => (isDone(a) ? `done: ${a.answer ?? ''}` : (a.intent ?? '')));
}

describe('demo app + demo agent', { timeout: 60_000 }, () => {
  it('fills and saves the plain form', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(app.url);
      const { answers, answer } = await drive(page, params);
      expect(answer).toBe('Thank you. Record #1 was saved.');
      expect(intents(answers)).toEqual([
        'Fill "First name"',
        'Fill "Last name"',
        'Fill "Date of birth"',
        'Choose "State"',
        'Choose "Standard" for "Plan"',
        'Check "Send appointment reminders"',
        'Fill "Notes"',
        'Submit the form',
        'done: Thank you. Record #1 was saved.',
      ]);
      expect(app.submissions).toHaveLength(1);
      expect(app.submissions[0]?.fields).toEqual(expectedFields);
      expect(app.destructiveClicks).toHaveLength(0);
      expect(await page.title()).toBe('Saved');
      const state = (await (await fetch(`${app.origin}/api/state`)).json()) as { submissions: unknown[]; destructiveClicks: unknown[] };
      expect(state.submissions).toHaveLength(1);
      expect(state.destructiveClicks).toHaveLength(0);
    } finally {
      await page.close();
    }
  });

  it('dismisses the session popup and clicks Save, not Delete, when the buttons are swapped', async () => {
    app.setPerturbations({ sessionPopup: true, swappedButtons: true });
    const page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(app.url);
      // The popup's backdrop covers the form: a click on a field does not reach it.
      const box = await page.locator('#first_name').boundingBox();
      expect(box).not.toBeNull();
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.id ?? '', { x: box!.x + box!.width / 2, y: box!.y + box!.height / 2 });
      expect(hit).toBe('session-popup');
      // Delete stands where Save is on the plain form.
      const save = await page.locator('#save-button').boundingBox();
      const del = await page.locator('#delete-button').boundingBox();
      expect(del!.x).toBeLessThan(save!.x);
      expect(del!.width).toBe(save!.width);
      expect(del!.height).toBe(save!.height);

      const { answers, answer } = await drive(page, { ...params, dob: '1815-12-10', state: 'ny', plan: 'Premium' });
      expect(intents(answers)[0]).toBe('Dismiss the "Your session is about to expire" popup');
      expect(intents(answers)).toContain('Submit the form');
      expect(answer).toBe('Thank you. Record #1 was saved.');
      expect(app.submissions).toHaveLength(1);
      expect(app.submissions[0]?.fields).toEqual({ ...expectedFields, plan: 'premium' });
      expect(app.destructiveClicks).toHaveLength(0);
    } finally {
      await page.close();
    }
  });

  it('replaces a prefilled value and unchecks the checkbox when asked', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(app.url);
      await page.locator('#first_name').fill('Someone');
      await page.locator('#reminders').check();
      const { answers } = await drive(page, { firstName: 'Grace', lastName: 'Hopper', reminders: 'no' });
      const first = answers[0];
      expect(first && !isDone(first) ? first.actions.map((a) => a.type) : []).toEqual(['click', 'keypress', 'type']);
      expect(app.submissions[0]?.fields).toEqual({ first_name: 'Grace', last_name: 'Hopper', dob: '', state: '', notes: '' });
    } finally {
      await page.close();
    }
  });

  it('Delete records a destructive click and does not submit', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(app.url);
      await page.locator('#first_name').fill('Ada');
      await page.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => page.locator('#status').textContent()).toBe('Draft deleted');
      expect(page.url()).toBe(app.url);
      expect(app.submissions).toHaveLength(0);
      expect(app.destructiveClicks).toHaveLength(1);
      expect(app.destructiveClicks[0]?.form.first_name).toBe('Ada');
    } finally {
      await page.close();
    }
  });

  it('renamedLabel and banner perturb the page', async () => {
    const page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(app.url);
      const plain = await page.getByLabel('First name').boundingBox();
      const fitsPlain = await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight);
      expect(fitsPlain).toBe(true);

      app.setPerturbations({ renamedLabel: true, banner: true });
      await page.goto(app.url);
      expect(await page.getByLabel('First name').count()).toBe(0);
      const renamed = page.getByLabel('Given name');
      expect(await renamed.getAttribute('name')).toBe('first_name');
      const moved = await renamed.boundingBox();
      expect(moved!.y - plain!.y).toBeGreaterThan(50);
      expect(await page.getByText('Scheduled maintenance on Saturday').first().isVisible()).toBe(true);

      app.setPerturbations({ sessionPopup: true, swappedButtons: true });
      await page.goto(app.url);
      const fitsPerturbed = await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight);
      expect(fitsPerturbed).toBe(true);
      await page.screenshot({ path: '/tmp/demo-form-perturbed.png' });
      app.reset();
      await page.goto(app.url);
      await page.screenshot({ path: '/tmp/demo-form.png' });
    } finally {
      await page.close();
    }
  });

  it('serves the routes', async () => {
    const root = await fetch(`${app.origin}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/intake');
    expect((await fetch(`${app.origin}/nope`)).status).toBe(404);
    const post = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'first_name=A%20B&plan=basic',
      redirect: 'manual',
    });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/confirmation?id=1');
    const page = await (await fetch(`${app.origin}/confirmation?id=1`)).text();
    expect(page).toContain('Thank you. Record #1 was saved.');
    expect(page).toContain('<title>Saved</title>');
    expect(app.submissions[0]?.fields).toEqual({ first_name: 'A B', plan: 'basic' });
  });
});
