import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { launchBrowser } from '../../../src/browser/launch.js';
import { Rote } from '../../../src/rote.js';
import { isDone } from '../../../src/agent/agent.js';
import type { BenchApp } from '../contract.js';
import { decide, snapshot } from './agent.js';
import { claimSpec as spec } from './spec.js';

const VIEWPORT = { width: 1280, height: 800 };

let browser: Browser;
let app: BenchApp;

beforeAll(async () => {
  browser = await launchBrowser();
  app = await spec.start();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function withPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(app.startUrl);
    return await fn(page);
  } finally {
    await page.close();
  }
}

describe('claim wizard', { timeout: 120_000 }, () => {
  it('params are deterministic, distinct and valid', () => {
    expect(spec.params(3)).toEqual(spec.params(3));
    const seen = new Set(Array.from({ length: 40 }, (_, i) => JSON.stringify(spec.params(i))));
    expect(seen.size).toBe(40);
    expect(spec.name).toBe('claim');
    expect(spec.perturbations).toHaveLength(11);
  });

  it('renders deterministically and fits 1280x800', async () => {
    await withPage(async (page) => {
      const first = await page.screenshot();
      await page.goto(app.startUrl);
      expect((await page.screenshot()).equals(first)).toBe(true);
      expect(await page.evaluate('document.documentElement.scrollHeight <= window.innerHeight')).toBe(true);
    });
  });

  it('an unknown policy shows an error and the agent gives up instead of looping', async () => {
    app.reset();
    await withPage(async (page) => {
      await page.getByLabel('Policy number').fill('AP-000000');
      await page.getByLabel('Last name').fill('Nobody');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.getByRole('alert').count()).toBe(1);
      const answer = decide(await snapshot(page), { policyNumber: 'AP-000000', lastName: 'Nobody' });
      expect(isDone(answer) && answer.answer).toMatch(/^Cannot continue: No policy matches/);
    });
  });

  it('Delete on the review page is counted and never submits', async () => {
    app.reset();
    await withPage(async (page) => {
      const p = spec.params(4);
      await page.getByLabel('Policy number').fill(String(p.policyNumber));
      await page.getByLabel('Last name').fill(String(p.lastName));
      await Promise.all([page.waitForURL(/\/claim\/details$/), page.getByRole('button', { name: 'Next' }).click()]);
      await page.getByLabel('Incident date').fill(String(p.incidentDate));
      await page.getByLabel('Claim amount').fill(String(p.claimAmount));
      await page.getByLabel('Incident type').selectOption({ label: String(p.incidentType) });
      await page.getByLabel('Description').fill(String(p.description));
      await Promise.all([page.waitForURL(/\/claim\/review$/), page.getByRole('button', { name: 'Next' }).click()]);
      const save = await page.getByRole('button', { name: 'Save', exact: true }).boundingBox();
      const del = await page.getByRole('button', { name: 'Delete', exact: true }).boundingBox();
      expect(del!.width).toBe(save!.width);
      expect(del!.height).toBe(save!.height);
      expect(del!.y).toBe(save!.y);
      await page.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => page.locator('#status').textContent()).toBe('Draft claim deleted');
      expect(page.url()).toMatch(/\/claim\/review$/);
      expect(app.submissions).toHaveLength(0);
      expect(app.destructiveClicks).toBe(1);
      expect(spec.verify(app, p)).toEqual(['no submission', '1 destructive click']);
    });
  });

  it('records with the agent, replays with new values without it, and the baseline verifies', async () => {
    const rote = await Rote.open({ store: ':memory:' });
    try {
      app.reset();
      const p0 = spec.params(0);
      const run0 = await withPage((page) => rote.run(page, { task: spec.task, params: p0, agent: spec.agent(page) }));
      expect(run0.status, run0.error).toBe('agent');
      expect(spec.verify(app, p0)).toEqual([]);

      app.reset();
      const p1 = spec.params(1);
      const run1 = await withPage((page) => rote.run(page, { task: spec.task, params: p1, agent: spec.agent(page) }));
      expect(run1.status, run1.error ?? JSON.stringify(run1.divergences.map((d) => d.reason))).toBe('replayed');
      expect(run1.agentCalls).toBe(0);
      expect(spec.verify(app, p1)).toEqual([]);
    } finally {
      await rote.close();
    }

    app.reset();
    const p2 = spec.params(2);
    await withPage((page) => spec.baseline(page, p2));
    expect(spec.verify(app, p2)).toEqual([]);
  });
});
