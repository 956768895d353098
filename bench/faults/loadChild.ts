/**
 * The second process of the load phase (load.ts): runs on the same store file as the first, from
 * its own Rote and browser, and says each run's end as a JSON line.
 *
 *   node dist/bench/faults/loadChild.js STORE URL UNTIL_EPOCH_MS WORKERS
 */
import { launchBrowser } from '../../src/browser/launch.js';
import { Rote } from '../../src/rote.js';
import { loadWorkers } from './loadWorkers.js';

const [storePath, url, until, workers] = process.argv.slice(2);
if (!storePath || !url || !Number.isFinite(Number(until)) || !Number.isInteger(Number(workers))) throw new Error('usage: loadChild.js STORE URL UNTIL_EPOCH_MS WORKERS');
const browser = await launchBrowser();
const rote = await Rote.open({ store: storePath });
try {
  await loadWorkers({ rote, browser, url, workers: Number(workers), until: Number(until), first: 4, onRun: (run) => process.stdout.write(`${JSON.stringify(run)}\n`) });
} finally {
  await rote.close();
  await browser.close();
}
