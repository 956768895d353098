import { createHash, randomUUID } from 'node:crypto';
import type { Page } from 'playwright';
import { actionPoint, describeAction, parseAction, type Action } from '../actions/action.js';
import { performAction } from '../actions/perform.js';
import { isDone, type Agent, type Observation, type StepKind } from '../agent/agent.js';
import { navigationWatch, settle } from '../checks/settle.js';
import { targetAt } from '../checks/target.js';
import { RoteError } from '../errors/roteError.js';
import type { BoundParams } from '../params/params.js';
import { templateNames } from '../params/template.js';
import type { TaskIdentity } from '../params/taskKey.js';
import type { NewNodeRow, NodeLink, NodeStat } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { captureEvidence } from './evidence.js';
import { preCheck, type CheckEnvironment, type CheckFail, type CheckPass } from './preCheck.js';
import { doesSameWork, newNode, sameStep, templatedAction } from './recordStep.js';
import type { RunContext } from './runContext.js';
import type { Divergence, RunMode, RunResult, RunStatus, StepResult } from './runResult.js';
import type { TrajectoryNode } from './trajectoryNode.js';
import { ROOT_ID, TrajectoryView } from './trajectoryView.js';
import { checkboxParam, namesUsedBy, selectParam, semanticName, valueHash } from './paramBindings.js';

export type RunLimits = {
  /** How long a cached step's checks may wait for the page to show its target. */
  checkTimeoutMs: number;
  maxAgentCalls: number;
  maxSteps: number;
};

export type RunInput = {
  page: Page;
  store: Store;
  identity: TaskIdentity;
  task: string;
  params: BoundParams;
  agent: Agent | undefined;
  mode: RunMode;
  limits: RunLimits;
  context: RunContext;
};

/** Raised inside the loop to end a run as 'diverged'; carries the divergence. */
class StopDiverged {
  constructor(readonly divergence: Divergence) {}
}

/**
 * One run: replay what matches, ask the agent for the rest, re-join the cached path as soon as
 * a cached step's checks pass again, and commit everything in one transaction at the end.
 */
export class RunLoop {
  private readonly view: TrajectoryView;
  private readonly env: CheckEnvironment;
  private readonly steps: StepResult[] = [];
  private readonly stepNodes: (string | null)[] = [];
  private readonly divergences: Divergence[] = [];
  private readonly blobs = new Map<string, Buffer>();
  private readonly stats: NodeStat[] = [];
  private readonly links = new Map<string, NodeLink>();
  private readonly runId = randomUUID();
  private agentCalls = 0;
  private answer: string | undefined;
  /** The last node done (null: the root). */
  private position: string | null = null;
  /** Parameters the steps so far have put on the page (the hazard guard reads it). */
  private readonly usedSoFar = new Set<string>();
  private readonly valueHashes: Record<string, string>;

  constructor(private readonly input: RunInput) {
    this.view = new TrajectoryView(input.store, input.identity.key);
    this.valueHashes = Object.fromEntries(Object.entries(input.params).map(([name, value]) => [name, valueHash(input.identity.key, name, value)]));
    this.env = {
      page: input.page,
      params: input.params,
      blob: (hash) => this.blobs.get(hash) ?? input.store.getBlob(hash),
      usedSoFar: this.usedSoFar,
      valueHashes: this.valueHashes,
    };
  }

  async execute(): Promise<RunResult> {
    const { store, identity, mode, context } = this.input;
    store.beginRun({ id: this.runId, taskId: identity.key, task: identity.template, mode, startedAt: context.startedAt, pid: process.pid });
    let status: RunStatus;
    let error: string | undefined;
    try {
      navigationWatch(this.input.page);
      status = await this.loop();
    } catch (thrown) {
      if (thrown instanceof StopDiverged) {
        status = 'diverged';
        error = this.describeDivergence(thrown.divergence);
        this.divergences.push(thrown.divergence);
      } else {
        status = 'failed';
        error = `${context.apiName}: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
      }
    }
    const result = this.result(status, error);
    try {
      this.commit(result);
    } catch (commitError) {
      // The trajectory could not be stored; the run record must still not stay 'running'.
      this.markFailed(result, commitError);
      throw commitError;
    }
    return result;
  }

  private async loop(): Promise<RunStatus> {
    const { mode } = this.input;
    let agentInCharge = mode === 'record';
    /** While the agent is in charge after a divergence: the cached node it may re-join after. */
    let rejoinFrom: string | null | undefined;
    for (;;) {
      this.input.context.throwIfStopped();
      if (!agentInCharge) {
        const outcome = await this.replayNext();
        if (outcome === 'finished') return this.finalStatus();
        if (outcome === 'stepped') continue;
        // A miss or a divergence: hand over, or stop.
        if (mode === 'replay-only' || !this.input.agent) throw new StopDiverged(outcome === 'miss' ? { step: 0, reason: 'no recorded trajectory for this task yet' } : outcome);
        agentInCharge = true;
        if (outcome !== 'miss') {
          this.divergences.push(outcome);
          rejoinFrom = this.position;
        }
      }
      const turn = await this.agentTurn(mode === 'auto' ? rejoinFrom : undefined);
      if (turn.kind === 'done') return this.finalStatus();
      if (turn.kind === 'rejoined') {
        agentInCharge = false;
        rejoinFrom = undefined;
      } else if (turn.kind === 'followed') {
        rejoinFrom = turn.rejoinFrom;
      }
    }
  }

  /** Replays the next cached step, if one is safe. */
  private async replayNext(): Promise<'stepped' | 'finished' | 'miss' | Divergence> {
    const candidates = this.view.candidatesAfter(this.position);
    const here = this.position === null ? undefined : this.view.node(this.position);
    const atEnd = here?.endsRun === true;
    if (candidates.length === 0) {
      if (atEnd) return 'finished';
      if (this.position === null) return 'miss';
      return { step: this.steps.length, reason: 'the recorded trajectory stops here before the task was done' };
    }
    // At a recorded end, a child is taken only if it applies at once; otherwise the run is complete.
    const started = Date.now();
    const checked = await this.pollCandidates(candidates, atEnd ? Date.now() : this.input.context.within(this.input.limits.checkTimeoutMs));
    const checkMs = Date.now() - started;
    if (!checked.ok) {
      if (atEnd) return 'finished';
      this.stats.push({ id: checked.node.id, hit: false, usedAt: Date.now(), succeeded: false });
      const divergence: Divergence = { step: this.steps.length, reason: checked.reason };
      if (checked.node.intent) divergence.intent = checked.node.intent;
      if (checked.expected) divergence.expected = checked.expected;
      if (checked.actual) divergence.actual = checked.actual;
      if (checked.diff) divergence.diff = checked.diff;
      this.input.context.log(`step ${this.steps.length} diverged: ${checked.reason}`);
      return divergence;
    }
    await this.performCached(checked, started, checkMs);
    return 'stepped';
  }

  /** Polls the candidates until one passes every check or the deadline passes; reports the usual path's failure. */
  private async pollCandidates(candidates: TrajectoryNode[], deadline: number): Promise<CheckPass | CheckFail> {
    let firstFailure: CheckFail | undefined;
    for (;;) {
      for (const candidate of candidates) {
        const result = await preCheck(this.env, candidate, deadline);
        if (result.ok) return result;
        if (candidate === candidates[0]) firstFailure = result;
      }
      if (Date.now() >= deadline) return firstFailure!;
      await this.input.page.waitForTimeout(50);
    }
  }

  private async performCached(checked: CheckPass, started: number, checkMs: number): Promise<void> {
    const { page, context } = this.input;
    this.guardSteps();
    const commits = navigationWatch(page).commitCount;
    if (!checked.alreadyDone) await performAction(page, checked.action, checked.typeMode);
    await settle(page, commits, { timeoutMs: Math.max(0, context.deadline - Date.now()) });
    context.log(`${checked.kind} ${describeAction(checked.action)}${checked.alreadyDone ? ' (already in the recorded state)' : ''}${checked.node.intent ? ` - ${checked.node.intent}` : ''}`);
    this.pushStep(checked.kind, checked.action, checked.node.intent ?? undefined, started, checkMs, checked.node.id);
    this.stats.push({ id: checked.node.id, hit: true, usedAt: Date.now(), succeeded: true });
    this.position = checked.node.id;
    for (const name of namesUsedBy(checked.node)) this.usedSoFar.add(name);
  }

  /**
   * One agent call and the actions it answers with. After each action, follow the cached path
   * where the agent did a cached step's work, and re-join it where a cached step's checks pass.
   */
  private async agentTurn(rejoinFrom: string | null | undefined): Promise<
    { kind: 'done' } | { kind: 'rejoined' } | { kind: 'followed'; rejoinFrom: string | null | undefined }
  > {
    const { agent, page, context, limits } = this.input;
    if (!agent) throw new RoteError('invalid-argument', 'no agent was given for a step the cache cannot do');
    if (this.agentCalls >= limits.maxAgentCalls) throw new RoteError('agent', `the agent budget of ${limits.maxAgentCalls} calls is spent`);
    const observation = await this.observe();
    this.agentCalls++;
    const answer = await agent.next(observation);
    if (isDone(answer)) {
      this.answer = answer.answer;
      context.log(`agent: done${answer.answer ? ` (${answer.answer})` : ''}`);
      this.markEnd();
      return { kind: 'done' };
    }
    if (answer.actions.length === 0) throw new RoteError('agent', 'the agent answered with no actions and did not say it was done');
    for (const raw of answer.actions) {
      const action = parseAgentAction(raw);
      const node = await this.performAgentAction(action, answer.intent);
      if (rejoinFrom === undefined) continue;
      const followed = this.view.children(rejoinFrom).find((cached) => !this.view.isNew(cached.id) && doesSameWork(cached, node));
      if (followed) rejoinFrom = followed.id;
      if (await this.canRejoin(rejoinFrom)) {
        this.link(node.id, { resumeAtId: rejoinFrom ?? ROOT_ID });
        context.log(`re-joined the recorded path after ${rejoinFrom === null ? 'the start' : `node ${rejoinFrom.slice(0, 8)}`}`);
        return { kind: 'rejoined' };
      }
    }
    return { kind: 'followed', rejoinFrom };
  }

  private async canRejoin(from: string | null): Promise<boolean> {
    const cached = this.view.candidatesAfter(from).filter((node) => !this.view.isNew(node.id));
    for (const node of cached) {
      if ((await preCheck(this.env, node, Date.now())).ok) return true;
    }
    return false;
  }

  private async performAgentAction(action: Action, intent: string | undefined): Promise<TrajectoryNode> {
    const { page, params, context, identity } = this.input;
    this.guardSteps();
    const started = Date.now();
    const evidence = await captureEvidence(page, action, params);
    const commits = navigationWatch(page).commitCount;
    await performAction(page, action, evidence.state.typeMode === 'select' ? 'select' : 'keys');
    await settle(page, commits, { timeoutMs: Math.max(0, context.deadline - Date.now()) });
    const point = actionPoint(action);
    if (point && evidence.state.checkedBefore != null) {
      evidence.state.checkedAfter = (await targetAt(page, point))?.checked ?? null;
    }
    const stored = templatedAction(action, params);
    const ambiguous = [...stored.ambiguous];
    if (stored.action.type === 'type' && evidence.state.typeMode === 'select' && templateNames(stored.action.text).length === 0) {
      // The option chosen may be the parameter's value under another label ("CA" shown as "California").
      const names = await selectParam(page, params);
      if (names.length > 0) stored.action = { ...stored.action, text: `{{${names[0]}}}` };
      if (names.length > 1) ambiguous.push(names);
    }
    if (action.type === 'click') {
      const semantic = semanticName(evidence.target, params);
      if (semantic.nameTemplate) evidence.state.nameTemplate = semantic.nameTemplate;
      ambiguous.push(...(semantic.ambiguous ?? []));
      const checkbox = semantic.nameTemplate ? undefined : checkboxParam(evidence.target, evidence.state.checkedAfter, params);
      if (checkbox) evidence.state.checkedParam = checkbox;
    }
    if (ambiguous.length > 0) evidence.state.ambiguous = ambiguous;
    let cropHash: string | null = null;
    if (evidence.crop) {
      cropHash = createHash('sha256').update(evidence.crop).digest('hex');
      this.blobs.set(cropHash, evidence.crop);
    }
    const fresh = newNode({ taskId: identity.key, parentId: this.position, action: stored.action, intent, evidence, cropHash });
    const existing = this.view.children(this.position).find((node) => sameStep(node, fresh));
    const node = existing ?? fresh;
    if (!existing) this.view.add(fresh);
    context.log(`agent ${describeAction(action)}${intent ? ` - ${intent}` : ''}`);
    this.pushStep('agent', action, intent, started, 0, node.id);
    this.position = node.id;
    for (const name of namesUsedBy(node)) this.usedSoFar.add(name);
    return node;
  }

  private async observe(): Promise<Observation> {
    const { page, task, params } = this.input;
    const viewport = page.viewportSize() ?? (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })));
    const last = this.divergences.at(-1);
    const observation: Observation = {
      task,
      params: { ...params },
      screenshot: await page.screenshot({ caret: 'hide' }),
      url: page.url(),
      viewport,
      history: this.steps.map((step) => ({ action: step.action, kind: step.kind, ...(step.intent ? { intent: step.intent } : {}) })),
    };
    if (last && last.step === this.steps.length) {
      observation.divergence = { step: last.step, reason: last.reason, ...(last.intent ? { intent: last.intent } : {}) };
    }
    return observation;
  }

  private markEnd(): void {
    if (this.position === null) return;
    const node = this.view.node(this.position);
    if (!node || node.endsRun) return;
    node.endsRun = true;
    if (!this.view.isNew(node.id)) this.link(node.id, { endsRun: true });
  }

  private link(id: string, change: Omit<NodeLink, 'id'>): void {
    const node = this.view.node(id);
    if (node && change.resumeAtId !== undefined) node.resumeAtId = change.resumeAtId;
    if (this.view.isNew(id)) return;
    this.links.set(id, { ...this.links.get(id), id, ...change });
  }

  private guardSteps(): void {
    if (this.steps.length >= this.input.limits.maxSteps) throw new RoteError('agent', `the step budget of ${this.input.limits.maxSteps} steps is spent`);
  }

  private pushStep(kind: StepKind, action: Action, intent: string | undefined, started: number, checkMs: number, nodeId: string): void {
    const step: StepResult = { index: this.steps.length, kind, action, durationMs: Date.now() - started, checkMs };
    if (intent) step.intent = intent;
    this.steps.push(step);
    this.stepNodes.push(nodeId);
  }

  private finalStatus(): RunStatus {
    const fromCache = this.steps.filter((step) => step.kind !== 'agent').length;
    if (this.agentCalls === 0) return 'replayed';
    return fromCache > 0 ? 'mixed' : 'agent';
  }

  /**
   * For each new node: the parameters this run put on the page from that step on, and a hash of
   * the values of the others, which the hazard guard of later runs compares against.
   */
  private noteParamsAhead(): void {
    const ahead = new Set<string>();
    for (let index = this.stepNodes.length - 1; index >= 0; index--) {
      const node = this.view.node(this.stepNodes[index] ?? '');
      if (!node) continue;
      for (const name of namesUsedBy(node)) ahead.add(name);
      if (!this.view.isNew(node.id)) continue;
      node.state.ahead = [...ahead].sort();
      const unused = Object.keys(this.input.params).filter((name) => !ahead.has(name));
      node.state.valueHashes = Object.fromEntries(unused.map((name) => [name, this.valueHashes[name]!]));
    }
  }

  private markFailed(result: RunResult, cause: unknown): void {
    try {
      this.input.store.commitRun({
        run: {
          id: this.runId,
          taskId: null,
          status: 'failed',
          endedAt: Date.now(),
          durationMs: result.durationMs,
          agentCalls: result.agentCalls,
          cachedSteps: result.cachedSteps,
          relocatedSteps: result.relocatedSteps,
          agentSteps: result.agentSteps,
          error: `the run's commit failed: ${cause instanceof Error ? cause.message : String(cause)}`,
        },
      });
    } catch {
      // The store itself is gone; the next open marks the run interrupted.
    }
  }

  private describeDivergence(divergence: Divergence): string {
    const { apiName } = this.input.context;
    const node = this.view.candidatesAfter(this.position)[0];
    const what = node ? ` (${node.intent ? node.intent : describeAction(node.action)})` : '';
    return `${apiName}: step ${divergence.step + 1}${what} diverged: ${divergence.reason}`;
  }

  private result(status: RunStatus, error: string | undefined): RunResult {
    const count = (kind: StepKind) => this.steps.filter((step) => step.kind === kind).length;
    const result: RunResult = {
      runId: this.runId,
      status,
      task: this.input.task,
      taskKey: this.input.identity.key,
      steps: this.steps,
      cachedSteps: count('cached'),
      relocatedSteps: count('relocated'),
      agentSteps: count('agent'),
      agentCalls: this.agentCalls,
      divergences: this.divergences,
      durationMs: Date.now() - this.input.context.startedAt,
    };
    if (this.answer !== undefined) result.answer = this.answer;
    if (error) result.error = `${error}\nSteps that ran:\n${this.input.context.callLog || '  (none)'}`;
    return result;
  }

  /** Everything of the run in one transaction; a failed or empty agent run adds no trajectory. */
  private commit(result: RunResult): void {
    const { store, identity } = this.input;
    const keepTrajectory = result.status !== 'failed' && result.status !== 'diverged' && this.view.newNodes.length > 0;
    const newNodes = keepTrajectory ? this.view.newNodes : [];
    if (keepTrajectory) this.noteParamsAhead();
    const usedBlobs = new Set(newNodes.map((node) => node.cropHash).filter((hash): hash is string => hash !== null));
    const paramNames = new Set<string>();
    for (const node of newNodes) {
      const text = node.action.type === 'type' ? node.action.text : node.action.type === 'goto' ? node.action.url : '';
      for (const name of templateNames(text)) paramNames.add(name);
    }
    const now = Date.now();
    const existingTask = store.getTask(identity.key);
    store.commitRun({
      ...(keepTrajectory || existingTask
        ? {
            task: {
              id: identity.key,
              taskTemplate: identity.template,
              tags: identity.tags,
              startUrl: identity.startUrl,
              paramNames: [...paramNames],
              createdAt: existingTask?.createdAt ?? now,
              updatedAt: now,
            },
          }
        : {}),
      newNodes: newNodes.map(toRow),
      blobs: [...this.blobs].filter(([hash]) => usedBlobs.has(hash)).map(([hash, bytes]) => ({ hash, bytes })),
      nodeStats: this.stats.filter((stat) => !this.view.isNew(stat.id)),
      nodeLinks: result.status === 'failed' || result.status === 'diverged' ? [] : [...this.links.values()],
      run: {
        id: this.runId,
        taskId: identity.key,
        status: result.status,
        endedAt: now,
        durationMs: result.durationMs,
        agentCalls: result.agentCalls,
        cachedSteps: result.cachedSteps,
        relocatedSteps: result.relocatedSteps,
        agentSteps: result.agentSteps,
        error: result.error ?? null,
      },
      steps: result.steps.map((step, index) => {
        const nodeId = this.stepNodes[index] ?? null;
        return {
          runId: this.runId,
          idx: step.index,
          nodeId: nodeId && (!this.view.isNew(nodeId) || keepTrajectory) ? nodeId : null,
          kind: step.kind,
          action: step.action,
          intent: step.intent ?? null,
          outcome: 'ok' as const,
          reason: null,
          durationMs: step.durationMs,
          checkMs: step.checkMs,
        };
      }),
    });
  }
}

function parseAgentAction(raw: unknown): Action {
  try {
    return parseAction(raw);
  } catch (error) {
    throw new RoteError('agent', `the agent answered with an action rote cannot perform: ${JSON.stringify(raw)}`, { cause: error });
  }
}

function toRow(node: TrajectoryNode): NewNodeRow {
  return {
    id: node.id,
    taskId: node.taskId,
    parentId: node.parentId,
    resumeAtId: node.resumeAtId,
    action: node.action,
    intent: node.intent,
    url: node.url,
    fingerprint: node.fingerprint,
    box: node.box,
    cropHash: node.cropHash,
    cropRect: node.cropRect,
    masks: node.masks,
    state: node.state,
    endsRun: node.endsRun,
    hits: 1,
    lastUsedAt: Date.now(),
    lastSuccessAt: Date.now(),
    createdAt: Date.now(),
  };
}
