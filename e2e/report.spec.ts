import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import type { Agent } from '../src/agent/agent.js';
import { submissionProblems } from '../src/demo/patients.js';
import { writeReport } from '../src/report/writeReport.js';
import { DEMO_PATIENTS, expect, test } from './fixtures.js';

const [first, second, third, fourth] = DEMO_PATIENTS as [(typeof DEMO_PATIENTS)[0], (typeof DEMO_PATIENTS)[1], (typeof DEMO_PATIENTS)[2], (typeof DEMO_PATIENTS)[3]];

/** An agent whose model service is down: every call fails. */
const unreachableAgent: Agent = {
  name: 'unreachable',
  async next() {
    throw new Error('the model service did not answer (connection refused)');
  },
};

/** Every request the page makes; a self-contained report makes none beyond its own folder. */
function requestsOf(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Every <img> on the page has loaded a picture. */
async function expectImagesLoaded(page: Page, selector: string, count: number): Promise<void> {
  const images = page.locator(selector);
  await expect(images).toHaveCount(count);
  for (const image of await images.all()) {
    await expect(image).toBeVisible();
    expect(await image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  }
}

test('a report of real runs: totals, timeline, the three images of a divergence, filters, and screenshots for review', async ({ app, rote, recordIntake, runIntake, page }, testInfo) => {
  // The five kinds of run a report must tell apart: recorded by the agent, replayed, diverged
  // (replay-only at a popup), taken over at the popup and re-joined, failed (the agent is down).
  await recordIntake(first);
  const replayed = await runIntake(second);
  expect(replayed.result.status).toBe('replayed');
  app.reset();
  app.setPerturbations({ sessionPopup: true });
  const diverged = await runIntake(third, { mode: 'replay-only', checkTimeout: 500 });
  expect(diverged.result.status).toBe('diverged');
  const mixed = await runIntake(third);
  expect(mixed.result.status).toBe('mixed');
  expect(submissionProblems(third, app.submissions.at(-1))).toEqual([]);
  app.setPerturbations({ sessionPopup: false, renamedLabel: true });
  const failed = await runIntake(fourth, { checkTimeout: 500, agent: unreachableAgent });
  expect(failed.result.status).toBe('failed');

  const dir = testInfo.outputPath('report');
  const written = await writeReport(rote.store, {}, dir);
  expect(written.runs).toBe(5);

  const requests = requestsOf(page);
  await page.goto(pathToFileURL(written.index).href);
  await expect(page).toHaveTitle(/Overview/);

  // Totals: 5 runs, 1 of 5 fully replayed; agent calls against the agent-only estimate.
  const totals = page.locator('#totals');
  await expect(totals.locator('.card').nth(0).locator('.value')).toHaveText('5');
  await expect(totals.locator('.card').nth(1).locator('.value')).toHaveText('20%');
  const agentCalls = [replayed, diverged, mixed, failed].reduce((sum, run) => sum + run.result.agentCalls, 0) + (await rote.store.findRuns({})).find((run) => run.status === 'agent')!.agentCalls;
  await expect(totals.locator('.card').nth(2).locator('.value')).toHaveText(new RegExp(`^${agentCalls} / \\d+$`));
  await expect(page.locator('#runs-table tbody tr')).toHaveCount(5);
  await expect(page.locator('#divergent-tasks tbody tr')).toHaveCount(1);
  // Where the time went, over the five runs (each kept its time).
  await expect(page.locator('#time-totals [data-part]')).toHaveCount(5);
  await expect(page.locator('#time-totals')).toContainText('replayed steps');
  await testInfo.attach('overview', { body: await page.screenshot({ path: testInfo.outputPath('overview.png'), fullPage: true }), contentType: 'image/png' });

  // Filter by status: only the failed run stays.
  for (const status of ['replayed', 'mixed', 'agent', 'diverged', 'interrupted', 'running']) await page.getByRole('checkbox', { name: new RegExp(`^${status} `) }).uncheck();
  await expect(page.locator('#runs-table tbody tr:visible')).toHaveCount(1);
  await expect(page.locator('#runs-table tbody tr:visible')).toHaveAttribute('data-status', 'failed');
  await expect(page.locator('#shown')).toHaveText('1 of 5 runs');
  // Search narrows within the filters; clearing the filters brings every run back.
  await page.getByRole('checkbox', { name: /^diverged / }).check();
  await page.getByRole('searchbox').fill(diverged.result.runId.slice(0, 8));
  await expect(page.locator('#runs-table tbody tr:visible')).toHaveAttribute('data-status', 'diverged');

  // Into the divergence: the recorded crop, the live crop and their diff, with the reason.
  await page.locator('#runs-table tbody tr:visible a').first().click();
  await expect(page.locator('h1')).toContainText('diverged');
  const divergence = page.locator('li.divergence');
  await expect(divergence).toHaveCount(1);
  await expect(divergence).toContainText('Fill "First name"');
  await expect(divergence.locator('.reason')).toContainText(diverged.result.divergences[0]!.reason.slice(0, 40));
  await expectImagesLoaded(page, 'li.divergence .evidence img', 3);
  for (const name of ['expected', 'actual', 'diff']) await expect(divergence.locator(`figure[data-image="${name}"] img`)).toBeVisible();
  await expect(page.locator('#run-error')).toContainText('diverged');

  // The takeover: the agent's step, then the re-join, then the cached path, each with its picture.
  await page.goto(pathToFileURL(`${dir}/runs/${mixed.result.runId}.html`).href);
  const kinds = await page.locator('#timeline li.step').evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
  expect(kinds).toEqual(mixed.result.steps.map((step, index) => (step.kind === 'cached' && mixed.result.steps[index - 1]?.kind === 'agent' ? 'rejoined' : step.kind)));
  expect(kinds).toContain('rejoined');
  await expect(page.locator('#timeline li.step').first()).toContainText('Dismiss');
  // Beside its duration, where its time went: the agent's turn took some of it.
  await expect(page.locator('#run-time [data-part]')).toHaveCount(5);
  await expect(page.locator('#run-time [data-part="agent"]')).not.toContainText('agent 0 ms');
  await expect(page.locator('#step-counts')).toHaveText(`${mixed.result.cachedSteps - 1} cached, 0 relocated, ${mixed.result.agentSteps} agent, 1 re-joined`);
  // The values the run was given, first thing on its page.
  await expect(page.locator('#run-values li')).toHaveCount(Object.keys(third).length);
  await expect(page.locator('#run-values')).toContainText(`lastName = ${third.lastName}`);
  await expect(page.locator('#run-values')).toContainText(`firstName = ${third.firstName}`);
  // A picture before every step that has a target; durations shown.
  const withPictures = await page.locator('#timeline li.step .thumb img').count();
  expect(withPictures).toBeGreaterThanOrEqual(mixed.result.steps.length - 2);
  await expectImagesLoaded(page, '#timeline li.step .thumb img >> nth=0', 1);
  await testInfo.attach('run', { body: await page.screenshot({ path: testInfo.outputPath('run.png'), fullPage: true }), contentType: 'image/png' });

  // The failure: its error and the last screen.
  await page.goto(pathToFileURL(`${dir}/runs/${failed.result.runId}.html`).href);
  await expect(page.locator('#run-error')).toContainText('the model service did not answer');
  await expectImagesLoaded(page, '#last-screen', 1);

  // From a run to its task's trajectory: the tree with hit counts per branch (the usual path and the popup detour).
  await page.getByRole('link', { name: 'trajectory of this task' }).click();
  await expect(page.locator('#trajectory li.branches')).toHaveCount(1);
  await expect(page.locator('#trajectory')).toContainText('Dismiss');
  await expect(page.locator('#trajectory .hits').first()).toHaveText(/\d+ hits?/);

  expect(requests.filter((url) => !url.startsWith(pathToFileURL(dir).href))).toEqual([]);
});
