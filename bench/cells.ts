import type { Browser } from 'playwright';
import type { CheckTimings } from '../src/engine/checkTimes.js';
import type { RunResult } from '../src/engine/runResult.js';
import type { RunTime } from '../src/engine/runTime.js';
import { Rote } from '../src/rote.js';
import type { BenchApp, BenchAppSpec, BenchParams, ExpectedOutcome, PerturbationName, ValueCellName } from './apps/contract.js';
import { PERTURBATIONS, VALUE_CELLS } from './apps/contract.js';

export type CellKind = 'record' | 'new-values' | PerturbationName | ValueCellName;

/** One run of one app under one condition, checked on the server. */
export type CellResult = {
  app: BenchAppSpec['name'];
  cell: CellKind;
  /** 1 for the first time rote meets the condition, 2 for the next (the detour learnt). */
  meeting: number;
  expected: ExpectedOutcome | 'agent';
  status: RunResult['status'];
  success: boolean;
  problems: string[];
  /** Destructive clicks plus wrong values submitted: what rote must never cause. */
  wrongActions: number;
  cachedSteps: number;
  relocatedSteps: number;
  agentSteps: number;
  agentCalls: number;
  /** Agent calls of an agent-only run of the same cell (a fresh store, the agent does everything). */
  agentOnlyCalls: number | null;
  wallMs: number;
  /** Pre-check time of each cached or relocated step. */
  checkMs: number[];
  /** Each cached or relocated step's time by check (StepResult.checks), in the order of checkMs. */
  checkTimes: CheckTimings[];
  /** Each cached or relocated step's action and settling (StepResult.actMs). */
  actMs: number[];
  /** Where the run's time went (RunResult.time), and what lay outside it (planning, the commit): wallMs - durationMs. */
  time: RunTime & { outside: number };
  met: boolean;
  divergence: string | null;
};

export const VIEWPORT = { width: 1280, height: 800 };

/** Runs the app's task once through rote on a fresh page. */
export async function runThroughRote(
  browser: Browser,
  rote: Rote,
  spec: BenchAppSpec,
  app: BenchApp,
  paramsIndex: number,
  mode: 'auto' | 'record' = 'auto',
  valueCell?: ValueCellName,
): Promise<{ result: RunResult; wallMs: number; problems: string[]; destructive: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const destructiveBefore = app.destructiveClicks;
  const submissionsBefore = app.submissions.length;
  try {
    await page.goto(app.startUrl);
    const params = paramsFor(spec, paramsIndex, valueCell);
    const started = performance.now();
    const result = await rote.run(page, { task: spec.taskText?.(params) ?? spec.task, params, agent: spec.agent(page), mode, checkTimeout: 2500 });
    const wallMs = performance.now() - started;
    const problems = app.submissions.length > submissionsBefore ? spec.verify(app, params).filter((problem) => !/destructive/.test(problem)) : ['no submission'];
    return { result, wallMs, problems, destructive: app.destructiveClicks - destructiveBefore };
  } finally {
    await context.close();
  }
}

/** The values of run `index`: the app's own, or those its value cell stresses. */
export function paramsFor(spec: BenchAppSpec, index: number, valueCell?: ValueCellName): BenchParams {
  if (valueCell === undefined) return spec.params(index);
  const values = spec.valueCells?.[valueCell];
  if (!values) throw new Error(`${spec.name} has no value cell ${valueCell}`);
  return values(index);
}

/** Runs the plain Playwright baseline once on a fresh page; returns its wall time. */
export async function runBaseline(browser: Browser, spec: BenchAppSpec, app: BenchApp, paramsIndex: number): Promise<{ wallMs: number; problems: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  try {
    await page.goto(app.startUrl);
    const params = spec.params(paramsIndex);
    const started = performance.now();
    await spec.baseline(page, params);
    const wallMs = performance.now() - started;
    return { wallMs, problems: spec.verify(app, params) };
  } finally {
    await context.close();
  }
}

/** Whether a run reached what its condition demands. */
export function metExpectation(expected: CellResult['expected'], cell: Omit<CellResult, 'met'>): boolean {
  if (cell.wrongActions > 0 || !cell.success) return false;
  switch (expected) {
    case 'agent':
      return true;
    case 'hit':
      return cell.status === 'replayed' && cell.agentCalls === 0;
    case 'relocated':
      return cell.status === 'replayed' && cell.agentCalls === 0 && cell.relocatedSteps > 0;
    case 'takeover':
    case 'handled':
      // The first meeting may hand over; the second must replay the learnt detour.
      return cell.meeting === 1 ? true : cell.agentCalls === 0;
    case 'takeover-each-load':
      // What the step waits for differs on every load: a learnt detour cannot apply again, and a
      // hand-over each time is right; stopping anywhere but where the task says is not.
      return true;
    case 'never-destructive':
      return true;
  }
}

export function expectedOutcome(cell: CellKind): CellResult['expected'] {
  if (cell === 'record') return 'agent';
  if (cell === 'new-values') return 'hit';
  if (cell in VALUE_CELLS) return VALUE_CELLS[cell as ValueCellName];
  return PERTURBATIONS[cell as PerturbationName];
}

export function cellFrom(
  spec: BenchAppSpec,
  cell: CellKind,
  meeting: number,
  run: { result: RunResult; wallMs: number; problems: string[]; destructive: number },
  agentOnlyCalls: number | null,
): CellResult {
  const { result } = run;
  const expected = expectedOutcome(cell);
  const replayedSteps = result.steps.filter((step) => step.kind !== 'agent');
  // A run that says it finished but left wrong values on the server made wrong actions.
  const claimedSuccess = result.status !== 'failed' && result.status !== 'diverged';
  const wrongValues = claimedSuccess && run.problems.length > 0 && !run.problems.includes('no submission') ? 1 : 0;
  const base: Omit<CellResult, 'met'> = {
    app: spec.name,
    cell,
    meeting,
    expected,
    status: result.status,
    success: claimedSuccess && run.problems.length === 0,
    problems: result.error ? [result.error.split('\n')[0]!, ...run.problems] : run.problems,
    wrongActions: run.destructive + wrongValues,
    cachedSteps: result.cachedSteps,
    relocatedSteps: result.relocatedSteps,
    agentSteps: result.agentSteps,
    agentCalls: result.agentCalls,
    agentOnlyCalls,
    wallMs: Math.round(run.wallMs),
    checkMs: replayedSteps.map((step) => step.checkMs),
    checkTimes: replayedSteps.map((step) => step.checks ?? {}),
    actMs: replayedSteps.map((step) => step.actMs ?? 0),
    time: { ...result.time, outside: Math.max(0, Math.round(run.wallMs - result.durationMs)) },
    divergence: result.divergences[0] ? `step ${result.divergences[0].step + 1}: ${result.divergences[0].reason}` : null,
  };
  return { ...base, met: metExpectation(expected, base) };
}
