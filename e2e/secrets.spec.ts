import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Observation } from '../src/agent/agent.js';
import { secret } from '../src/params/secret.js';
import { Rote } from '../src/rote.js';
import { expect, test } from './fixtures.js';
import { box, FIELD, loginAgent, startLoginApp } from './support/loginApp.js';

const FIRST = 'hunter2-Alpha';
const SECOND = 'Zq9-bravo-pw';
const THIRD = 'x7-charlie-pw';
const TASK = 'Log in as {{user}}';

/** Every pixel of the box is painted solid black. */
async function isPaintedOver(png: Buffer, area: { x: number; y: number; width: number; height: number }): Promise<boolean> {
  const { data, info } = await sharp(png).extract({ left: area.x, top: area.y, width: area.width, height: area.height }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect(info.width).toBe(area.width);
  return data.every((byte) => byte === 0);
}

function allStoreBytes(dir: string): Buffer {
  return Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));
}

test('a secret password is typed by placeholder, replayed with a new secret, and never written or shown', async ({ context }) => {
  const app = await startLoginApp();
  const dir = mkdtempSync(join(tmpdir(), 'rote-secrets-'));
  const rote = await Rote.open({ store: join(dir, 'rote.db') });
  const texts: string[] = [];
  const observations: Observation[] = [];
  try {
    // Record: the agent sees only the mask and types the placeholder.
    const recorder = loginAgent();
    const page = await context.newPage();
    await page.goto(app.url);
    const recorded = await rote.run(page, { task: TASK, params: { user: 'ada', password: secret(FIRST) }, agent: recorder });
    expect(recorded.status).toBe('agent');
    expect(app.logins).toEqual([{ user: 'ada', password: FIRST }]);
    observations.push(...recorder.observations);
    expect(recorder.observations).toHaveLength(3);
    for (const observation of recorder.observations) expect(observation.params).toEqual({ user: 'ada', password: '********' });
    // While the form is filled, the password field and the text echoing the secret are painted over.
    const filled = recorder.observations[1]!;
    expect(await isPaintedOver(filled.screenshot, box(FIELD.password))).toBe(true);
    const echoBox = { x: FIELD.echo.x, y: FIELD.echo.y + 2, width: 120, height: 12 };
    expect(await isPaintedOver(filled.screenshot, echoBox)).toBe(true);
    // The username field is not masked (it shows "ada", not a secret).
    expect(await isPaintedOver(filled.screenshot, box(FIELD.user))).toBe(false);
    const typed = recorded.steps.filter((step) => step.action.type === 'type').map((step) => (step.action.type === 'type' ? step.action.text : ''));
    // Results show a secret as the mask; the store keeps the template.
    expect(typed).toEqual(['ada', '********']);
    const storedSteps = JSON.stringify(await rote.store.runSteps(recorded.runId));
    expect(storedSteps).toContain('{{password}}');
    texts.push(JSON.stringify(recorded), storedSteps);
    // The stored crop of the step typing the password has the field painted over, and masked for comparisons.
    const nodes = (await rote.store.subtree(recorded.taskKey, null, 100)) as unknown as { action: { type: string; text?: string }; cropHash: string | null; cropRect: { x: number; y: number } | null; masks: unknown[] }[];
    const typing = nodes.find((node) => node.action.type === 'type' && node.action.text === '{{password}}')!;
    expect(typing.cropHash).not.toBeNull();
    const crop = (await rote.store.getBlob(typing.cropHash!))!;
    const inField = { x: -typing.cropRect!.x + 4, y: -typing.cropRect!.y + 4, width: 200, height: 20 };
    expect(await isPaintedOver(crop, inField)).toBe(true);
    expect(typing.masks.length).toBeGreaterThan(0);
    await page.close();

    // Replay with a new secret: every step from the cache, the new password submitted.
    const replayer = loginAgent();
    const again = await context.newPage();
    await again.goto(app.url);
    const replayed = await rote.run(again, { task: TASK, params: { user: 'ada', password: secret(SECOND) }, agent: replayer });
    expect(replayed.status).toBe('replayed');
    expect(replayer.calls).toBe(0);
    expect(app.logins[1]).toEqual({ user: 'ada', password: SECOND });
    texts.push(JSON.stringify(replayed), JSON.stringify(await rote.store.runSteps(replayed.runId)));
    await again.close();

    // A replay that diverges after typing the secret: its error and call log do not show it.
    app.buttonLabel = 'Sign in';
    const third = await context.newPage();
    await third.goto(app.url);
    const diverged = await rote.run(third, { task: TASK, params: { user: 'ada', password: secret(THIRD) }, mode: 'replay-only', checkTimeout: 500 });
    expect(diverged.status).toBe('diverged');
    expect(diverged.steps.length).toBeGreaterThanOrEqual(4);
    expect(diverged.error).toContain('Steps that ran');
    expect(diverged.error).toContain('{{password}}');
    expect(await third.locator('input[name=password]').inputValue()).toBe(THIRD);
    texts.push(JSON.stringify(diverged), diverged.error ?? '');
    await third.close();
  } finally {
    await rote.close();
    await app.close();
  }

  // Nothing the runs left behind holds a secret: results, logs, stored steps, the store file's bytes, what the agent saw.
  const bytes = allStoreBytes(dir);
  expect(bytes.length).toBeGreaterThan(0);
  for (const value of [FIRST, SECOND, THIRD]) {
    expect(bytes.includes(Buffer.from(value, 'utf8'))).toBe(false);
    expect(bytes.includes(Buffer.from(value, 'utf16le'))).toBe(false);
    for (const text of texts) expect(text).not.toContain(value);
    for (const observation of observations) {
      const { screenshot, ...rest } = observation;
      expect(JSON.stringify(rest)).not.toContain(value);
      expect(screenshot.includes(Buffer.from(value))).toBe(false);
    }
  }
});
