import { runDemo, type DemoRun } from '../demo/runDemo.js';
import { formatTable } from './table.js';

export type DemoCommandOptions = { json?: boolean; store?: string };

/** `rote demo`: four runs against the legacy intake app; exit code 1 when a check fails. */
export async function demoCommand(options: DemoCommandOptions): Promise<number> {
  const say = (line: string) => {
    if (!options.json) process.stdout.write(`${line}\n`);
  };
  say('rote demo: a legacy "Patient intake" form served on 127.0.0.1, driven in headless Chromium.');
  say('The agent is the offline demo agent: an honest stand-in for a model that reads the live page (its DOM)');
  say('to decide each answer; every answer counts as one agent call. No model service is called.\n');
  const runs = await runDemo({
    ...(options.store ? { store: options.store } : {}),
    onRun: (run) => {
      say(`Run ${run.run}: ${run.scenario}`);
      say(indent(formatTable(['status', 'cached', 'relocated', 'agent steps', 'agent calls', 'time'], [[run.status, run.cachedSteps, run.relocatedSteps, run.agentSteps, run.agentCalls, `${(run.durationMs / 1000).toFixed(2)} s`]])));
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
