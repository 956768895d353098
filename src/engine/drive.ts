import { RoteError } from '../errors/roteError.js';
import { agentTurn } from './agentTurn.js';
import { doCachedStep } from './cachedStep.js';
import { followWindow } from './followWindow.js';
import { nextCachedStep, type NextStep } from './nextCachedStep.js';
import { pageDied } from './pageAlive.js';
import type { Divergence, RunStatus } from './runResult.js';
import type { RunState, StepProblem } from './runState.js';
import { accounted } from './runTime.js';

/** How the steps of a run ended: done (replayed, mixed or by the agent), or stopped at a divergence no agent could take. */
export type RunEnd = { kind: 'done'; status: Extract<RunStatus, 'replayed' | 'mixed' | 'agent'> } | { kind: 'diverged'; divergence: Divergence };

/**
 * The run's steps, one turn at a time: while the replay is in charge, the next cached step that
 * is safe (nextCachedStep) is done (doCachedStep); at a miss or a divergence the agent takes over
 * (agentTurn), and hands back where a cached step's checks pass again. Errors (a budget, the
 * deadline, a page that died) are thrown; every other way a run ends is returned.
 */
export async function drive(run: RunState): Promise<RunEnd> {
  if (run.input.mode === 'record') run.cursor.handOver(false);
  // What the last cached step left unproven, for the next turn to read.
  let problem: StepProblem | undefined;
  for (;;) {
    run.context.throwIfStopRequested();
    await followWindow(run);
    if (!run.cursor.agentInCharge) {
      const looking = performance.now();
      const next = await nextCachedStep(run, problem);
      run.time.looked(performance.now() - looking, run.env.times?.of('wait') ?? 0);
      problem = undefined;
      switch (next.kind) {
        case 'pass':
          problem = await accounted(run.time, 'replayed', () => doCachedStep(run, next));
          continue;
        case 'finished':
          return { kind: 'done', status: run.ledger.finalStatus() };
        case 'miss':
        case 'diverged': {
          const stopped = await accounted(run.time, 'agent', () => handOver(run, next));
          if (stopped) return stopped;
        }
      }
    }
    // What the agent does to the page is not a cached step's: no crop of one stands for the next step's.
    run.env.looked = undefined;
    run.env.readBefore = undefined;
    if ((await accounted(run.time, 'agent', () => agentTurn(run))) === 'done') return { kind: 'done', status: run.ledger.finalStatus() };
  }
}

/** A miss or a divergence: the agent takes over, or (no agent, replay-only) the run stops there. */
async function handOver(run: RunState, next: Extract<NextStep, { kind: 'miss' | 'diverged' }>): Promise<RunEnd | undefined> {
  const { mode, agent } = run.input;
  // A page that died (its browser crashed) is not a page that differs: no agent can act on it.
  if (await pageDied(run.page, run.context)) throw new RoteError('page-closed', `the page closed or its browser went away before step ${run.nextStepNumber}`);
  const divergence = next.kind === 'diverged' ? next.divergence : undefined;
  if (mode === 'replay-only' || !agent) return { kind: 'diverged', divergence: divergence ?? { step: 0, reason: 'no recorded trajectory for this task yet' } };
  if (divergence) run.ledger.divergences.push(divergence);
  // After a divergence in auto mode the agent's detour may re-join the cached path, unless the
  // page loaded a document no recorded step accounts for: what the steps before entered may be
  // gone, and a re-join would skip them; nor after a step whose work is unproven (RunState.unprovenStep).
  // The agent finishes then.
  const lostEntries = run.documents.unexplained() > 0;
  run.cursor.handOver(divergence !== undefined && mode === 'auto' && !lostEntries && !run.unprovenStep);
  return undefined;
}
