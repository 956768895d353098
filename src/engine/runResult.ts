import type { Action } from '../actions/action.js';
import type { AgentUsage, StepKind } from '../agent/agent.js';
import type { RoteErrorCode } from '../errors/roteError.js';
import type { DialogEvent } from './dialogGuard.js';
import type { CheckTimings } from './checkTimes.js';
import type { RunTime } from './runTime.js';

/**
 * replayed: every step from the cache. mixed: cache and agent. agent: the agent did it all.
 * diverged: a cached step could not be shown safe and no agent could take over. failed: an error,
 * the agent gave up, a budget or the deadline. interrupted: the caller stopped it (`stop` or
 * `signal`); the step in progress had finished, nothing of it is learned.
 */
export type RunStatus = 'replayed' | 'mixed' | 'agent' | 'diverged' | 'failed' | 'interrupted';
export type RunMode = 'auto' | 'replay-only' | 'record';

export type StepResult = {
  index: number;
  kind: StepKind;
  /** As performed: parameters bound, at the target's live position. */
  action: Action;
  intent?: string;
  /** Time for the whole step: checks, action and settling. */
  durationMs: number;
  /** Time spent in the pre-checks (cached and relocated steps). */
  checkMs: number;
  /**
   * For a cached or relocated step: milliseconds in each check before it, in the order they ran
   * (documents, window, values, url, valuesAhead, watchedValues, tool, target, visual, select,
   * wait), summed over every candidate and every poll. `checkMs` also holds what lies between
   * them (choosing among candidates, pauses between polls).
   */
  checks?: CheckTimings;
  /**
   * For a cached or relocated step: milliseconds from its action's start to the page settled after
   * it; for a step that stays on its document as recorded, to its action's end (its page is settled
   * beside the next step's checks, whose `checkMs` holds that time).
   */
  actMs?: number;
  /**
   * For a step that typed into the element the step before had just compared its crop on (same
   * element, same box, same document, nothing over it): that step's number, whose comparison
   * stood for this step's crop check (see docs/checks.md).
   */
  cropFrom?: number;
  /**
   * For a step that typed or pressed a key into the element the step before had just read and
   * shown the recorded target, with nothing in the page changed since: that step's number (or the
   * step whose read it leaned on in turn), whose read stood for this step's (see docs/checks.md).
   */
  readFrom?: number;
};

/** Where a cached step could not be shown safe, with the evidence that says why. */
export type Divergence = {
  /** Index in `steps` of the step that would have come next (0-based; every message says `step index + 1`). */
  step: number;
  /** The recorded step that could not be shown safe: its action (with templates) and node. */
  action?: Action;
  nodeId?: string;
  intent?: string;
  reason: string;
  /**
   * The recorded crop, the live crop and their pixel diff: from the visual check when it failed,
   * else the live page where the target was recorded (renamed, covered, gone), when the step has a crop.
   */
  expected?: Buffer;
  actual?: Buffer;
  diff?: Buffer;
};

export type RunResult = {
  runId: string;
  status: RunStatus;
  task: string;
  /** The cache key the run used. */
  taskKey: string;
  steps: StepResult[];
  cachedSteps: number;
  relocatedSteps: number;
  agentSteps: number;
  agentCalls: number;
  /** What the agent's answers cost, as the agent reported it (zero for agents that do not). */
  usage: AgentUsage;
  divergences: Divergence[];
  durationMs: number;
  /** Where `durationMs` went: replayed steps, their checks, waits for what the recording waited for, the agent, the rest. */
  time: RunTime;
  /** The agent's final answer, when it gave one. */
  answer?: string;
  /** For 'diverged', 'failed' and 'interrupted': what happened, naming the step, then the steps that ran. */
  error?: string;
  /**
   * For 'failed': what kind of failure (a RoteError code; 'page-closed' when the page or its browser
   * went away). A scheduler retries the kinds that may pass (a browser crash, a timeout, a model
   * error), never a bad parameter.
   */
  errorCode?: RoteErrorCode;
  /**
   * What the run met that whoever keeps the store should hear of, though the run went on: a
   * stored step that cannot be read (damaged, hand-edited) and so was a miss, naming the step.
   */
  warnings?: string[];
  /** The native dialogs of the run and what was done with each (see DialogEvent): present when there were any. */
  dialogs?: DialogEvent[];
};
