import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { secret } from '../src/params/secret.js';
import { Rote } from '../src/rote.js';

const KEY = 'sk_live_9fQ2hA7xL0pW3mN8';

/**
 * A secret a row header shows is never stored, not even its first characters where the header is
 * cut at the facet limit (the key below starts at the 112th character of its row's header).
 */
test('a secret that a row header shows, cut short by the facet limit, is not stored in any form', async ({ page }) => {
  const header = `${'Created by the integration service on Monday morning for the quarterly export of the north region ledgers '.slice(0, 104)} key ${KEY}`;
  await page.route('http://rote.test/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<table><tr><td>${header}</td><td><button onclick="this.textContent='Done'">Edit</button></td></tr><tr><td>Another row</td><td><button>Edit</button></td></tr></table><input aria-label="Key" type="password">` }),
  );
  await page.goto('http://rote.test/');
  const box = await page.getByRole('button', { name: 'Edit' }).first().boundingBox();
  const field = await page.getByLabel('Key').boundingBox();
  const agent = scriptedAgent([
    { actions: [{ type: 'click', x: box!.x + 5, y: box!.y + 5 }], intent: 'Edit the integration row' },
    { actions: [{ type: 'click', x: field!.x + 5, y: field!.y + 5 }, { type: 'type', text: '{{apiKey}}' }], intent: 'Type the key' },
    { done: true },
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'rote-identity-secret-'));
  const rote = await Rote.open({ store: join(dir, 'rote.db') });
  const result = await rote.run(page, { task: 'Edit the integration row', params: { apiKey: secret(KEY) }, agent });
  expect(result.status, result.error).toBe('agent');
  const node = (await rote.store.children(result.taskKey, null))[0]!;
  expect(JSON.stringify(node.state)).toContain('{{apiKey}}');
  await rote.close();
  const prefix = KEY.slice(0, 8);
  for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).includes(prefix), `${file} holds the start of the key`).toBe(false);
});
