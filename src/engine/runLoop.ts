import type { Page } from 'playwright';
import { actionPoint, describeAction, parseAction, withPoint, type Action } from '../actions/action.js';
import { mapActionText } from '../actions/actionText.js';
import { performAction } from '../actions/perform.js';
import { offScreen } from '../actions/onScreen.js';
import type { ActionInput } from '../actions/action.js';
import { isDone, type Agent, type AgentAnswer, type AgentUsage, type DialogAnswer, type NativeDialog, type Observation } from '../agent/agent.js';
import { beforeAction, navigationWatch, settle } from '../checks/settle.js';
import { watchChanges } from '../checks/pageChanges.js';
import { compareUrls, templatedUrl } from '../checks/urlCheck.js';
import { describeFingerprint } from '../checks/fingerprint.js';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import { RoteError, type RoteErrorCode } from '../errors/roteError.js';
import { pageDied, pageGone } from './pageAlive.js';
import { withinOverrun } from './overrun.js';
import type { BoundParams } from '../params/boundParams.js';
import type { ParamSchema } from '../params/paramType.js';
import { redactSecrets } from '../params/secret.js';
import { scrubError } from '../params/scrubError.js';
import type { TaskIdentity } from '../params/taskKey.js';
import { renderForDisplay, renderKnown } from '../params/template.js';
import { urlRenderingParams } from '../params/url.js';
import { isOver, narrowed, pause, remainingMs, withinDeadline } from '../progress/deadline.js';
import { controlSelectors, shownValues } from '../checks/shownValues.js';
import type { Store } from '../store/store.js';
import type { Tool, ToolRegistry } from '../tools/toolRegistry.js';
import { performAgentStep, type AgentStep } from './agentStep.js';
import { Cursor } from './cursor.js';
import { describeRef, nodeRef, resumeAtIdOf } from '../trajectory/nodeRef.js';
import { focusKept, markFocus } from './focusKept.js';
import { DialogGuard } from './dialogGuard.js';
import { evidenceAtRecordedPlace } from './divergenceEvidence.js';
import { lastScreen } from './lastScreen.js';
import type { OriginGuard } from './originGuard.js';
import { observe } from './observe.js';
import { literalGuards, namesUsedBy, valueHashesOf } from './paramBindings.js';
import { preCheck, runValuesOf, type CheckEnvironment, type CheckFail, type CheckPass } from './preCheck.js';
import { endOptionAt, resolveFork, type EndOption } from './fork.js';
import { arrivalsOf, learnedUnderSame } from '../trajectory/valueKeys.js';
import { doesSameWork } from './recordStep.js';
import { sameStep } from '../trajectory/sameStep.js';
import { findRejoin } from './rejoin.js';
import { commitRun, markRunFailed } from './runCommit.js';
import type { RunContext } from './runContext.js';
import { encodeRunImages } from './runImages.js';
import { RunLedger } from './runLedger.js';
import type { Divergence, RunMode, RunResult, RunStatus } from './runResult.js';
import { checkToolCall } from './toolChecks.js';
import { callTool, recordToolStep, resultForAgent } from './toolStep.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { TrajectoryView } from './trajectoryView.js';
import { WaitWindow } from './waitCondition.js';
import { describeWindow, RunWindows } from './runWindows.js';

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
  /** Where the run may be, and where it may type a secret. */
  origins: OriginGuard;
  /** The queue job this run does, kept on its record so a retry of the job can close it out. */
  jobId?: string;
};

/** Starting to watch the page: one evaluate, normally a few ms. */
const START_LIMIT_MS = 5_000;

/** Said to an agent asked a second time for a prompt it did not decide. */
const PROMPT_ASKED_AGAIN =
  'Your last answer gave no decision for this prompt, and the page is blocked until it gets one. Answer with dialog: { accept: true, text } (OK, with the text to type), { accept: true } (OK with the text it offers) or { accept: false } (Cancel). Do not read or script the page now: it cannot answer while the prompt is open. Without a decision this time the prompt is dismissed and the run fails.';

/** Reading which values the page shows after an agent's step: one evaluate, normally a few ms. */
const SHOWN_VALUES_LIMIT_MS = 2_000;

/** A navigation under way gets this long to bring its document before the agent looks. */
const ARRIVAL_LIMIT_MS = 10_000;

async function documentArrived(page: Page, deadline: RunContext): Promise<void> {
  const watch = navigationWatch(page);
  if (!watch.navigating) return;
  const arrival = narrowed(deadline, ARRIVAL_LIMIT_MS);
  // Until the request ends: a document (it commits), or none (a 204, a download), whichever comes.
  while (watch.navigating && !isOver(arrival) && !page.isClosed()) await pause(arrival, 50);
  await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, remainingMs(arrival)) }).catch(() => undefined);
}

/** Raised inside the loop to end a run as 'diverged'; carries the divergence. */
class StopDiverged {
  constructor(readonly divergence: Divergence) {}
}

type ReplayOutcome = 'stepped' | 'finished' | 'miss' | Divergence;
type AgentTurn = 'done' | 'rejoined' | 'continuing';

/** How long a target may lag behind the state the recording waited for (a button enabled just after the status says "Ready"). */
const MOMENT_GRACE_MS = 300;

/**
 * One run: replay what matches, ask the agent for the rest, re-join the cached path as soon as
 * a cached step's checks pass again, and commit everything in one transaction at the end.
 */
export class RunLoop {
  private readonly view: TrajectoryView;
  private readonly env: CheckEnvironment;
  private readonly ledger = new RunLedger();
  private readonly cursor = new Cursor();
  /** Parameters the steps so far have put on the page (the hazard guard reads it). */
  private readonly usedSoFar = new Set<string>();
  private readonly valueHashes: Record<string, string>;
  /** A replayed tool's post-check failed, or a dialog overlapped a step: the next step is a divergence with this reason. */
  private pendingProblem: { reason: string; kind: 'tool' | 'dialog' | 'focus' } | undefined;
  /** The agent takes over after a dialog overlapped a cached step: its first step is the one learned for that (NodeState.afterDialog). */
  private detourAfterDialog = false;
  /** Answers native dialogs; created once the run record exists, disposed before the commit. */
  private dialogs!: DialogGuard;
  /** What the page did while the recording waited, for the step that waited for it. */
  private readonly waits = new WaitWindow();
  /** The screen the agent last saw: shown again when a native prompt blocks a new capture. */
  private lastSeen: { screenshot: Buffer; viewport: Observation['viewport'] } | undefined;
  /** Actions the agent gave with a prompt's answer, done after the step that opened the prompt. */
  private afterPrompt: ActionInput[] = [];
  /** An agent call is under way: a prompt the page raises meanwhile (a timer's) is not put to a second, concurrent call. */
  private asking = false;
  /** Documents the page had committed when the last step began to act, and when it ended: what an agent step records (see NodeState.navigated). */
  private commitsAtStepStart = 0;
  private commitsAtStepEnd = 0;
  /**
   * Documents accounted for: by a recorded step that loaded one, a step recorded after one, or the
   * agent looking at the page. A load beyond them is one the replay cannot explain (see preCheck).
   */
  private commitsAccounted = 0;
  /** Steps done since the last accounted document: with none, no load can have lost anything. */
  private stepsSinceAccounted = 0;
  /** The run's page and the windows its pages open: steps act in the newest one still open. */
  private readonly windows: RunWindows;
  /** The document accounts (above) of the windows the run is not in now, kept for its return. */
  private readonly loadAccounts = new Map<Page, { atStepStart: number; atStepEnd: number; accounted: number; stepsSince: number }>();

  constructor(private readonly input: RunInput) {
    this.view = new TrajectoryView(input.store, input.identity.key);
    this.windows = new RunWindows(input.page);
    // Secrets are never hashed: a hash of a short password is as good as the password.
    this.valueHashes = valueHashesOf(input.params, input.identity.valueSalt);
    this.env = {
      page: input.page,
      params: input.params,
      blob: async (hash) => this.ledger.crops.get(hash) ?? (await input.store.getBlob(hash)),
      usedSoFar: this.usedSoFar,
      valueHashes: this.valueHashes,
      deadline: input.context,
      // A navigation under way counts: the load that wipes the form is already coming.
      unexplainedLoads: () => {
        // Nothing entered since the last accounted document: a load cannot have lost anything.
        if (this.stepsSinceAccounted === 0) return 0;
        const watch = navigationWatch(input.page);
        return Math.max(0, watch.documentCount - this.commitsAccounted + (watch.navigating ? 1 : 0));
      },
      ...(input.tools ? { tools: input.tools } : {}),
    };
  }

  async execute(): Promise<RunResult> {
    const { store, identity, mode, context, params } = this.input;
    await store.beginRun({ id: this.ledger.runId, taskId: identity.key, task: identity.template, mode, startedAt: context.startedAt, pid: process.pid, jobId: this.input.jobId ?? null, params: params.shown() });
    let status: RunStatus;
    let error: string | undefined;
    let errorCode: RoteErrorCode | undefined;
    this.dialogs = new DialogGuard(this.input.page, params, (dialog) => this.answerPrompt(dialog), () => this.ledger.steps.length);
    try {
      this.commitsAtStepStart = this.commitsAtStepEnd = this.commitsAccounted = navigationWatch(this.input.page).documentCount;
      status = await withinOverrun(this.start().then(() => this.loop()), this.input.page, context);
    } catch (thrown) {
      if (thrown instanceof StopDiverged) {
        status = 'diverged';
        error = this.describeDivergence(thrown.divergence);
        this.ledger.divergences.push(thrown.divergence);
      } else if (RoteError.isInstance(thrown) && thrown.code === 'aborted' && (context.signal?.aborted || context.stop?.aborted)) {
        // Stopped by its caller (an agent that aborts, a person's Ctrl+C, is a failure): nothing of it is learned, and the record says so.
        status = 'interrupted';
        error = thrown.message;
      } else {
        status = 'failed';
        // A browser call cut short by the run's own deadline (its timeout was what the deadline left) is the run's timeout.
        const outOfTime = !RoteError.isInstance(thrown) && !pageGone(this.input.page) && Date.now() >= context.deadline;
        if (outOfTime) thrown = context.timeoutError(`(at step ${this.ledger.steps.length + 1}: ${firstLineOf(messageOf(thrown))})`);
        errorCode = RoteError.isInstance(thrown) ? thrown.code : pageGone(this.input.page) ? 'page-closed' : 'internal';
        const message = messageOf(thrown);
        error = message.startsWith(`${context.apiName}:`) ? message : `${context.apiName}: ${message}`;
      }
    }
    // No run hands back a page that a dialog holds: whatever is still open (a prompt the agent never answered) is dismissed.
    await this.dialogs.closeAll();
    this.windows.dispose();
    if (status === 'failed') this.ledger.finalScreen = await lastScreen(this.input.page, params, context.deadline);
    const result = this.ledger.result({ status, error, errorCode, task: this.input.task, taskKey: identity.key, startedAt: context.startedAt, callLog: context.callLog, params, warnings: this.view.warnings, dialogs: this.dialogs.events });
    try {
      const images = await encodeRunImages({ steps: this.ledger.pictures, divergences: result.divergences, finalScreen: this.ledger.finalScreen });
      await commitRun({
        images,
        store,
        identity,
        params,
        declaredSchema: this.input.declaredSchema,
        valueHashes: this.valueHashes,
        result,
        view: this.view,
        stepNodes: this.ledger.stepNodes,
        storedActions: this.ledger.storedActions,
        stats: this.ledger.stats,
        links: this.ledger.links,
        crops: this.ledger.crops,
        seen: this.ledger.pathSightings,
      });
    } catch (commitError) {
      // The trajectory could not be stored; the run record must still not stay 'running'.
      await markRunFailed({ store, result }, scrubError(commitError, params.secretValues()));
      throw commitError;
    }
    return result;
  }

  /** Before the first step: the page's change log (bounded, since a page a dialog holds answers nothing). */
  private async start(): Promise<void> {
    await withinDeadline(narrowed(this.input.context, START_LIMIT_MS), watchChanges(this.input.page), 'starting to watch the page').catch(() => undefined);
  }

  private async loop(): Promise<RunStatus> {
    const { mode, agent } = this.input;
    if (mode === 'record') this.cursor.handOver(false);
    for (;;) {
      this.input.context.throwIfStopRequested();
      await this.followWindow();
      if (!this.cursor.agentInCharge) {
        const outcome = await this.replayNext();
        if (outcome === 'finished') return this.ledger.finalStatus();
        if (outcome === 'stepped') continue;
        // A page that died (its browser crashed) is not a page that differs: no agent can act on it.
        if (await pageDied(this.input.page)) throw new RoteError('page-closed', `the page closed or its browser went away before step ${this.ledger.steps.length + 1}`);
        // A miss or a divergence: hand over, or stop.
        if (mode === 'replay-only' || !agent) throw new StopDiverged(outcome === 'miss' ? { step: 0, reason: 'no recorded trajectory for this task yet' } : outcome);
        if (outcome !== 'miss') this.ledger.divergences.push(outcome);
        // After a divergence in auto mode the agent's detour may re-join the cached path, unless
        // the page loaded a document no recorded step accounts for: what the steps before
        // entered may be gone, and a re-join would skip them. The agent finishes then.
        const lostEntries = (this.env.unexplainedLoads?.() ?? 0) > 0;
        this.cursor.handOver(outcome !== 'miss' && mode === 'auto' && !lostEntries);
      }
      if ((await this.agentTurn()) === 'done') return this.ledger.finalStatus();
    }
  }

  /**
   * Moves the run to the window it is in now (see RunWindows): a window the last step opened, once
   * its document is there, or back to the opener when the window closed. Every check, capture and
   * action after this is on that window. Each window keeps its own account of the documents it
   * loaded: a page that reloaded while a window it opened was in front has still lost its entries
   * when the run comes back to it. True when the run moved.
   */
  private async followWindow(): Promise<boolean> {
    const next = this.windows.active;
    if (next === this.input.page) return false;
    const { context } = this.input;
    await next.waitForLoadState('domcontentloaded', { timeout: Math.max(1, Math.min(context.deadline, context.within(START_LIMIT_MS)) - Date.now()) }).catch(() => undefined);
    // A window on another origin is held to the run's origins as the page is: no step is done there.
    if (!next.isClosed()) this.input.origins.checkPage(next, this.ledger.steps.length);
    this.loadAccounts.set(this.input.page, { atStepStart: this.commitsAtStepStart, atStepEnd: this.commitsAtStepEnd, accounted: this.commitsAccounted, stepsSince: this.stepsSinceAccounted });
    const known = this.loadAccounts.get(next);
    // A window seen for the first time starts from what it has loaded so far (its first document).
    const count = navigationWatch(next).documentCount;
    this.commitsAtStepStart = known?.atStepStart ?? count;
    this.commitsAtStepEnd = known?.atStepEnd ?? count;
    this.commitsAccounted = known?.accounted ?? count;
    this.stepsSinceAccounted = known?.stepsSince ?? 0;
    this.input.page = next;
    this.env.page = next;
    const window = this.windows.indexOf(next);
    this.env.window = window;
    await withinDeadline(narrowed(context, START_LIMIT_MS), watchChanges(next), 'starting to watch the window').catch(() => undefined);
    context.log(`now in ${describeWindow(window)}: ${next.isClosed() ? '(closed)' : next.url()}`);
    return true;
  }

  /** What may come next: after the current place, and after a pending jump; never a step done in this run. */
  private async candidates(): Promise<TrajectoryNode[]> {
    const own = (await this.view.candidatesAfter(this.cursor.at)).filter((node) => !this.cursor.wasDone(node.id));
    const jump = this.cursor.pendingJump;
    if (!jump) return own;
    const seen = new Set(own.map((node) => node.id));
    return [...own, ...(await this.view.candidatesAfter(jump)).filter((node) => !seen.has(node.id) && !this.cursor.wasDone(node.id))];
  }

  /** Replays the next cached step, if one is safe. */
  private async replayNext(): Promise<ReplayOutcome> {
    const { context, limits } = this.input;
    const step = this.ledger.steps.length;
    let candidates = await this.candidates();
    if (this.pendingProblem !== undefined) {
      // The step before may not have done its work (a tool's post-check failed, a dialog overlapped
      // it): nothing recorded after it may run blind. Only what an agent did after seeing the page in
      // that very state (a step learned after such a dialog) may be tried, with its checks.
      const { reason, kind } = this.pendingProblem;
      this.pendingProblem = undefined;
      const learned = kind === 'dialog' ? candidates.filter((node) => node.state.afterDialog === true) : [];
      // Whatever the agent does next here is learned for this state.
      this.detourAfterDialog = kind === 'dialog';
      if (learned.length === 0) {
        context.log(`step ${step + 1} diverged: ${reason}`);
        return { step, reason };
      }
      candidates = learned;
    }
    const here = this.view.nodeAt(this.cursor.at);
    // A run ends where a recorded run ended only under values that fit: an end learned under
    // `times: one` is no end for `times: two`.
    const end = endOptionAt(here, runValuesOf(this.env));
    if (candidates.length === 0) {
      if (end?.fits) return this.finishAt(end.node);
      if (end) return this.endForOtherValues(step, end);
      if (!here) return 'miss';
      return { step, reason: 'the recorded trajectory stops here before the task was done' };
    }
    // At a recorded end, a child is taken only if it applies at once; otherwise the run is complete.
    // A step the recording waited for before may take as long again, and twice that on a slower day.
    const patience = Math.max(...candidates.map((node) => limits.checkTimeoutMs + 2 * (node.state.waitFor?.waitedMs ?? 0)));
    const started = Date.now();
    // A step learned under exactly this run's values, where the end was not, gets its patience: ending
    // before it comes would skip it (a confirmation asked only for large amounts, a moment late).
    const run = runValuesOf(this.env);
    const stepForTheseValues = !end?.exact && candidates.some((node) => arrivalsOf(node.state).some((key) => learnedUnderSame(key, run)));
    let checked = await this.pollCandidates(candidates, end?.fits && !stepForTheseValues ? Date.now() : context.within(patience));
    if (checked.ok) {
      const choice = await resolveFork({ env: this.env, first: checked, candidates, end, describe: (node) => this.describeStep(node) });
      switch (choice.kind) {
        case 'end':
          return this.finishAt(end!.node);
        case 'undecided':
          this.ledger.forkBetween(choice.options, choice.endToo ? end!.node : undefined);
          context.log(`step ${step + 1} diverged: ${choice.reason}`);
          // No one recorded step stands for it: the report keeps it with its reason (RunEvents.handovers).
          return { step, reason: choice.reason };
        case 'step':
          checked = choice.pass;
      }
    }
    const checkMs = Date.now() - started;
    if (checked.ok) {
      // A last look before acting: a load that arrived while the step was checked (a frame the run
      // filled, reloading) has lost the entries as surely as one before the checks.
      if (checked.node.state.navigatedBefore === false && (this.env.unexplainedLoads?.() ?? 0) > 0) {
        this.ledger.noteUse(checked.node.id, false);
        const reason = 'the page loaded a new document while this step was checked, which the recording did not: what the steps before entered may be gone';
        context.log(`step ${step + 1} diverged: ${reason}`);
        const intent = this.intentOf(checked.node);
        return { step, reason, nodeId: checked.node.id, action: checked.node.action, ...(intent ? { intent } : {}) };
      }
      await this.performCached(checked, started, checkMs);
      return 'stepped';
    }
    if (end?.fits) return this.finishAt(end.node);
    // The run's own deadline ended the wait: the run is over, and says where it stood and for what.
    if (Date.now() >= context.deadline) throw context.timeoutError(`at step ${step + 1} (${this.intentOf(checked.node) ?? describeAction(checked.node.action)}): ${checked.reason}`);
    this.ledger.noteUse(checked.node.id, false);
    const divergence: Divergence = { step, action: checked.node.action, nodeId: checked.node.id, reason: checked.reason };
    const intent = this.intentOf(checked.node);
    if (intent) divergence.intent = intent;
    if (checked.expected) divergence.expected = checked.expected;
    if (checked.actual) divergence.actual = checked.actual;
    if (checked.diff) divergence.diff = checked.diff;
    else if (!checked.expected) Object.assign(divergence, await evidenceAtRecordedPlace(this.env, checked.node));
    context.log(`step ${step + 1} diverged: ${checked.reason}`);
    return divergence;
  }

  /**
   * A replay is complete only where the recorded run was: on the page it ended on. A submit that
   * did not go through (a new required field, a refused confirm) leaves the page elsewhere, and
   * the agent takes over there instead of the run claiming success.
   */
  private async finishAt(end: TrajectoryNode): Promise<'finished' | Divergence> {
    const endUrl = end.state.endUrl;
    if (!endUrl) return 'finished';
    const { context, page, params } = this.input;
    const until = context.within(this.input.limits.checkTimeoutMs);
    let problem = compareUrls(endUrl, page.url(), params);
    while (problem && Date.now() < until && !context.signal?.aborted) {
      await pause(context, 50);
      problem = compareUrls(endUrl, page.url(), params);
    }
    if (!problem) return 'finished';
    const unexpected = this.dialogs.unexpected.at(-1);
    const reason = `the recorded run ended here on ${endUrl}, but ${problem.replace(/^the page/, 'this page')}${unexpected ? ` (an unexpected dialog was dismissed: ${unexpected})` : ''}`;
    context.log(`step ${this.ledger.steps.length + 1} diverged: ${reason}`);
    return { step: this.ledger.steps.length, reason };
  }

  /** Runs ended here, but under other values than this run's, and no step on from here fits: not an end for this run. */
  private endForOtherValues(step: number, end: EndOption): Divergence {
    const reason = `a recorded run ended here, but under another value of ${end.misfit ? `parameter "${end.misfit}"` : 'a parameter'}, which no step shows: whether this run is done here cannot be shown`;
    this.input.context.log(`step ${step + 1} diverged: ${reason}`);
    return { step, reason };
  }

  /**
   * Polls the candidates until one passes every check or `until` passes; reports the usual path's
   * failure. A failure that no page change can pass is not checked again (its reason stays the
   * one that tells why). Once a value the step waits for has moved past the recorded one, or the
   * page shows it and the target still fails, a process is running on without the step: unless
   * another candidate still waits for its own state, the poll ends then (after a short grace for
   * a target that lags its state), so the agent gets the page while it can still act.
   */
  private async pollCandidates(candidates: TrajectoryNode[], until: number): Promise<CheckPass | CheckFail> {
    const { context } = this.input;
    const permanent = new Map<TrajectoryNode, CheckFail>();
    let firstFailure: CheckFail | undefined;
    let momentCame: number | undefined;
    // The one candidate whose only missing piece is its wait condition, when the others fail their own checks.
    let focus: TrajectoryNode | undefined;
    for (;;) {
      // A window the last step opened may come a moment after it (or close a moment after).
      await this.followWindow();
      let wentPast = false;
      let atMoment = false;
      const awaiting: TrajectoryNode[] = [];
      for (const candidate of candidates) {
        // Waited for in one stretch, the condition is watched on every change: no gap to miss a value
        // a process passes through. A change at the target meanwhile is caught by the re-look after it.
        const alone = candidates.length === 1 || candidate === focus;
        const result = permanent.get(candidate) ?? (await preCheck(this.env, candidate, until, { alone }));
        if (result.ok) return result;
        if (result.permanent) permanent.set(candidate, result);
        // A capture the deadline cut says nothing of the page: the reason found before it stays the one reported.
        if (candidate === candidates[0] && !(result.uncaptured && firstFailure)) firstFailure = result;
        if (candidate === candidates[0] || candidate === focus) {
          atMoment ||= result.atRecordedMoment === true;
          wentPast ||= result.gonePast === true;
        }
        if (result.awaiting) awaiting.push(candidate);
      }
      // A divergence caused by this run's values is known at once: no page change can pass it.
      if (Date.now() >= until || permanent.size === candidates.length || context.signal?.aborted) return firstFailure!;
      momentCame = atMoment ? (momentCame ?? Date.now()) : undefined;
      // The patience a slow page earns is not for a moment that has passed, unless another candidate's may still come.
      const moved = wentPast || (momentCame !== undefined && Date.now() - momentCame >= MOMENT_GRACE_MS);
      if (moved && awaiting.length === 0) return firstFailure!;
      focus = awaiting.length === 1 ? awaiting[0] : undefined;
      // A check that waited in the page for a wait's condition has waited already.
      if (awaiting.length === 0) await pause(context, 50);
    }
  }

  private async performCached(checked: CheckPass, started: number, checkMs: number): Promise<void> {
    const { page, context, params } = this.input;
    this.guardSteps();
    // Loads before a step recorded after one are its own to expect.
    if (checked.node.state.navigatedBefore !== false) this.account(navigationWatch(page).documentCount);
    this.detourAfterDialog = false;
    const before = beforeAction(page);
    const acting = Date.now();
    this.dialogs.beginStep(checked.node.state.dialogs ?? []);
    // A tool step is a call of the user's function (its pre-check passed with the other checks).
    const tool = checked.action.type === 'tool' ? this.toolNamed(checked.action.name) : undefined;
    if (tool && checked.action.type === 'tool') this.noteToolResult(await context.bounded(callTool(page, tool, checked.action.args, params), `calling tool "${tool.name}"`));
    // A recorded wait is never replayed as time: its checks waited for what the page had to show.
    else if (!checked.alreadyDone && checked.action.type !== 'wait') {
      await this.input.origins.checkSecretTyping(page, checked.node.action, params, this.ledger.steps.length + 1);
      this.waits.acting();
      const focus = checked.action.type === 'type' ? await markFocus(page) : undefined;
      await performAction(page, checked.action, checked.typeMode, context);
      // Found by the fault suite: a field replaced while its keys went left it empty under a run that said replayed.
      if (focus && !(await focusKept(focus))) this.pendingProblem = { reason: `the field lost the focus while step ${this.ledger.steps.length + 1} typed (the page replaced or left it): whether the text arrived cannot be shown`, kind: 'focus' };
    }
    await settle(page, before, context);
    this.input.origins.checkPage(page, this.ledger.steps.length + 1);
    if (checked.action.type !== 'wait') this.waits.acted();
    // After the page settled: a failure is not this step's error, the next step diverges with it.
    if (tool && checked.action.type === 'tool') {
      const problem = await checkToolCall(tool, checked.node, 'post', { page, params, args: checked.action.args });
      if (problem !== undefined) this.pendingProblem = { reason: problem, kind: 'tool' };
    }
    // A dialog the recording did not have, open while this step acted, may have swallowed its input.
    const dialog = tool || (!checked.alreadyDone && checked.action.type !== 'wait') ? this.dialogs.unexpectedSince(acting) : undefined;
    if (dialog && this.pendingProblem === undefined) this.pendingProblem = { reason: `an unexpected ${dialog} was open while step ${this.ledger.steps.length + 1} acted (it was dismissed): whether that step took effect cannot be shown`, kind: 'dialog' };
    const intent = this.intentOf(checked.node);
    // Logged and stored as recorded, with templates: parameter values stay out of logs and the store.
    const point = actionPoint(checked.action);
    const stored = point ? withPoint(checked.node.action, point) : checked.node.action;
    context.log(`${checked.kind} ${describeAction(stored)}${checked.alreadyDone ? ' (already in the recorded state)' : ''}${intent ? ` - ${intent}` : ''}`);
    this.ledger.pushStep({ kind: checked.kind, action: this.redactAction(checked.action), stored, intent, startedAt: started, checkMs, nodeId: checked.node.id, crop: checked.crop });
    this.ledger.noteUse(checked.node.id, true);
    this.stepDone(checked.node);
  }

  /**
   * One agent call and the actions it answers with. After each action, follow the cached path
   * where the agent did a cached step's work, and re-join it where a cached step's checks pass.
   */
  private async agentTurn(): Promise<AgentTurn> {
    const { agent, context, limits, page, params, task, tools } = this.input;
    if (!agent) throw new RoteError('invalid-argument', 'no agent was given for a step the cache cannot do');
    if (this.ledger.agentCalls >= limits.maxAgentCalls) throw new RoteError('agent', `the agent budget of ${limits.maxAgentCalls} calls is spent`);
    // A document on its way in (the page reloading itself) is waited for: the agent decides on the page that will be there.
    await documentArrived(page, context);
    // Counted before the screenshot: a document that arrives while it is taken is one the agent has not seen.
    const seen = navigationWatch(page).documentCount;
    const window = this.windows.observed(page);
    const observation = await observe({ page, task, params, ledger: this.ledger, tools, deadline: context, ...(window ? { window } : {}) });
    this.lastSeen = { screenshot: observation.screenshot, viewport: observation.viewport };
    // The agent sees the page as it is now: what it does next accounts for any load before.
    this.account(seen);
    const answer = await this.askAgent(agent, observation);
    if (isDone(answer)) {
      this.ledger.answer = answer.answer;
      context.log(`agent: done${answer.answer ? ` (${answer.answer})` : ''}`);
      await this.waits.ended(page, params);
      this.markEnd();
      return 'done';
    }
    if (answer.actions.length === 0) throw new RoteError('agent', 'the agent answered with no actions and did not say it was done');
    const queue = [...answer.actions];
    let acted = false;
    for (let raw = queue.shift(); raw !== undefined; raw = queue.shift()) {
      context.throwIfStopRequested();
      // An action that opened a window, or closed the one it was in: the rest of the answer was
      // planned on a screen the run is no longer in, so the agent looks again instead.
      if ((await this.followWindow()) && acted) {
        context.log(`the agent's last action moved the run to another window: ${queue.length + 1} more of its actions are not done`);
        return 'continuing';
      }
      acted = true;
      const node = await this.performAgentAction(parseAgentAction(raw), answer.intent);
      // What the agent said to do after answering a prompt this action opened comes next.
      queue.unshift(...this.afterPrompt.splice(0));
      const rejoin = this.cursor.rejoin;
      if (!rejoin) continue;
      rejoin.detour.push(node);
      const followed = (await this.view.children(rejoin.after)).find((cached) => !this.view.isNew(cached.id) && doesSameWork(cached, node));
      if (followed) rejoin.after = nodeRef(followed.id);
      const after = await findRejoin(this.env, this.view, rejoin.after, rejoin.detour, this.cursor.doneIds, this.ledger.forks.steps);
      if (after === undefined) continue;
      // A new step records where it re-joined; a stored step the agent repeated is left as it is
      // (the link would change the tree for every later run), and the jump holds for this run only.
      if (this.view.isNew(node.id)) {
        node.resumeAtId = resumeAtIdOf(after);
        this.cursor.takeBack();
      } else {
        this.cursor.takeBack(after);
      }
      context.log(`re-joined the recorded path after ${describeRef(after)}`);
      return 'rejoined';
    }
    return 'continuing';
  }

  /**
   * One agent call, bounded by the run's deadline and abort signal (an agent that never answers is
   * abandoned then); its cost is counted even when it fails.
   */
  private async askAgent(agent: Agent, observation: Parameters<Agent['next']>[0]): Promise<AgentAnswer> {
    const { context } = this.input;
    this.ledger.agentCalls++;
    this.asking = true;
    try {
      const answer = await context.bounded(Promise.resolve().then(() => agent.next(observation)), 'waiting for the agent', { stoppable: true });
      this.ledger.addUsage(answer.usage);
      return answer;
    } catch (error) {
      // A failed call still cost something: an agent may put its usage on the error.
      this.ledger.addUsage((error as { usage?: AgentUsage } | undefined)?.usage);
      // The run's own timeout names where it stood, and the dialog that held the page, if one did.
      if (RoteError.isInstance(error) && error.code === 'timeout' && Date.now() >= context.deadline) {
        const dialog = observation.dialog ? `prompt "${observation.dialog.message.slice(0, 80)}"` : this.dialogs.openNow;
        throw context.timeoutError(`at step ${this.ledger.steps.length + 1} while waiting for the agent${dialog ? ` (a ${dialog} was open; it was dismissed)` : ''}`);
      }
      throw error;
    } finally {
      this.asking = false;
    }
  }

  private async performAgentAction(agentAction: Action, agentIntent: string | undefined): Promise<TrajectoryNode> {
    const { page, params, context, identity } = this.input;
    // The agent never sees a secret; it types `{{password}}`, which is bound here before acting.
    const action = mapActionText(agentAction, (text, field) => renderKnown(text, field === 'url' ? urlRenderingParams(text, params) : params));
    const intent = agentIntent === undefined ? undefined : redactSecrets(agentIntent, params);
    this.guardSteps();
    const stepNumber = this.ledger.steps.length + 1;
    // Any agent's point off the screen is refused before it lands on whatever Playwright would scroll there.
    const viewport = page.viewportSize();
    const outside = viewport ? offScreen(action, viewport) : undefined;
    if (outside) throw new RoteError('agent', `the agent's step ${stepNumber} was not done: ${outside}`);
    this.input.origins.checkNavigation(action, stepNumber);
    await this.input.origins.checkSecretTyping(page, agentAction, params, stepNumber);
    const watch = navigationWatch(page);
    // What a replay may expect: a new document loaded before this step (while the agent thought) or during it.
    const navigatedBefore = watch.documentCount !== this.commitsAtStepEnd;
    this.commitsAtStepStart = watch.documentCount;
    const started = Date.now();
    this.dialogs.beginStep('record');
    const parent = this.cursor.at;
    const stepInput = { intent, params, taskId: identity.key, valueSalt: identity.valueSalt, parentId: parent.kind === 'root' ? null : parent.id, deadline: context, asGiven: agentAction };
    // What the page did since the last step acted is what this step waited for (a wait waits on).
    const waitedFor = action.type === 'wait' ? undefined : await this.waits.capture(page, params, actionPoint(action));
    if (action.type !== 'wait') this.waits.acting();
    // The form controls there before the step: a value that shows in one of them after it was set by it (pathLearning.ts).
    const controlsBefore = action.type === 'tool' ? undefined : await withinDeadline(narrowed(context, SHOWN_VALUES_LIMIT_MS), controlSelectors(page), 'listing the form controls').catch(() => undefined);
    let step: AgentStep;
    if (action.type === 'tool') {
      const recorded = await context.bounded(recordToolStep(page, action, this.toolNamed(action.name), stepInput), `calling tool "${action.name}"`);
      this.noteToolResult(recorded.result);
      step = recorded;
    } else {
      step = await performAgentStep(page, action, stepInput);
    }
    // The agent failed on a prompt this step opened: the step ran (it is in the result), then the run fails with that.
    const promptFailure: unknown = this.dialogs.failure;
    if (this.dialogs.raisedThisStep.length > 0) this.noteDialogs(step.node);
    // What the page showed of the values before this step: where a value set by clicks first shows (pathLearning.ts).
    if (controlsBefore) await this.noteShownValues(step.node, new Set(controlsBefore));
    if (step.crop) this.ledger.crops.set(step.crop.hash, step.crop.bytes);
    step.node.state.navigated = watch.documentCount !== this.commitsAtStepStart;
    step.node.state.navigatedBefore = navigatedBefore;
    if (this.detourAfterDialog) step.node.state.afterDialog = true;
    const window = this.windows.indexOf(page);
    if (window > 0) step.node.state.window = window;
    this.detourAfterDialog = false;
    // Runs that share a prefix share nodes: an equal stored step stands for this one.
    const existing = (await this.view.children(parent)).find((node) => sameStep(node, step.node));
    const node = existing ?? step.node;
    if (!existing) this.view.add(step.node);
    if (action.type === 'wait') this.waits.waited(node, !existing);
    else {
      // A stored step the agent repeated keeps its state: the condition then goes nowhere.
      if (!existing) this.waits.attach(waitedFor, node);
      this.waits.acted();
    }
    context.log(`agent ${describeAction(step.node.action)}${intent ? ` - ${intent}` : ''}`);
    this.ledger.pushStep({ kind: 'agent', action: this.redactAction(action), stored: step.node.action, intent, startedAt: started, checkMs: 0, nodeId: node.id, crop: step.crop?.bytes });
    if (promptFailure !== undefined) throw promptFailure;
    this.input.origins.checkPage(page, stepNumber);
    this.stepDone(node);
    return node;
  }

  /**
   * The agent's action opened a native prompt, which blocks the page until it is answered: the
   * agent is asked (one more call), shown the prompt and the screen it saw before its action.
   */
  private async answerPrompt(dialog: NativeDialog): Promise<DialogAnswer & { by?: 'rule'; reason?: string }> {
    const { agent, context, params } = this.input;
    const quoted = `"${redactSecrets(dialog.message, params).slice(0, 80)}"`;
    if (!agent) return { accept: true, by: 'rule', reason: 'no agent to ask: OK with the text offered' };
    if (this.asking) {
      context.log(`a prompt ${quoted} came while the agent was thinking: cancelled`);
      return { accept: false, by: 'rule', reason: 'it came while the agent was deciding its next step' };
    }
    // The rule for an agent that does not decide a prompt (one written before prompts were put to
    // agents, or reading the page, which the prompt blocks): asked once more, saying why, then the
    // prompt is dismissed and the run fails; never a silent wait, never an answer made up for it.
    for (const note of [undefined, PROMPT_ASKED_AGAIN]) {
      const decided = await this.askPrompt(dialog, note);
      if (decided) return decided;
      context.log(`agent: no decision for the prompt ${quoted}${note ? '' : ', asked again'}`);
    }
    throw new RoteError('dialog-unanswered', `${context.apiName}: the agent was asked twice to answer the prompt ${quoted} (opened by step ${this.ledger.steps.length + 1}) and gave no decision (the answer's dialog: { accept: true, text? } or { accept: false }); it was dismissed`);
  }

  /** One agent call for a prompt: its decision, or undefined when the answer had none. */
  private async askPrompt(dialog: NativeDialog, note: string | undefined): Promise<DialogAnswer | undefined> {
    const { agent, context, limits, page, params, task, tools } = this.input;
    if (this.ledger.agentCalls >= limits.maxAgentCalls) throw new RoteError('agent', `the agent budget of ${limits.maxAgentCalls} calls is spent (a prompt asked "${redactSecrets(dialog.message, params).slice(0, 80)}")`);
    const observation = await observe({ page, task, params, ledger: this.ledger, tools, deadline: context, dialog: note ? { ...dialog, note } : dialog, ...(this.lastSeen ? { seen: this.lastSeen } : {}) });
    const answer = await this.askAgent(agent!, observation);
    if (isDone(answer) || !answer.dialog) {
      // Actions given without a decision are not done: the page cannot take them while the prompt holds it.
      if (!isDone(answer) && answer.actions.length > 0) context.log(`agent: ${answer.actions.length} action(s) given with no decision for the prompt were not done`);
      return undefined;
    }
    context.log(`agent answers the prompt "${redactSecrets(dialog.message, params).slice(0, 80)}"`);
    this.afterPrompt.push(...answer.actions);
    return answer.dialog;
  }

  /** A step's dialogs are stored with it; a prompt answered with a value it cannot tell for sure is guarded like typed text. */
  private noteDialogs(node: TrajectoryNode): void {
    const { params, identity } = this.input;
    node.state.dialogs = [...this.dialogs.raisedThisStep];
    const { literal, ambiguous } = this.dialogs.answersThisStep;
    if (ambiguous.length > 0) node.state.ambiguous = [...(node.state.ambiguous ?? []), ...ambiguous];
    const guarded = literalGuards(literal, params, identity.valueSalt);
    if (guarded) node.state.literalOf = { ...node.state.literalOf, ...guarded };
  }

  /**
   * The values form controls showed before the agent's step (its evidence) and after it: where a
   * value set by clicks first shows (pathLearning.ts). A page that cannot be read now leaves the
   * step unknown, which binds nothing.
   */
  private async noteShownValues(fresh: TrajectoryNode, controlsBefore: ReadonlySet<string>): Promise<void> {
    const { page, params, context } = this.input;
    const after = await withinDeadline(narrowed(context, SHOWN_VALUES_LIMIT_MS), shownValues(page, params.toRecord()), 'reading the values on the page').catch(() => undefined);
    if (!after) return;
    const before = (fresh.state.watches ?? []).map((watch) => watch.param);
    // A value in a control that came with the step (a new page, an edit dialog) was the record's already: not set by the step.
    const set = after.filter((watch) => before.includes(watch.param) || controlsBefore.has(watch.selector)).map((watch) => watch.param);
    this.ledger.shown.set(this.ledger.steps.length, { before, after: set });
  }

  /** Documents up to `documents` are explained; the steps entered since start counting again. */
  private account(documents: number): void {
    this.commitsAccounted = documents;
    this.stepsSinceAccounted = 0;
  }

  private stepDone(node: TrajectoryNode): void {
    const loadedDuring = navigationWatch(this.input.page).documentCount !== this.commitsAtStepStart;
    this.commitsAtStepEnd = navigationWatch(this.input.page).documentCount;
    this.stepsSinceAccounted++;
    // A step recorded with no load leaves a load during it unexplained; one that loaded (or is not
    // known to have) explains it, and the load it made when recorded may still be on its way (a
    // redirect after the page went quiet): one more document is its own, not a surprise.
    if (node.state.navigated !== false) this.account(this.commitsAtStepEnd + (node.state.navigated === true && !loadedDuring ? 1 : 0));
    this.cursor.stepped(node);
    for (const name of namesUsedBy(node)) this.usedSoFar.add(name);
  }

  /** The agent said done here: a replay that gets here is complete, on the page it is on now. */
  private markEnd(): void {
    this.ledger.endedByAgent = true;
    const node = this.view.nodeAt(this.cursor.at);
    if (!node || node.endsRun) return;
    this.ledger.newEnd = !this.view.isNew(node.id);
    node.endsRun = true;
    node.state.endUrl = templatedUrl(this.input.page.url(), this.input.params);
    // A stored node learns it too, end URL and all, so the end check runs for it next time.
    if (!this.view.isNew(node.id)) this.ledger.link({ id: node.id, endsRun: true, endUrl: node.state.endUrl });
  }

  /** A recorded step as a person reads it: its intent (or action) and the element it acts on. */
  private describeStep(node: TrajectoryNode): string {
    const what = `"${this.intentOf(node) ?? describeAction(node.action)}"`;
    return node.fingerprint ? `${what} on ${describeFingerprint(node.fingerprint)}` : what;
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

  /** An action as results and observations show it: secret values as the mask. */
  private redactAction(action: Action): Action {
    const { params } = this.input;
    if (!params.hasSecrets) return action;
    return mapActionText(action, (text) => redactSecrets(text, params), { keysAndNumbers: true });
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
    if (shown !== undefined) this.ledger.toolResults.set(this.ledger.steps.length, shown);
  }

  private guardSteps(): void {
    if (this.ledger.steps.length >= this.input.limits.maxSteps) throw new RoteError('agent', `the step budget of ${this.input.limits.maxSteps} steps is spent`);
  }

  /** The run's error for a divergence, from what the divergence itself holds: its step's intent or action. */
  private describeDivergence(divergence: Divergence): string {
    const { apiName } = this.input.context;
    const step = divergence.intent ?? (divergence.action ? describeAction(divergence.action) : undefined);
    return `${apiName}: step ${divergence.step + 1}${step ? ` (${step})` : ''} diverged: ${divergence.reason}`;
  }
}

function parseAgentAction(raw: unknown): Action {
  try {
    return parseAction(raw);
  } catch (error) {
    throw new RoteError('agent', `the agent answered with an action rote cannot perform: ${JSON.stringify(raw)}`, { cause: error });
  }
}

