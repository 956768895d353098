import { startIntakeApp } from '../demo/app/server.js';
import { runDemo, type DemoRun } from '../demo/runDemo.js';
import { runScheduleDemo } from '../demo/scheduleDemo.js';
import { agentByName } from './agentByName.js';
import { chooseAgent, type AgentChoiceOptions } from './agentChoice.js';
import { formatTable } from './table.js';

export type DemoCommandOptions = AgentChoiceOptions & { json?: boolean; store?: string; schedule?: boolean; serve?: boolean; port?: number };

/**
 * `rote demo`: four runs against the legacy intake app; exit code 1 when a check fails. The agent
 * is a model when the environment names one (see chooseAgent), else the offline demo agent.
 */
export async function demoCommand(options: DemoCommandOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const say = (line: string) => {
    if (!options.json) process.stdout.write(`${line}\n`);
  };
  if (options.serve) return serveDemo(options.port ?? 3000);
  if (options.schedule) return scheduleDemoCommand(options, say);
  const agent = chooseAgent(options, env);
  say('rote demo: a legacy "Patient intake" form served on 127.0.0.1, driven in headless Chromium.');
  say(`Agent: ${agent.description}.`);
  if (agent.model) {
    say('The model is asked only where the cache cannot go; its requests (retries included) and tokens are counted per run.\n');
  } else {
    say('The offline demo agent is an honest stand-in for a model that reads the live page (its DOM) to decide');
    say('each answer; every answer counts as one agent call. No model service is called. Set OPENAI_API_KEY to use a model.\n');
  }
  const runs = await runDemo({
    ...(options.store ? { store: options.store } : {}),
    ...(agent.create ? { agent: agent.create } : {}),
    onRun: (run) => {
      say(`Run ${run.run}: ${run.scenario}`);
      const header = ['status', 'cached', 'relocated', 'agent steps', 'agent calls', ...(agent.model ? ['model calls', 'tokens'] : []), 'time'];
      const usage = agent.model ? [run.modelCalls, run.inputTokens + run.outputTokens] : [];
      say(indent(formatTable(header, [[run.status, run.cachedSteps, run.relocatedSteps, run.agentSteps, run.agentCalls, ...usage, `${(run.durationMs / 1000).toFixed(2)} s`]])));
      if (run.divergence) say(`  diverged at ${run.divergence}`);
      say(`  server check: ${run.submissionOk ? 'the submission holds this run\'s values' : `FAILED: ${run.problems.join('; ')}`}\n`);
    },
  });
  const failures = checkDemo(runs);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(runs)}\n`);
  } else {
    say(failures.length === 0 ? 'All four runs submitted the right values; runs 2 and 4 made no agent call.' : `Demo checks failed:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  }
  return failures.length === 0 ? 0 : 1;
}

/**
 * `rote demo --schedule`: the unattended flow (see runScheduleDemo). Exit 0 when the slot
 * succeeded, every row was submitted right, and no row needed the agent after the recording.
 */
async function scheduleDemoCommand(options: DemoCommandOptions, say: (line: string) => void): Promise<number> {
  say('rote demo --schedule: record once, then a schedule runs the task over a CSV of patients, unattended.');
  const store = options.store === undefined || options.store === '.rote/demo.db' ? '.rote/demo-schedule.db' : options.store;
  const result = await runScheduleDemo({ store, log: say, agents: agentByName });
  const summary = result.slot.summary;
  const failures = [
    ...(result.slot.status === 'succeeded' ? [] : [`the slot ended ${result.slot.status}${result.slot.reason ? `: ${result.slot.reason}` : ''}`]),
    ...result.checks.filter((check) => !check.ok).map((check) => `row ${check.row} (${check.patient}): ${check.problems.join('; ')}`),
    ...(summary && summary.agentCalls > 0 ? [`the rows made ${summary.agentCalls} agent calls; a replay should make none`] : []),
  ];
  if (summary) {
    say('');
    say(formatTable(['row', 'patient', 'status', 'cached', 'agent calls', 'attempts', 'time', 'server check'], summary.results.map((row) => {
      const check = result.checks.find((candidate) => candidate.row === row.row);
      return [row.row, check?.patient ?? '', row.status, row.cachedSteps, row.agentCalls, row.attempts, `${(row.durationMs / 1000).toFixed(2)} s`, check?.ok ? 'right values' : 'WRONG'];
    })));
    say('');
    say(`${summary.rows} rows: ${summary.replayed} replayed, ${summary.handedOver} handed over, ${summary.failed} failed; ${summary.agentCalls} agent calls; the slot took ${(summary.durationMs / 1000).toFixed(1)} s.`);
  }
  say(failures.length === 0 ? 'Every row was submitted with its own values, all from the cache.' : `Demo checks failed:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  if (options.json) process.stdout.write(`${JSON.stringify({ recording: result.recording, slot: { status: result.slot.status, at: new Date(result.slot.slotAt).toISOString(), reason: result.slot.reason ?? null }, summary, checks: result.checks })}\n`);
  return failures.length === 0 ? 0 : 1;
}

/** What the demo promises: right values every time, no agent call on runs 2 and 4, a cheap takeover on run 3. */
export function checkDemo(runs: DemoRun[]): string[] {
  const failures: string[] = [];
  for (const run of runs) {
    if (!run.submissionOk) failures.push(`run ${run.run}: ${run.problems.join('; ') || 'a destructive click was recorded'}`);
  }
  for (const index of [1, 3]) {
    const run = runs[index];
    if (run && (run.agentCalls !== 0 || run.status !== 'replayed')) failures.push(`run ${run.run}: expected a full replay with no agent call, got ${run.status} with ${run.agentCalls} calls`);
  }
  const takeover = runs[2];
  if (takeover && (takeover.stepsLeftAtDivergence === null || takeover.agentCalls >= takeover.stepsLeftAtDivergence)) {
    failures.push(`run 3: expected fewer agent calls (${takeover.agentCalls}) than steps left at the divergence (${takeover.stepsLeftAtDivergence ?? 'no divergence'})`);
  }
  return failures;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

/**
 * `rote demo --serve`: the demo's intake form on 127.0.0.1 until Ctrl+C (or SIGTERM), for a first
 * recording and replay by hand; each form the server receives is printed, so a replay's values can
 * be seen arriving.
 */
async function serveDemo(port: number): Promise<number> {
  const app = await startIntakeApp({ port });
  process.stdout.write(`rote demo --serve: the intake form is at ${app.url} (Ctrl+C stops it)\n`);
  let shown = 0;
  const poll = setInterval(() => {
    for (const submission of app.submissions.slice(shown)) {
      process.stdout.write(`received: ${Object.entries(submission.fields).map(([name, value]) => `${name}=${value}`).join(', ')}\n`);
    }
    shown = app.submissions.length;
  }, 250);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(poll);
  await app.close();
  return 0;
}
