import type { Page } from '@playwright/test';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { secret } from '../src/params/secret.js';
import { expect, test } from './fixtures.js';
import { startSite } from './support/site.js';

/**
 * Where a run may act: an allowlist of origins for agents, and secrets typed only on the origin
 * the task started on. Two servers on 127.0.0.1 are two origins (their ports differ).
 */

const field = (name: string, top: number) => `<input name="${name}" aria-label="${name}" style="position:absolute;left:20px;top:${top}px;width:200px;height:30px">`;

test('allowedOrigins: a bad value or a start elsewhere is refused before anything; an agent that navigates away ends the run', async ({ rote, page }) => {
  const elsewhere = await startSite(() => ({ '/': '<!doctype html><title>Elsewhere</title>' + field('q', 20) }));
  const home = await startSite(() => ({
    '/': `<!doctype html><title>Home</title><a href="${elsewhere.origin}/" style="position:absolute;left:20px;top:80px">Leave</a>` + field('name', 20),
  }));
  try {
    await page.goto(home.origin);
    await expect(rote.run(page, { task: 'Fill the name', allowedOrigins: ['https://intake.example/form'] })).rejects.toThrow(
      'options.allowedOrigins.0 must be an http(s) origin such as https://intake.example (no path), got "https://intake.example/form"',
    );
    await expect(rote.run(page, { task: 'Fill the name', allowedOrigins: [elsewhere.origin] })).rejects.toThrow(`the page is on ${home.origin}, which options.allowedOrigins does not list`);
    expect(await rote.store.findRuns({})).toHaveLength(0);

    // The agent's goto elsewhere is not done.
    const goes = scriptedAgent([{ actions: [{ type: 'goto', url: `${elsewhere.origin}/` }] }]);
    const stopped = await rote.run(page, { task: 'Look around', agent: goes, allowedOrigins: [home.origin] });
    expect(stopped.status).toBe('failed');
    expect(stopped.errorCode).toBe('origin-not-allowed');
    expect(stopped.error).toContain(`step 1 would go to ${elsewhere.origin}, which allowedOrigins does not list`);
    expect(page.url()).toBe(`${home.origin}/`);
    expect(elsewhere.hits).toEqual([]);

    // A click that leads elsewhere: the run ends there, before any further step.
    const clicks = scriptedAgent([{ actions: [{ type: 'click', x: 40, y: 88 }, { type: 'click', x: 100, y: 35 }, { type: 'type', text: 'more' }] }]);
    const left = await rote.run(page, { task: 'Follow the link', agent: clicks, allowedOrigins: [home.origin] });
    expect(left.status).toBe('failed');
    expect(left.errorCode).toBe('origin-not-allowed');
    expect(left.steps).toHaveLength(1);
    expect(left.error).toContain(`after step 1 the page is on ${elsewhere.origin}`);
    expect(await page.locator('input[name=q]').inputValue()).toBe('');
  } finally {
    await home.close();
    await elsewhere.close();
  }
});

test('a secret is never typed into a frame of another origin, nor on a page of another origin than the start; a same-origin field takes it', async ({ rote, page }) => {
  const framed = await startSite(() => ({
    '/login': `<!doctype html><title>Framed</title>${field('password', 10)}<script>document.querySelector('input').addEventListener('input', function (e) { fetch('/typed?v=' + encodeURIComponent(e.target.value)); });</script>`,
  }));
  const home = await startSite(() => ({
    '/': `<!doctype html><title>Home</title>${field('user', 20)}<input type="password" name="pw" aria-label="Password" style="position:absolute;left:20px;top:70px;width:200px;height:30px">
<iframe src="${framed.origin}/login" style="position:absolute;left:20px;top:130px;width:300px;height:60px;border:0"></iframe>`,
  }));
  const homeOrigin = home.origin;
  const typeInto = (x: number, y: number) => scriptedAgent([{ actions: [{ type: 'click', x, y }, { type: 'type', text: '{{password}}' }] }, { done: true }]);
  const run = (target: Page, agent: ReturnType<typeof typeInto>) => rote.run(target, { task: 'Sign in', params: { password: secret('Hunter2-origin-secret') }, agent, mode: 'record' });
  try {
    await page.goto(home.origin);
    // Into the frame served by the other origin: refused before a key is pressed.
    const refused = await run(page, typeInto(120, 155));
    expect(refused.status).toBe('failed');
    expect(refused.errorCode).toBe('origin-not-allowed');
    expect(refused.error).toContain(`would type the secret {{password}} into a frame on ${framed.origin}, inside a page on ${homeOrigin}`);
    expect(refused.error).not.toContain('Hunter2');
    expect(framed.hits.filter((hit) => hit.startsWith('GET /typed'))).toEqual([]);
    expect(await page.frameLocator('iframe').locator('input').inputValue()).toBe('');

    // Led to another origin's page first (no allowlist given): the secret still stays home.
    await page.goto(home.origin);
    const away = scriptedAgent([{ actions: [{ type: 'goto', url: `${framed.origin}/login` }, { type: 'click', x: 120, y: 25 }, { type: 'type', text: '{{password}}' }] }]);
    const elsewhere = await run(page, away);
    expect(elsewhere.status).toBe('failed');
    expect(elsewhere.error).toContain(`step 3 would type the secret {{password}} on ${framed.origin}, not on the origin the task started on (${homeOrigin})`);
    expect(await page.locator('input[name=password]').inputValue()).toBe('');

    // Nor sent in a URL to another origin.
    await page.goto(home.origin);
    const leak = await run(page, scriptedAgent([{ actions: [{ type: 'goto', url: `${framed.origin}/login?p={{password}}` }] }]));
    expect(leak.status).toBe('failed');
    expect(leak.error).toContain(`step 1 would send the secret {{password}} to ${framed.origin}, not to the origin the task started on`);
    expect(framed.hits.filter((hit) => hit.includes('Hunter2'))).toEqual([]);

    // The page's own password field takes it.
    await page.goto(home.origin);
    const typed = await run(page, typeInto(120, 85));
    expect(typed.status, typed.error).toBe('agent');
    expect(await page.locator('input[name=pw]').inputValue()).toBe('Hunter2-origin-secret');

  } finally {
    await home.close();
    await framed.close();
  }
});
