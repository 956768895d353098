import { randomUUID } from 'node:crypto';
import type { Action } from '../actions/action.js';
import type { AgentUsage, StepKind } from '../agent/agent.js';
import type { JsonValue } from '../params/jsonValues.js';
import type { BoundParams } from '../params/boundParams.js';
import type { RoteErrorCode } from '../errors/roteError.js';
import { redactSecrets } from '../params/secret.js';
import type { NodeLink, NodeStat } from '../store/rows.js';
import type { Divergence, RunResult, RunStatus, StepResult } from './runResult.js';
import type { StepPictures } from './runImages.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { PathSightings } from './runCommit.js';
import type { DialogEvent } from './dialogGuard.js';
import type { RunTimeAccount } from './runTime.js';
import type { CheckTimings } from './checkTimes.js';

/**
 * What one run has done so far and will leave behind: its steps (as performed and as stored),
 * divergences, crops, what it learned about stored nodes, and what the agent cost. The run loop
 * writes it; the commit and the result read it.
 */
export class RunLedger {
  readonly runId = randomUUID();
  readonly steps: StepResult[] = [];
  /** The node behind each step, by index. */
  readonly stepNodes: string[] = [];
  /** Each step's action with templates in place of parameter values: what logs and the store get. */
  readonly storedActions: Action[] = [];
  readonly divergences: Divergence[] = [];
  /** Crops of new nodes, by content hash, until the commit. */
  readonly crops = new Map<string, Buffer>();
  readonly stats: NodeStat[] = [];
  private readonly linkChanges = new Map<string, NodeLink>();
  /** Tool results by step index, shown to the agent in its observations and never stored. */
  readonly toolResults = new Map<number, JsonValue>();
  readonly usage: AgentUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  /** Pictures for the report, by step index (secrets painted over); encoded after the run. */
  readonly pictures = new Map<number, StepPictures>();
  /** The screen the agent saw before its last call, until the first step of that call takes it. */
  private screenBeforeCall: Buffer | undefined;
  /** A failed run's last screen. */
  finalScreen: Buffer | undefined;
  agentCalls = 0;
  answer: string | undefined;
  /**
   * Where recorded ways on both fitted and nothing told them apart: the steps that were options,
   * and the steps whose end was one. What the agent does there is learned under this run's exact
   * values, even where a learned path already fitted them.
   */
  readonly forks = { steps: new Set<string>(), ends: new Set<string>() };
  /** For the agent's steps, by index: parameters a form control showed just before the step acted, and once it had. */
  readonly shown = new Map<number, { before: readonly string[]; after: readonly string[] }>();
  /** The agent said the task was done. */
  endedByAgent = false;
  /** The end the agent said is on a stored step that was no end before. */
  newEnd = false;

  /** What path learning reads of the run (see pathLearning.ts). */
  get pathSightings(): PathSightings {
    return { shown: this.shown, endedByAgent: this.endedByAgent, newEnd: this.newEnd, forks: this.forks };
  }

  forkBetween(options: readonly TrajectoryNode[], end: TrajectoryNode | undefined): void {
    options.forEach((node) => this.forks.steps.add(node.id));
    if (end) this.forks.ends.add(end.id);
  }

  /** An agent call saw this screen (undefined: one not known free of secrets): the first step it answers with shows it in the report. */
  sawScreen(screenshot: Buffer | undefined): void {
    this.screenBeforeCall = screenshot;
  }

  pushStep(step: { kind: StepKind; action: Action; stored: Action; intent: string | undefined; startedAt: number; checkMs: number; checks?: CheckTimings; actMs?: number; cropFrom?: number | undefined; readFrom?: number | undefined; nodeId: string; crop?: Buffer | undefined }): void {
    const pictures: StepPictures = {};
    if (step.crop) pictures.thumb = step.crop;
    if (step.kind === 'agent' && this.screenBeforeCall) pictures.page = this.screenBeforeCall;
    if (step.kind === 'agent') this.screenBeforeCall = undefined;
    if (pictures.thumb || pictures.page) this.pictures.set(this.steps.length, pictures);
    this.storedActions.push(step.stored);
    const result: StepResult = { index: this.steps.length, kind: step.kind, action: step.action, durationMs: Date.now() - step.startedAt, checkMs: step.checkMs };
    if (step.actMs !== undefined) result.actMs = step.actMs;
    if (step.cropFrom !== undefined) result.cropFrom = step.cropFrom;
    if (step.readFrom !== undefined) result.readFrom = step.readFrom;
    if (step.intent) result.intent = step.intent;
    if (step.checks) result.checks = step.checks;
    this.steps.push(result);
    this.stepNodes.push(step.nodeId);
  }

  /** A stored node was used (hit) or could not be shown safe (miss). */
  noteUse(id: string, hit: boolean): void {
    this.stats.push({ id, hit, usedAt: Date.now(), succeeded: hit });
  }

  /** A change to a stored node's links, merged with earlier changes to it. */
  link(change: NodeLink): void {
    this.linkChanges.set(change.id, { ...this.linkChanges.get(change.id), ...change });
  }

  get links(): NodeLink[] {
    return [...this.linkChanges.values()];
  }

  addUsage(usage: AgentUsage | undefined): void {
    if (!usage || typeof usage.modelCalls !== 'number') return;
    this.usage.modelCalls += usage.modelCalls;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
  }

  count(kind: StepKind): number {
    return this.steps.filter((step) => step.kind === kind).length;
  }

  /** replayed: no agent call at all; mixed: the agent and the cache; agent: the agent alone. */
  finalStatus(): Extract<RunStatus, 'replayed' | 'mixed' | 'agent'> {
    if (this.agentCalls === 0) return 'replayed';
    return this.steps.length > this.count('agent') ? 'mixed' : 'agent';
  }

  /** The run's result; secret values never leave the run, not in its result nor in what is stored from it. */
  result(input: { status: RunStatus; error: string | undefined; errorCode: RoteErrorCode | undefined; task: string; taskKey: string; startedAt: number; callLog: string; params: BoundParams; warnings: readonly string[]; dialogs: readonly DialogEvent[]; time: RunTimeAccount }): RunResult {
    const durationMs = Date.now() - input.startedAt;
    const result: RunResult = {
      runId: this.runId,
      status: input.status,
      task: input.task,
      taskKey: input.taskKey,
      steps: this.steps,
      cachedSteps: this.count('cached'),
      relocatedSteps: this.count('relocated'),
      agentSteps: this.count('agent'),
      agentCalls: this.agentCalls,
      usage: { ...this.usage },
      divergences: this.divergences,
      durationMs,
      time: input.time.of(durationMs),
    };
    if (this.answer !== undefined) result.answer = this.answer;
    if (input.error) result.error = `${input.error}\nSteps that ran:\n${input.callLog || '  (none)'}`;
    if (input.errorCode) result.errorCode = input.errorCode;
    if (input.warnings.length > 0) result.warnings = [...input.warnings];
    if (input.dialogs.length > 0) result.dialogs = [...input.dialogs];
    return redactResult(result, input.params);
  }
}

function redactResult(result: RunResult, params: BoundParams): RunResult {
  if (!params.hasSecrets) return result;
  const redact = (text: string) => redactSecrets(text, params);
  result.task = redact(result.task);
  if (result.answer !== undefined) result.answer = redact(result.answer);
  if (result.error !== undefined) result.error = redact(result.error);
  if (result.warnings !== undefined) result.warnings = result.warnings.map(redact);
  for (const divergence of result.divergences) {
    divergence.reason = redact(divergence.reason);
    if (divergence.intent !== undefined) divergence.intent = redact(divergence.intent);
  }
  for (const step of result.steps) if (step.intent !== undefined) step.intent = redact(step.intent);
  return result;
}
