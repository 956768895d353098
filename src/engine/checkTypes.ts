import type { Page } from 'playwright';
import type { Action } from '../actions/action.js';
import type { Refusal } from '../errors/refusal.js';
import type { TypeMode } from '../actions/perform.js';
import type { Target } from '../checks/fingerprint.js';
import type { BoundParams } from '../params/boundParams.js';
import type { Deadline } from '../progress/deadline.js';
import type { ToolRegistry } from '../tools/toolRegistry.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { CheckTimes } from './checkTimes.js';
import type { LookedTarget } from './cropProof.js';
import type { ReadTarget } from './readProof.js';

export type CheckPass = {
  ok: true;
  node: TrajectoryNode;
  kind: 'cached' | 'relocated';
  /** The action with parameters bound, at the target's live position. */
  action: Action;
  typeMode: TypeMode;
  /** The control already holds the recorded end state (a checkbox already checked): nothing to do. */
  alreadyDone: boolean;
  /** The live element the action lands on, where the step has a target. */
  target: Target | null;
  /** The live crop the visual check passed on (secrets painted over): the report's picture of the step. */
  crop?: Buffer;
  /**
   * How the target's look was shown: its crop compared now, or (a step typing into the element the
   * step before compared) that step's comparison, by the rule in cropProof.ts. Absent: no crop applied.
   */
  looked?: { by: 'crop' } | { by: 'step'; step: number };
  /**
   * Where the step before was settled only for now: the last look at the target once that settle
   * was confirmed (lastLook.ts), taken while the other checks went on. Absent: none was taken.
   */
  lastLook?: Promise<boolean>;
  /** The step whose read of the target stood for this step's (a key press into the element it just showed the recorded one, readProof.ts). */
  readFrom?: number;
  /**
   * How far the target stood from its recorded box, where the first read found it under the
   * recorded point (not another element picked by this run's value, not one followed where it
   * moved): how the page itself moved, for where the next step's crop is first taken.
   */
  offset?: { dx: number; dy: number };
};

/** A check that did not pass: a Refusal with the step it refused and the evidence that says why. */
export type CheckFail = Refusal & {
  node: TrajectoryNode;
  /** The failure comes from this run's values, not the page: polling longer cannot pass it. */
  permanent?: boolean;
  /** Everything else passed: the page does not show yet what the recording waited for. */
  awaiting?: boolean;
  /** A value the recording waited for was passed by a process that only moves on (permanent, too). */
  gonePast?: boolean;
  /** The page shows what the recording waited for (or went past it), yet the target's checks fail. */
  atRecordedMoment?: boolean;
  /** The page could not be captured (often the deadline cut the screenshot): it says nothing of the page. */
  uncaptured?: boolean;
  expected?: Buffer;
  actual?: Buffer;
  diff?: Buffer;
};

export type CheckResult = CheckPass | CheckFail;

/**
 * `wanted` is the time of the step before's action once its provisional settle held (a target
 * read before that gets its last look, against that action's sentinel), undefined when it did not
 * (the checks are done again on the settled page). `confirmed` turns true when it held: a read
 * begun after that came after the sentinel, and needs none.
 */
export type LastLookNeed = {
  readonly wanted: Promise<number | undefined>;
  confirmed: boolean;
  /** The time of the action whose provisional settle is being confirmed (its sentinel's name), when known at once. */
  readonly actionAt?: number;
};

export type CheckEnvironment = {
  page: Page;
  params: BoundParams;
  blob(hash: string): Promise<Buffer | undefined>;
  /** Parameters the steps done so far in this run have put on the page. */
  usedSoFar: ReadonlySet<string>;
  /** This run's values, hashed as the recording hashed its unused ones. */
  valueHashes: Readonly<Record<string, string>>;
  /** The Rote's custom tools: a tool step's own pre-check runs here. */
  tools?: ToolRegistry;
  /** The run's deadline: every capture and wait of a check ends by it, whatever the check's own patience. */
  deadline: Deadline;
  /**
   * New documents the page loaded (or is loading) that no recorded step accounts for: since the
   * last step that loaded one when recorded, or the agent last looked at the page.
   */
  unexplainedLoads?: () => number;
  /** The window the run acts in now (see RunWindows): 0, the run's own page, unless a page opened one. */
  window?: number;
  /** Where the checks of the step being looked for add their time (see CheckTimes). */
  times?: CheckTimes;
  /** The element the step just done compared its crop on, while it may answer the next step's (cropProof.ts). */
  looked?: LookedTarget;
  /** The target the step just done read, while it may answer the next step's read (readProof.ts). */
  readBefore?: ReadTarget;
  /** While the step before's provisional settle is being confirmed: whether a target read needs its last look (lastLook.ts). */
  lastLookNeed?: LastLookNeed;
  /**
   * How far the target of the last cached step done stood from where it was recorded (content
   * above it taller, the page scrolled further; CheckPass.offset): where the next step's crop is
   * first taken (visualCheck.ts). Only a guess of where to capture: the crop compared is always the
   * one where its target is found.
   */
  offset?: { dx: number; dy: number };
};

