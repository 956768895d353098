/**
 * Row and input types of the Store. They are written out rather than inferred from the schema, so
 * the package's declarations do not carry Drizzle's (a project that type-checks its dependencies
 * would check those too); rowTypes.check.ts fails the build when one drifts from the schema.
 *
 * JSON columns are parsed: `tags` and `paramNames` are `string[]`; node and step `action`,
 * `fingerprint`, `box`, `cropRect`, `masks` and `state`, and a run's `events` and `time`, are
 * `unknown`, to be validated by the caller, which owns those shapes. `endsRun` is a boolean, `bytes`
 * a Buffer, timestamps epoch milliseconds.
 */
import type { RunStatus, StepKind, StepOutcome } from './columnValues.js';

export type TaskRow = {
  id: string;
  taskTemplate: string;
  tags: string[];
  startUrl: string;
  paramNames: string[];
  paramSchema: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
};

/**
 * A JSON column of a node that is not JSON (a hand edit, a damaged page): read as this instead of
 * failing the whole read, so the row is a miss that names itself, not a failed run (trajectoryNode.ts).
 */
export class UnreadableColumn {
  constructor(
    readonly column: string,
    readonly reason: string,
  ) {}
}
/** A task with the number of its nodes (`Store.listTasks`). */
export type TaskSummary = TaskRow & { nodes: number };
export type NodeRow = {
  id: string;
  taskId: string;
  parentId: string | null;
  /** Where a detour re-joined the recorded path. */
  resumeAtId: string | null;
  action: unknown;
  intent: string | null;
  url: string;
  fingerprint: unknown;
  box: unknown;
  cropHash: string | null;
  cropRect: unknown;
  masks: unknown;
  state: unknown;
  endsRun: boolean;
  /** Where a run that ended here ended (templated); null where none did (or where an upgrade could not read the old state: rowState). */
  endUrl: string | null;
  hits: number;
  misses: number;
  lastUsedAt: number | null;
  lastSuccessAt: number | null;
  createdAt: number;
};
/** A node to insert: omitted nullable fields become null, counters 0, `endsRun` false. */
export type NewNodeRow = Pick<NodeRow, 'id' | 'taskId' | 'action' | 'url' | 'createdAt'> & {
  parentId?: string | null | undefined;
  resumeAtId?: string | null | undefined;
  intent?: string | null | undefined;
  fingerprint?: unknown;
  box?: unknown;
  cropHash?: string | null | undefined;
  cropRect?: unknown;
  masks?: unknown;
  state?: unknown;
  endsRun?: boolean | undefined;
  endUrl?: string | null | undefined;
  hits?: number | undefined;
  misses?: number | undefined;
  lastUsedAt?: number | null | undefined;
  lastSuccessAt?: number | null | undefined;
};
export type BlobRow = { hash: string; bytes: Buffer; size: number; createdAt: number };
export type RunRow = {
  id: string;
  taskId: string | null;
  /** The task template, never the raw parameter values. */
  task: string;
  mode: string;
  status: RunStatus;
  startedAt: number;
  endedAt: number | null;
  durationMs: number | null;
  agentCalls: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedSteps: number;
  relocatedSteps: number;
  agentSteps: number;
  error: string | null;
  pid: number;
  host: string | null;
  jobId: string | null;
  screenshotHash: string | null;
  events: unknown;
  /** The values the run was given, secrets masked; null for runs stored before values were kept. */
  params: Record<string, string> | null;
  /** Where the run's time went (the engine's RunTime), to be validated by the reader; null before it was kept, for a run that never finished, or a damaged value. */
  time: unknown;
};
export type RunStepRow = {
  id: number;
  runId: string;
  idx: number;
  nodeId: string | null;
  kind: StepKind;
  action: unknown;
  intent: string | null;
  outcome: StepOutcome;
  reason: string | null;
  durationMs: number;
  checkMs: number;
  thumbHash: string | null;
  pageHash: string | null;
  expectedHash: string | null;
  actualHash: string | null;
  diffHash: string | null;
};
/** A step to insert; images omitted are null. */
export type NewRunStepRow = Omit<RunStepRow, 'id' | StepImageKey> & Partial<Pick<RunStepRow, StepImageKey>>;
export const stepImageKeys = ['thumbHash', 'pageHash', 'expectedHash', 'actualHash', 'diffHash'] as const;
export type StepImageKey = (typeof stepImageKeys)[number];

export interface BeginRunInput {
  id: string;
  taskId: string | null;
  /** The task template, never raw parameter values. */
  task: string;
  mode: string;
  startedAt: number;
  pid: number;
  /** The machine the process runs on (os.hostname()): a pid means nothing on another host. */
  host?: string;
  /** The queue job this run does (a worker's run), so a retry of the job can close the run out. */
  jobId?: string | null;
  /** The run's values as a report shows them: secrets masked (see `shownValues`). */
  params?: Record<string, string> | null;
}

export interface NewBlob {
  /** sha256 hex of `bytes`; checked on insert so a bad hash cannot poison the cache. */
  hash: string;
  bytes: Buffer;
}

/** The outcome of using a cached node during a run. */
export interface NodeStat {
  id: string;
  /** true: hits + 1; false: misses + 1. */
  hit: boolean;
  usedAt: number;
  /** The run reached a good end through this node: lastSuccessAt = usedAt. */
  succeeded: boolean;
}

/** Changes to the links of an existing node; omitted fields are left as they are. */
export interface NodeLink {
  id: string;
  resumeAtId?: string | null;
  endsRun?: boolean;
  /** The URL a run ended on here (templated), for the end check: its own column, set in place. */
  endUrl?: string;
  /** Items a run learned about the node, added to lists in its state (each once; see statePatch.ts). */
  state?: { add: Record<string, unknown[]> };
}

/** A run row's fields once the run is over, as commitRun writes them (the engine's RunResult is what the caller gets). */
export interface FinishedRun {
  id: string;
  taskId: string | null;
  status: Exclude<RunStatus, 'running'>;
  endedAt: number;
  durationMs: number;
  agentCalls: number;
  cachedSteps: number;
  relocatedSteps: number;
  agentSteps: number;
  /** Model requests and tokens behind the agent calls; 0 when the agent does not report them. */
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  error: string | null;
  /** A blob of the run's last screen (failed runs), stored in the same commit. */
  screenshotHash?: string | null;
  /** What the steps do not hold (the engine's RunEvents: dialogs, handovers with no step), as JSON. */
  events?: unknown;
  /** Where the run's time went (the engine's RunTime), as JSON. */
  time?: unknown;
}

/** A finished run's columns as both dialects write them: what the run did not give is null (no screenshot, events or time). */
export function finishedRunColumns(run: FinishedRun): Required<FinishedRun> {
  return { ...run, screenshotHash: run.screenshotHash ?? null, events: run.events ?? null, time: run.time ?? null };
}

/** A trajectory stored without a run: an imported recording. */
export interface ImportedTrajectory {
  task: TaskRow;
  nodes: NewNodeRow[];
  blobs?: NewBlob[];
}

export interface CommitRunInput {
  /** Upserted: paramNames are merged with the stored ones, createdAt is kept. */
  task?: TaskRow;
  newNodes?: NewNodeRow[];
  /** Inserted unless a blob with that hash exists. */
  blobs?: NewBlob[];
  nodeStats?: NodeStat[];
  nodeLinks?: NodeLink[];
  run: FinishedRun;
  steps?: NewRunStepRow[];
  /**
   * Whether a stored node stands for a new one (the engine's rule for an equal step). With it, new
   * nodes that another run stored meanwhile under the same parent are folded into the stored ones
   * instead of being stored twice (branchMerge.ts).
   */
  sameStep?: (stored: NodeRow, fresh: NodeRow) => boolean;
}

/** Fills what the schema would default, since a prepared insert binds every column explicitly. */
export function withNodeDefaults(node: NewNodeRow): NodeRow {
  return {
    parentId: null,
    resumeAtId: null,
    intent: null,
    fingerprint: null,
    box: null,
    cropHash: null,
    cropRect: null,
    masks: null,
    state: null,
    endUrl: null,
    lastUsedAt: null,
    lastSuccessAt: null,
    ...stripUndefined(node),
    endsRun: node.endsRun ?? false,
    hits: node.hits ?? 0,
    misses: node.misses ?? 0,
  };
}

export function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
