import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { launchBrowser } from '../src/browser/launch.js';
import { startCli } from './support/cliProcess.js';

/** A free port on 127.0.0.1, as --serve needs one to be given. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('rote demo --serve serves the intake form for a first recording by hand, prints what it receives, and stops on Ctrl+C', async () => {
  const port = await freePort();
  const served = startCli(['demo', '--serve', '--port', String(port)]);
  try {
    const line = await served.waitFor(/the intake form is at (\S+)/, 30_000);
    const url = /at (\S+)/.exec(line)![1]!;
    expect(url).toBe(`http://127.0.0.1:${port}/intake`);
    // The page a person records on: a form whose submissions the command prints as they arrive.
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url);
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Last name').fill('Lovelace');
      await page.getByRole('button', { name: 'Save' }).click();
      await served.waitFor(/received: .*first_name=Ada, last_name=Lovelace/, 30_000);
    } finally {
      await browser.close();
    }
  } finally {
    served.child.kill('SIGINT');
  }
  expect(await served.exited()).toBe(0);
});
