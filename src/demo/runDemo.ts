import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Agent } from '../agent/agent.js';
import { launchBrowser } from '../browser/launch.js';
import type { RunStatus } from '../engine/runResult.js';
import { isPostgresUrl } from '../store/store.js';
import { Rote } from '../rote.js';
import { startIntakeApp, type Perturbations } from './app/server.js';
import { demoAgent } from './demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK, submissionProblems, type PatientParams } from './patients.js';

export type DemoRun = {
  run: number;
  scenario: string;
  status: RunStatus;
  cachedSteps: number;
  relocatedSteps: number;
  agentSteps: number;
  agentCalls: number;
  /** Model requests behind the agent calls (retries included) and their tokens; zero for the offline agent. */
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
  /** Steps still to do when the cached path diverged (run 3), for comparison with the agent calls. */
  stepsLeftAtDivergence: number | null;
  divergence: string | null;
  submissionOk: boolean;
  problems: string[];
  destructiveClicks: number;
};

type Scenario = { name: string; perturbations: Partial<Perturbations>; patient: PatientParams };

const SCENARIOS: Scenario[] = [
  { name: 'first time: a miss, the agent does it, rote records it', perturbations: {}, patient: DEMO_PATIENTS[0]! },
  { name: 'new values: replayed from the cache', perturbations: {}, patient: DEMO_PATIENTS[1]! },
  { name: 'session popup: takeover at the diverging step, re-join', perturbations: { sessionPopup: true }, patient: DEMO_PATIENTS[2]! },
  { name: 'session popup again: the detour is replayed too', perturbations: { sessionPopup: true }, patient: DEMO_PATIENTS[3]! },
];

export type DemoOptions = {
  /** Store file, removed first so run 1 is always a miss (default `.rote/demo.db`), or a postgres:// URL. */
  store?: string;
  /** The agent to use on misses and divergences; default the offline demo agent reading the DOM. */
  agent?: (page: import('playwright').Page) => Agent;
  onRun?: (run: DemoRun) => void;
};

/** The four demo runs against the legacy intake app, each checked on the server. */
export async function runDemo(options: DemoOptions = {}): Promise<DemoRun[]> {
  const storePath = options.store ?? '.rote/demo.db';
  // A SQLite file is the demo's own and starts empty. A PostgreSQL server may hold anything, so
  // nothing is deleted there: a tag of this demo's own gives its task a key no earlier run learned.
  const tags = isPostgresUrl(storePath) ? [`demo-${randomUUID().slice(0, 8)}`] : [];
  if (storePath !== ':memory:' && tags.length === 0) {
    mkdirSync(dirname(storePath), { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${storePath}${suffix}`, { force: true });
  }
  const app = await startIntakeApp();
  const browser = await launchBrowser();
  const rote = await Rote.open({ store: storePath });
  const runs: DemoRun[] = [];
  try {
    let recordedSteps = 0;
    for (const [index, scenario] of SCENARIOS.entries()) {
      app.reset();
      app.setPerturbations(scenario.perturbations);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(app.url);
      const agent = (options.agent ?? demoAgent)(page);
      const result = await rote.run(page, { task: INTAKE_TASK, params: scenario.patient, agent, tags });
      await context.close();
      const divergence = result.divergences[0];
      const problems = submissionProblems(scenario.patient, app.submissions[0]);
      if (app.submissions.length > 1) problems.push(`the server received ${app.submissions.length} submissions`);
      const run: DemoRun = {
        run: index + 1,
        scenario: scenario.name,
        status: result.status,
        cachedSteps: result.cachedSteps,
        relocatedSteps: result.relocatedSteps,
        agentSteps: result.agentSteps,
        agentCalls: result.agentCalls,
        modelCalls: result.usage.modelCalls,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        durationMs: result.durationMs,
        stepsLeftAtDivergence: divergence ? Math.max(0, recordedSteps - divergence.step) : null,
        divergence: divergence ? `step ${divergence.step + 1}: ${divergence.reason}` : null,
        submissionOk: problems.length === 0 && app.destructiveClicks.length === 0,
        problems: result.error ? [result.error.split('\n')[0]!, ...problems] : problems,
        destructiveClicks: app.destructiveClicks.length,
      };
      if (index === 0) recordedSteps = result.steps.length;
      runs.push(run);
      options.onRun?.(run);
    }
  } finally {
    await rote.close();
    await browser.close();
    await app.close();
  }
  return runs;
}
