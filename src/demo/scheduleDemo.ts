import { mkdirSync, rmSync } from 'node:fs';
import type { AgentCatalog } from '../scheduler/agentCatalog.js';
import { dirname, join } from 'node:path';
import { Rote } from '../rote.js';
import { unattendedBrowsers } from '../scheduler/browserSupply.js';
import { Daemon, type SlotEnded } from '../scheduler/daemon.js';
import type { JobSpec } from '../scheduler/jobSpec.js';
import { writeRowsFile } from '../scheduler/rowsFile.js';
import { startIntakeApp } from './app/server.js';
import { demoAgent } from './demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK, SCHEDULE_PATIENTS, submissionProblems, type PatientParams } from './patients.js';

/** Every few seconds: the demo waits for one slot, not for a minute to turn. */
const DEMO_CRON = '*/4 * * * * *';
const SCHEDULE_NAME = 'intake-demo';

export type ScheduleDemoResult = {
  recording: { status: string; steps: number; agentCalls: number };
  slot: SlotEnded;
  /** Per row of the CSV: what the server received against what the row asked for. */
  checks: { row: number; patient: string; ok: boolean; problems: string[] }[];
};

export type ScheduleDemoOptions = {
  /** The agents a schedule may name (the CLI's table): the slot's rows use the demo agent. */
  agents: AgentCatalog;
  /** The store; removed first. Default `.rote/demo-schedule.db`. */
  store?: string;
  log?: (line: string) => void;
};

/**
 * The unattended flow on the demo app: record the intake task once (the offline demo agent), write
 * a CSV of six other patients, schedule the task every few seconds over it with 2 rows at once,
 * run the daemon until its first slot is done, then check every submission on the server.
 */
export async function runScheduleDemo(options: ScheduleDemoOptions): Promise<ScheduleDemoResult> {
  const storePath = options.store ?? '.rote/demo-schedule.db';
  const log = options.log ?? (() => undefined);
  mkdirSync(dirname(storePath), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '.daemon.lock']) rmSync(`${storePath}${suffix}`, { force: true });
  const rowsFile = join(dirname(storePath), 'demo-patients.csv');
  writeRowsFile(rowsFile, '.csv', rowsOf(SCHEDULE_PATIENTS));
  const app = await startIntakeApp();
  const rote = await Rote.open({ store: storePath });
  const browsers = unattendedBrowsers();
  try {
    const browser = await browsers.get();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(app.url);
    const recorded = await rote.run(page, { task: INTAKE_TASK, params: DEMO_PATIENTS[0]!, agent: demoAgent(page) });
    await context.close();
    log(`Recorded "${INTAKE_TASK}": ${recorded.status}, ${recorded.steps.length} steps, ${recorded.agentCalls} agent calls.`);
    app.reset();

    const job: JobSpec = { task: recorded.taskKey, url: app.url, params: {}, rowsFile, secrets: {}, agent: 'demo', mode: 'auto', concurrency: 2, retry: { attempts: 2, backoffMs: 1_000 }, headed: false };
    const now = Date.now();
    await rote.store.schedules.add({ id: `demo-${now}`, name: SCHEDULE_NAME, cron: DEMO_CRON, timezone: 'UTC', job, onFailure: null, enabled: true, createdAt: now, updatedAt: now });
    log(`Scheduled "${SCHEDULE_NAME}": ${DEMO_CRON} (every 4 s) over ${SCHEDULE_PATIENTS.length} patients in ${rowsFile}, 2 at once; the daemon runs until the slot is done.`);

    let resolveSlot!: (slot: SlotEnded) => void;
    const firstSlot = new Promise<SlotEnded>((resolve) => (resolveSlot = resolve));
    const daemon = new Daemon({ rote, env: process.env, agents: options.agents, catchUp: 'none', browsers, log: (line) => log(`  daemon: ${line}`), onSlotEnd: resolveSlot });
    const running = daemon.run();
    const slot = await firstSlot;
    await daemon.stop('the demo slot is done');
    await running;

    const checks = SCHEDULE_PATIENTS.map((patient, index) => {
      const submission = app.submissions.find((candidate) => candidate.fields.first_name === patient.firstName && candidate.fields.last_name === patient.lastName);
      const problems = submissionProblems(patient, submission);
      if (app.submissions.filter((candidate) => candidate.fields.first_name === patient.firstName).length > 1) problems.push('submitted more than once');
      return { row: index + 1, patient: `${patient.firstName} ${patient.lastName}`, ok: problems.length === 0, problems };
    });
    return { recording: { status: recorded.status, steps: recorded.steps.length, agentCalls: recorded.agentCalls }, slot, checks };
  } finally {
    await browsers.close();
    await rote.close();
    await app.close();
  }
}

function rowsOf(patients: readonly PatientParams[]): Record<string, string>[] {
  return patients.map((patient) => Object.fromEntries(Object.entries(patient).map(([name, value]) => [name, String(value)])));
}
