/**
 * Regenerates the committed recording `recordings/intake`: the demo agent does the intake task
 * once on the demo app (a 1280x800 page, as in the e2e suite), and the trajectory is exported.
 * `npm run recordings:demo`; the e2e test recordedIntake.spec.ts replays the result.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../browser/launch.js';
import { exportRecording, type ExportedRecording } from '../recordings/exportRecording.js';
import { Rote } from '../rote.js';
import { startIntakeApp } from './app/server.js';
import { demoAgent } from './demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK, submissionProblems } from './patients.js';

export const DEMO_RECORDING_FOLDER = 'recordings/intake';

/** Records the intake task with the first demo patient and writes it to `folder`. */
export async function writeDemoRecording(folder: string = DEMO_RECORDING_FOLDER): Promise<ExportedRecording> {
  const patient = DEMO_PATIENTS[0]!;
  const app = await startIntakeApp();
  const browser = await launchBrowser();
  const rote = await Rote.open({ store: ':memory:' });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(app.url);
    const result = await rote.run(page, { task: INTAKE_TASK, params: patient, agent: demoAgent(page), mode: 'record' });
    const problems = submissionProblems(patient, app.submissions[0]);
    if (result.status !== 'agent' || problems.length > 0) {
      throw new Error(`writeDemoRecording: the recording run did not do the task (status ${result.status}${result.error ? `: ${result.error}` : ''}${problems.length ? `; ${problems.join('; ')}` : ''})`);
    }
    return await exportRecording(rote.store, result.taskKey, folder);
  } finally {
    await rote.close();
    await browser.close();
    await app.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const folder = process.argv[2] ?? DEMO_RECORDING_FOLDER;
  writeDemoRecording(folder).then(
    ({ nodes, crops }) => console.log(`wrote ${folder}: ${nodes} steps, ${crops} evidence crops`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
