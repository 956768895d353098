/**
 * Started as a child process by the crash faults (crashes.ts), to be SIGKILLed at a random moment:
 * runs the demo intake task on a file store, one run after another, until killed. Says "run N"
 * before each run, so the parent can kill it mid-run.
 *
 *   node dist/bench/faults/crashChild.js STORE URL record|replay|takeover
 */
import { launchBrowser } from '../../src/browser/launch.js';
import { demoAgent } from '../../src/demo/demoAgent.js';
import { INTAKE_TASK } from '../../src/demo/patients.js';
import { Rote } from '../../src/rote.js';
import { CRASH_PATIENTS } from './crashPatients.js';

const [storePath, url, kind] = process.argv.slice(2);
if (!storePath || !url || (kind !== 'record' && kind !== 'replay' && kind !== 'takeover')) throw new Error('usage: crashChild.js STORE URL record|replay|takeover');
const browser = await launchBrowser();
const rote = await Rote.open({ store: storePath });
for (let index = 0; ; index++) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  process.stdout.write(`run ${index}\n`);
  // A recording adds a branch from the start; one recorded with reminders off never sets the box,
  // and a later run that wants it on hands over at the submit (rightly: see the hazard guard).
  // Recordings here tick it, so the next run's check is about the crash, not about that branch.
  const patients = kind === 'record' ? CRASH_PATIENTS.filter((patient) => patient.reminders) : CRASH_PATIENTS;
  const params = patients[index % patients.length]!;
  const result = await rote.run(page, {
    task: INTAKE_TASK,
    params,
    checkTimeout: 500,
    ...(kind === 'record' ? { mode: 'record' as const, agent: demoAgent(page) } : kind === 'takeover' ? { agent: demoAgent(page) } : { mode: 'replay-only' as const }),
  });
  process.stdout.write(`ended ${index} ${result.status}\n`);
  await page.close();
}
