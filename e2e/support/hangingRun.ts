/**
 * Started as a child process by storeConformance.spec.ts (on each store): opens the store it is given, starts a run whose
 * agent never answers, says "running" and waits to be killed.
 */
import { launchBrowser } from '../../src/browser/launch.js';
import { startIntakeApp } from '../../src/demo/app/server.js';
import { Rote } from '../../src/rote.js';

const storePath = process.argv[2];
if (!storePath) throw new Error('usage: hangingRun.js STORE_PATH');
const app = await startIntakeApp();
const browser = await launchBrowser();
const page = await browser.newPage();
await page.goto(app.url);
const rote = await Rote.open({ store: storePath });
void rote.run(page, {
  task: 'Register a patient',
  agent: {
    next: () => {
      process.stdout.write('running\n');
      return new Promise(() => {});
    },
  },
});
