import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright';
import { actionPoint, describeAction, parseAction, withPoint, type Action } from '../actions/action.js';
import { performAction } from '../actions/perform.js';
import { isDone, type Agent, type AgentAnswer, type AgentUsage, type Observation, type StepKind } from '../agent/agent.js';
import { navigationWatch, settle } from '../checks/settle.js';
import { viewportScreenshot } from '../checks/visual.js';
import { compareUrls, templatedUrl } from '../checks/urlCheck.js';
import { renderForDisplay, renderKnown } from '../params/template.js';
import { maskedParams, redactSecrets, secretNames, secretValues } from '../params/secret.js';
import { scrubError } from '../params/scrubError.js';
import { urlRenderingParams } from '../params/url.js';
import { maskScreenshot } from '../checks/secretMask.js';
import { RoteError } from '../errors/roteError.js';
import { mapStrings, type JsonValue } from '../params/jsonValues.js';
import type { BoundParams } from '../params/params.js';
import type { Tool, ToolRegistry } from '../tools/toolRegistry.js';
import type { ParamSchema } from '../params/paramType.js';
import type { TaskIdentity } from '../params/taskKey.js';
import type { NodeLink, NodeStat } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { performAgentStep, type AgentStep } from './agentStep.js';
import { checkToolCall } from './toolChecks.js';
import { callTool, recordToolStep, resultForAgent } from './toolStep.js';
import { namesUsedBy, valueHash } from './paramBindings.js';
import { evidenceAtRecordedPlace } from './divergenceEvidence.js';
import { preCheck, type CheckEnvironment, type CheckFail, type CheckPass } from './preCheck.js';
import { doesSameWork, sameStep } from './recordStep.js';
import { commitRun, markRunFailed } from './runCommit.js';
import type { RunContext } from './runContext.js';
import type { Divergence, RunMode, RunResult, RunStatus, StepResult } from './runResult.js';
import type { TrajectoryNode } from './trajectoryNode.js';
import { ROOT_ID, TrajectoryView } from './trajectoryView.js';
import { findRejoin } from './rejoin.js';
import { DialogGuard } from './dialogGuard.js';

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
  /** Parameter types the caller declared; stored with the task, with those the recording inferred. */
  declaredSchema: ParamSchema;
  agent: Agent | undefined;
  /** The Rote's custom tools: the agent may call them, and recorded calls replay with their checks. */
  tools?: ToolRegistry;
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
  private readonly stepNodes: string[] = [];
  /** Each step's action with templates in place of parameter values: what logs and the store get. */
  private readonly storedActions: Action[] = [];
  private readonly divergences: Divergence[] = [];
  private readonly crops = new Map<string, Buffer>();
  private readonly stats: NodeStat[] = [];
  private readonly links = new Map<string, NodeLink>();
  private readonly runId = randomUUID();
  private agentCalls = 0;
  /** The agent's steps since the cached path diverged, for deciding where it may re-join. */
  private detour: TrajectoryNode[] = [];
  private readonly usage: AgentUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  private answer: string | undefined;
  /** A replayed tool's post-check failed: the next step is a divergence with this reason. */
  private pendingProblem: string | undefined;
  /** Tool results by step index, shown to the agent in its observations and never stored. */
  private readonly toolResults = new Map<number, JsonValue>();
  /** The last node done (null: the root). */
  private position: string | null = null;
  /** Nodes done in this run. */
  private readonly visited = new Set<string>();
  /** A re-join point for the next step only, when the agent's last step was a stored one. */
  private resumeAt: string | null | undefined;
  /** Parameters the steps so far have put on the page (the hazard guard reads it). */
  private readonly usedSoFar = new Set<string>();
  private readonly valueHashes: Record<string, string>;
  /** Answers native dialogs; created once the run record exists, disposed before the commit. */
  private dialogs!: DialogGuard;

  constructor(private readonly input: RunInput) {
    this.view = new TrajectoryView(input.store, input.identity.key);
    // Secrets are never hashed: a hash of a short password is as good as the password.
    const secrets = secretNames(input.params);
    this.valueHashes = Object.fromEntries(
      Object.entries(input.params)
        .filter(([name]) => !secrets.has(name))
        .map(([name, value]) => [name, valueHash(input.identity.valueSalt, name, value)]),
    );
    input.context.redact = (line) => redactSecrets(line, input.params);
    this.env = {
      page: input.page,
      params: input.params,
      blob: (hash) => this.crops.get(hash) ?? input.store.getBlob(hash),
      usedSoFar: this.usedSoFar,
      valueHashes: this.valueHashes,
      ...(input.tools ? { tools: input.tools } : {}),
    };
  }

  async execute(): Promise<RunResult> {
    const { store, identity, mode, context } = this.input;
    store.beginRun({ id: this.runId, taskId: identity.key, task: identity.template, mode, startedAt: context.startedAt, pid: process.pid });
    let status: RunStatus;
    let error: string | undefined;
    this.dialogs = new DialogGuard(this.input.page, this.input.params);
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
    this.dialogs.dispose();
    const result = this.result(status, error);
    const { params } = this.input;
    try {
      commitRun({
        store,
        identity,
        params,
        declaredSchema: this.input.declaredSchema,
        valueHashes: this.valueHashes,
        result,
        view: this.view,
        stepNodes: this.stepNodes,
        storedActions: this.storedActions,
        stats: this.stats,
        links: [...this.links.values()],
        crops: this.crops,
      });
    } catch (commitError) {
      // The trajectory could not be stored; the run record must still not stay 'running'.
      markRunFailed({ store, result }, scrubError(commitError, secretValues(params)));
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
          this.detour = [];
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

  /** What may come next: after the current node, and after a pending re-join point. */
  private candidates(): TrajectoryNode[] {
    // A step done once in this run is not a candidate again: re-join links must never make a loop.
    const own = this.view.candidatesAfter(this.position).filter((node) => !this.visited.has(node.id));
    if (this.resumeAt === undefined) return own;
    const seen = new Set(own.map((node) => node.id));
    return [...own, ...this.view.candidatesAfter(this.resumeAt).filter((node) => !seen.has(node.id) && !this.visited.has(node.id))];
  }

  /** Replays the next cached step, if one is safe. */
  private async replayNext(): Promise<'stepped' | 'finished' | 'miss' | Divergence> {
    if (this.pendingProblem !== undefined) {
      // The tool step before did not leave what its post-check expects: nothing recorded after it may run blind.
      const reason = this.pendingProblem;
      this.pendingProblem = undefined;
      this.input.context.log(`step ${this.steps.length} diverged: ${reason}`);
      return { step: this.steps.length, reason };
    }
    const candidates = this.candidates();
    const here = this.position === null ? undefined : this.view.node(this.position);
    const atEnd = here?.endsRun === true;
    if (candidates.length === 0) {
      if (atEnd) return this.finishAt(here);
      if (this.position === null) return 'miss';
      return { step: this.steps.length, reason: 'the recorded trajectory stops here before the task was done' };
    }
    // At a recorded end, a child is taken only if it applies at once; otherwise the run is complete.
    const started = Date.now();
    const checked = await this.pollCandidates(candidates, atEnd ? Date.now() : this.input.context.within(this.input.limits.checkTimeoutMs));
    const checkMs = Date.now() - started;
    if (!checked.ok) {
      if (atEnd) return this.finishAt(here);
      this.stats.push({ id: checked.node.id, hit: false, usedAt: Date.now(), succeeded: false });
      const divergence: Divergence = { step: this.steps.length, action: checked.node.action, nodeId: checked.node.id, reason: checked.reason };
      const intent = this.intentOf(checked.node);
      if (intent) divergence.intent = intent;
      if (checked.expected) divergence.expected = checked.expected;
      if (checked.actual) divergence.actual = checked.actual;
      if (checked.diff) divergence.diff = checked.diff;
      else if (!checked.expected) Object.assign(divergence, await evidenceAtRecordedPlace(this.env, checked.node));
      this.input.context.log(`step ${this.steps.length} diverged: ${checked.reason}`);
      return divergence;
    }
    await this.performCached(checked, started, checkMs);
    return 'stepped';
  }

  /**
   * A replay is complete only where the recorded run was: on the page it ended on. A submit that
   * did not go through (a new required field, a refused confirm) leaves the page elsewhere, and
   * the agent takes over there instead of the run claiming success.
   */
  private async finishAt(end: TrajectoryNode): Promise<'finished' | Divergence> {
    const endUrl = end.state.endUrl;
    if (!endUrl) return 'finished';
    const deadline = this.input.context.within(this.input.limits.checkTimeoutMs);
    const { params } = this.input;
    let problem = compareUrls(endUrl, this.input.page.url(), params);
    while (problem && Date.now() < deadline) {
      await this.input.page.waitForTimeout(50);
      problem = compareUrls(endUrl, this.input.page.url(), params);
    }
    if (!problem) return 'finished';
    const reason = `the recorded run ended here on ${endUrl}, but ${problem.replace(/^the page/, 'this page')}${this.dialogs.unexpected.length > 0 ? ` (an unexpected dialog was dismissed: ${this.dialogs.unexpected.at(-1)})` : ''}`;
    this.input.context.log(`step ${this.steps.length} diverged: ${reason}`);
    return { step: this.steps.length, reason };
  }

  /** Polls the candidates until one passes every check or the deadline passes; reports the usual path's failure. */
  private async pollCandidates(candidates: TrajectoryNode[], deadline: number): Promise<CheckPass | CheckFail> {
    let firstFailure: CheckFail | undefined;
    for (;;) {
      let allPermanent = true;
      for (const candidate of candidates) {
        const result = await preCheck(this.env, candidate, deadline);
        if (result.ok) return result;
        if (candidate === candidates[0]) firstFailure = result;
        allPermanent &&= result.permanent === true;
      }
      // A divergence caused by this run's values is known at once: no page change can pass it.
      if (Date.now() >= deadline || allPermanent) return firstFailure!;
      await this.input.page.waitForTimeout(50);
    }
  }

  private async performCached(checked: CheckPass, started: number, checkMs: number): Promise<void> {
    const { page, context } = this.input;
    this.guardSteps();
    const commits = navigationWatch(page).commitCount;
    this.dialogs.beginStep(checked.node.state.dialogs ?? []);
    // A tool step is a call of the user's function (its pre-check passed with the other checks).
    const toolCall = checked.action.type === 'tool' ? { action: checked.action, tool: this.toolNamed(checked.action.name) } : undefined;
    if (toolCall) this.noteToolResult(await callTool(page, toolCall.tool, toolCall.action.args, this.input.params));
    else if (!checked.alreadyDone) await performAction(page, checked.action, checked.typeMode);
    await settle(page, commits, { timeoutMs: Math.max(0, context.deadline - Date.now()) });
    // After the page settled: a failure is not this step's error, the next step diverges with it.
    if (toolCall) this.pendingProblem = await checkToolCall(toolCall.tool, checked.node, 'post', { page, params: this.input.params, args: toolCall.action.args });
    const intent = this.intentOf(checked.node);
    // Logged and stored as recorded, with templates: parameter values stay out of logs and the store.
    const point = actionPoint(checked.action);
    const stored = point ? withPoint(checked.node.action, point) : checked.node.action;
    context.log(`${checked.kind} ${describeAction(stored)}${checked.alreadyDone ? ' (already in the recorded state)' : ''}${intent ? ` - ${intent}` : ''}`);
    this.pushStep(checked.kind, this.redactAction(checked.action), stored, intent, started, checkMs, checked.node.id);
    this.stats.push({ id: checked.node.id, hit: true, usedAt: Date.now(), succeeded: true });
    this.position = checked.node.id;
    this.visited.add(checked.node.id);
    this.resumeAt = undefined;
    for (const name of namesUsedBy(checked.node)) this.usedSoFar.add(name);
  }

  /**
   * One agent call and the actions it answers with. After each action, follow the cached path
   * where the agent did a cached step's work, and re-join it where a cached step's checks pass.
   */
  private async agentTurn(rejoinFrom: string | null | undefined): Promise<
    { kind: 'done' } | { kind: 'rejoined' } | { kind: 'followed'; rejoinFrom: string | null | undefined }
  > {
    const { agent, context, limits } = this.input;
    if (!agent) throw new RoteError('invalid-argument', 'no agent was given for a step the cache cannot do');
    if (this.agentCalls >= limits.maxAgentCalls) throw new RoteError('agent', `the agent budget of ${limits.maxAgentCalls} calls is spent`);
    const observation = await this.observe();
    this.agentCalls++;
    let answer: AgentAnswer;
    try {
      answer = await agent.next(observation);
    } catch (error) {
      // A failed call still cost something: an agent may put its usage on the error.
      this.addUsage((error as { usage?: AgentUsage } | undefined)?.usage);
      throw error;
    }
    this.addUsage(answer.usage);
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
      this.detour.push(node);
      const followed = this.view.children(rejoinFrom).find((cached) => !this.view.isNew(cached.id) && doesSameWork(cached, node));
      if (followed) rejoinFrom = followed.id;
      const after = await findRejoin(this.env, this.view, rejoinFrom, this.detour, this.visited);
      if (after !== undefined) {
        // A new step records where it re-joined; a stored step the agent repeated is left as it is
        // (the link would change the tree for every later run), and the jump holds for this run only.
        if (this.view.isNew(node.id)) this.link(node.id, { resumeAtId: after ?? ROOT_ID });
        else this.resumeAt = after;
        this.detour = [];
        context.log(`re-joined the recorded path after ${after === null ? 'the start' : `node ${after.slice(0, 8)}`}`);
        return { kind: 'rejoined' };
      }
    }
    return { kind: 'followed', rejoinFrom };
  }

  private async performAgentAction(agentAction: Action, agentIntent: string | undefined): Promise<TrajectoryNode> {
    const { page, params, context, identity } = this.input;
    // The agent never sees a secret; it types `{{password}}`, which is bound here before acting.
    const action = this.bindAgentAction(agentAction);
    const intent = agentIntent === undefined ? undefined : redactSecrets(agentIntent, params);
    this.guardSteps();
    const started = Date.now();
    this.dialogs.beginStep('record');
    const stepInput = { intent, params, taskId: identity.key, valueSalt: identity.valueSalt, parentId: this.position, deadline: context.deadline };
    let step: AgentStep;
    if (action.type === 'tool') {
      const recorded = await recordToolStep(page, action, this.toolNamed(action.name), stepInput);
      this.noteToolResult(recorded.result);
      step = recorded;
    } else {
      step = await performAgentStep(page, action, stepInput);
    }
    if (this.dialogs.raisedThisStep.length > 0) step.node.state.dialogs = [...this.dialogs.raisedThisStep];
    if (step.crop) this.crops.set(step.crop.hash, step.crop.bytes);
    // Runs that share a prefix share nodes: an equal stored step stands for this one.
    const existing = this.view.children(this.position).find((node) => sameStep(node, step.node));
    const node = existing ?? step.node;
    if (!existing) this.view.add(step.node);
    context.log(`agent ${describeAction(step.node.action)}${intent ? ` - ${intent}` : ''}`);
    this.pushStep('agent', this.redactAction(action), step.node.action, intent, started, 0, node.id);
    this.position = node.id;
    this.visited.add(node.id);
    this.resumeAt = undefined;
    for (const name of namesUsedBy(node)) this.usedSoFar.add(name);
    return node;
  }

  private async observe(): Promise<Observation> {
    const { page, task, params } = this.input;
    const viewport = page.viewportSize() ?? (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })));
    const last = this.divergences.at(-1);
    const observation: Observation = {
      runId: this.runId,
      deadline: this.input.context.deadline,
      // Nothing the agent is shown holds a secret: the page's URL, a reason quoting it, the task.
      task: redactSecrets(task, params),
      params: maskedParams(params),
      screenshot: await maskScreenshot(page, await viewportScreenshot(page), params, viewport),
      url: redactSecrets(page.url(), params),
      viewport,
      history: this.steps.map((step) => {
        const result = this.toolResults.get(step.index);
        return { action: step.action, kind: step.kind, ...(step.intent ? { intent: step.intent } : {}), ...(result !== undefined ? { result } : {}) };
      }),
      tools: this.input.tools?.list() ?? [],
    };
    if (last && last.step === this.steps.length) {
      observation.divergence = { step: last.step, reason: redactSecrets(last.reason, params), ...(last.intent ? { intent: last.intent } : {}) };
    }
    return observation;
  }

  private markEnd(): void {
    if (this.position === null) return;
    const node = this.view.node(this.position);
    if (!node || node.endsRun) return;
    node.endsRun = true;
    node.state.endUrl = templatedUrl(this.input.page.url(), this.input.params);
    if (!this.view.isNew(node.id)) this.link(node.id, { endsRun: true });
  }

  private link(id: string, change: Omit<NodeLink, 'id'>): void {
    const node = this.view.node(id);
    if (node && change.resumeAtId !== undefined) node.resumeAtId = change.resumeAtId;
    if (this.view.isNew(id)) return;
    this.links.set(id, { ...this.links.get(id), id, ...change });
  }

  private addUsage(usage: AgentUsage | undefined): void {
    if (!usage || typeof usage.modelCalls !== 'number') return;
    this.usage.modelCalls += usage.modelCalls;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
  }

  /** A recorded intent with this run's values in place of its templates. */
  private intentOf(node: TrajectoryNode): string | undefined {
    if (!node.intent) return undefined;
    try {
      return renderForDisplay(node.intent, this.input.params);
    } catch {
      return node.intent;
    }
  }

  /** Placeholders of known parameters in the agent's typed text or URL, rendered with the bound values. */
  private bindAgentAction(action: Action): Action {
    const { params } = this.input;
    if (action.type === 'type') return { ...action, text: renderKnown(action.text, params) };
    if (action.type === 'goto') return { ...action, url: renderKnown(action.url, urlRenderingParams(action.url, params)) };
    if (action.type === 'tool') return { ...action, args: mapStrings(action.args, (text) => renderKnown(text, params)) as Record<string, JsonValue> };
    return action;
  }

  /** An action as results and observations show it: secret values as the mask. */
  private redactAction(action: Action): Action {
    const { params } = this.input;
    if (secretNames(params).size === 0) return action;
    if (action.type === 'type') return { ...action, text: redactSecrets(action.text, params) };
    if (action.type === 'goto') return { ...action, url: redactSecrets(action.url, params) };
    if (action.type === 'tool') return { ...action, args: mapStrings(action.args, (text) => redactSecrets(text, params), { keys: true, numbers: true }) as Record<string, JsonValue> };
    return action;
  }

  /** A tool the agent called, or a recorded step names (its pre-check made sure it is registered). */
  private toolNamed(name: string): Tool {
    const tool = this.input.tools?.get(name);
    if (tool) return tool;
    const known = this.input.tools?.list().map((info) => info.name) ?? [];
    throw new RoteError('agent', `the agent called tool "${name}", which is not registered with this Rote (registered: ${known.join(', ') || 'none'})`);
  }

  /** Keeps a tool's result for the step about to be pushed, for the agent's next observation. */
  private noteToolResult(result: unknown): void {
    const shown = resultForAgent(result, this.input.params);
    if (shown !== undefined) this.toolResults.set(this.steps.length, shown);
  }

  private guardSteps(): void {
    if (this.steps.length >= this.input.limits.maxSteps) throw new RoteError('agent', `the step budget of ${this.input.limits.maxSteps} steps is spent`);
  }

  private pushStep(kind: StepKind, action: Action, stored: Action, intent: string | undefined, started: number, checkMs: number, nodeId: string): void {
    this.storedActions.push(stored);
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

  private describeDivergence(divergence: Divergence): string {
    const { apiName } = this.input.context;
    const node = this.candidates()[0];
    const what = node ? ` (${this.intentOf(node) ?? describeAction(node.action)})` : '';
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
      usage: { ...this.usage },
      divergences: this.divergences,
      durationMs: Date.now() - this.input.context.startedAt,
    };
    if (this.answer !== undefined) result.answer = this.answer;
    if (error) result.error = `${error}\nSteps that ran:\n${this.input.context.callLog || '  (none)'}`;
    return this.redactResult(result);
  }

  /** Secret values never leave the run: not in its result, nor in what is stored from it. */
  private redactResult(result: RunResult): RunResult {
    const { params } = this.input;
    if (secretNames(params).size === 0) return result;
    const redact = (text: string) => redactSecrets(text, params);
    result.task = redact(result.task);
    if (result.answer !== undefined) result.answer = redact(result.answer);
    if (result.error !== undefined) result.error = redact(result.error);
    for (const divergence of result.divergences) {
      divergence.reason = redact(divergence.reason);
      if (divergence.intent !== undefined) divergence.intent = redact(divergence.intent);
    }
    for (const step of result.steps) if (step.intent !== undefined) step.intent = redact(step.intent);
    return result;
  }

}

function parseAgentAction(raw: unknown): Action {
  try {
    return parseAction(raw);
  } catch (error) {
    throw new RoteError('agent', `the agent answered with an action rote cannot perform: ${JSON.stringify(raw)}`, { cause: error });
  }
}
