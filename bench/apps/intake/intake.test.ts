import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { launchBrowser } from '../../../src/browser/launch.js';
import { Rote } from '../../../src/rote.js';
import type { BenchApp } from '../contract.js';
import { decideIntake, type IntakeSnapshot } from './agent.js';
import { intakeSpec as spec } from './spec.js';

const VIEWPORT = { width: 1280, height: 800 };

let browser: Browser;
let app: BenchApp;
let rote: Rote;

beforeAll(async () => {
  browser = await launchBrowser();
  app = await spec.start();
  rote = await Rote.open({ store: ':memory:' });
}, 60_000);

afterAll(async () => {
  await rote?.close();
  await browser?.close();
  await app?.close();
});

beforeEach(() => app.reset());

async function freshPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(app.startUrl);
  return page;
}

describe('intake params', () => {
  it('are deterministic and differ in every text value from one index to another', () => {
    expect(spec.params(3)).toEqual(spec.params(3));
    const texts = ['firstName', 'lastName', 'dob', 'street', 'city', 'zip', 'phone', 'email', 'notes'];
    for (const name of texts) {
      const values = new Set(Array.from({ length: 200 }, (_, i) => spec.params(i)[name]));
      expect(values.size, name).toBe(200);
    }
    expect(spec.params(0)).toMatchObject({ smsReminders: true, emailNewsletter: true });
    expect(spec.params(0).state).not.toBe(spec.params(1).state);
    expect(spec.params(0).insurance).not.toBe(spec.params(1).insurance);
  });
});

describe('intake agent decisions', () => {
  const viewport = { width: 1280, height: 800 };
  const base: IntakeSnapshot = { viewport, dialog: null, confirmation: null, hasForm: true, formVisible: true, fields: [], requiredUnchecked: null, save: { x: 450, y: 490, width: 96, height: 28 } };
  const params = { firstName: 'Ada', smsReminders: 'false' };

  it('dismisses a dialog first, then fills the first field that differs', () => {
    const field = { kind: 'text' as const, name: 'first_name', label: 'First name', value: 'Bob', box: { x: 450, y: 120, width: 248, height: 24 } };
    expect(decideIntake({ ...base, dialog: { text: 'Hi', button: { x: 700, y: 250, width: 100, height: 20 } }, fields: [field] }, params)).toMatchObject({ actions: [{ type: 'click', x: 750, y: 260 }] });
    expect(decideIntake({ ...base, fields: [field] }, params)).toMatchObject({
      actions: [{ type: 'click', x: 574, y: 132 }, { type: 'keypress', keys: ['CTRL', 'A'] }, { type: 'type', text: 'Ada' }],
    });
  });

  it('scrolls to an off-screen target, waits for a loading form, ticks a required box, then saves', () => {
    const box = { kind: 'checkbox' as const, name: 'sms_reminders', label: 'SMS reminders', checked: true, box: { x: 450, y: 1200, width: 13, height: 13 } };
    expect(decideIntake({ ...base, fields: [box] }, params)).toMatchObject({ actions: [{ type: 'scroll' }] });
    expect(decideIntake({ ...base, formVisible: false, save: null }, params)).toMatchObject({ actions: [{ type: 'wait' }] });
    expect(decideIntake({ ...base, requiredUnchecked: { label: 'I confirm', box: { x: 450, y: 470, width: 13, height: 13 } } }, params)).toMatchObject({ intent: 'Check "I confirm"' });
    expect(decideIntake(base, params)).toMatchObject({ actions: [{ type: 'click', x: 498, y: 504 }], intent: 'Save the record' });
    expect(decideIntake({ ...base, hasForm: false, save: null, confirmation: 'Patient record #1 was saved.' }, params)).toEqual({ done: true, answer: 'Patient record #1 was saved.' });
  });
});

describe('intake app', () => {
  it('renders the same pixels on two loads', async () => {
    const page = await freshPage();
    const first = await page.screenshot();
    await page.goto(app.startUrl);
    const second = await page.screenshot();
    await page.close();
    expect(first.equals(second)).toBe(true);
  });

  it('reports no submission and destructive clicks', async () => {
    const page = await freshPage();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => app.destructiveClicks).toBe(1);
    await page.close();
    expect(spec.verify(app, spec.params(0))).toEqual(['no submission', '1 destructive click']);
  });
});

describe('intake with rote', () => {
  it('is recorded by the agent, replayed with new values, and matched by the baseline', async () => {
    const first = await freshPage();
    const recorded = await rote.run(first, { task: spec.task, params: spec.params(0), agent: spec.agent(first) });
    await first.close();
    expect(recorded.status, recorded.error).toBe('agent');
    expect(spec.verify(app, spec.params(0))).toEqual([]);

    app.reset();
    const second = await freshPage();
    const replayed = await rote.run(second, { task: spec.task, params: spec.params(1), agent: spec.agent(second) });
    await second.close();
    expect(replayed.status, replayed.error ?? JSON.stringify(replayed.divergences.map((d) => d.reason))).toBe('replayed');
    expect(replayed.agentCalls).toBe(0);
    expect(spec.verify(app, spec.params(1))).toEqual([]);

    app.reset();
    const third = await freshPage();
    await spec.baseline(third, spec.params(2));
    await third.close();
    expect(spec.verify(app, spec.params(2))).toEqual([]);
  }, 120_000);

  it('the baseline accepts a native confirm', async () => {
    app.setPerturbation('confirmDialog');
    const page = await freshPage();
    await spec.baseline(page, spec.params(5));
    await page.close();
    expect(spec.verify(app, spec.params(5))).toEqual([]);
  }, 60_000);
});
