import type { Page } from 'playwright';
import { describeAction, type Action, type ActionInput } from '../actions/action.js';
import { mapActionText } from '../actions/actionText.js';
import type { Agent, Observation } from '../agent/agent.js';
import { describeFingerprint } from '../checks/fingerprint.js';
import { RoteError } from '../errors/roteError.js';
import type { BoundParams } from '../params/boundParams.js';
import type { ParamSchema } from '../params/paramType.js';
import { redactSecrets } from '../params/secret.js';
import type { TaskIdentity } from '../params/taskKey.js';
import { renderForDisplay } from '../params/template.js';
import type { Store } from '../store/store.js';
import type { Tool, ToolRegistry } from '../tools/toolRegistry.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { Cursor } from './cursor.js';
import { DialogGuard } from './dialogGuard.js';
import { DocumentAccounts } from './documentAccounts.js';
import type { OriginGuard } from './originGuard.js';
import { namesUsedBy, valueHashesOf } from './paramBindings.js';
import type { CheckEnvironment } from './preCheck.js';
import type { RunContext } from './runContext.js';
import { RunLedger } from './runLedger.js';
import type { RunMode } from './runResult.js';
import { RunWindows } from './runWindows.js';
import { resultForAgent } from './toolStep.js';
import { answerPrompt } from './promptAnswer.js';
import { TrajectoryView } from './trajectoryView.js';
import { RunTimeAccount } from './runTime.js';
import { WaitWindow } from './waitCondition.js';
import { ChangeLogAtLoad } from '../checks/pageChanges.js';

export type RunLimits = {
  /** How long a cached step's checks may wait for the page to show its target. */
  checkTimeoutMs: number;
  maxAgentCalls: number;
  maxSteps: number;
};

/** One run, planned: everything it needs before it starts (see rote.ts). */
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

/**
 * What the step before left for the next turn to read: it may not have done its work (a tool's
 * post-check failed, a dialog overlapped it, the field lost the focus, a document loaded while it
 * acted), so the next cached step
 * diverges with this reason.
 */
export type StepProblem = {
  reason: string;
  kind: 'tool' | 'dialog' | 'focus' | 'document';
  /** The step did not act at all (a document loaded after its checks): it is not one of the run's steps. */
  notDone?: true;
};

/** A cached step's provisional settling, confirmed: see RunState.confirmSettled. */
export type SettleConfirmation = {
  holds: boolean;
  problem?: StepProblem;
  /** Where a provisional settle held: settles the page the usual way after all, for a read the sentinel cannot vouch for. */
  settleFully?: () => Promise<void>;
  /** Where a provisional settle held: when its action began, which names the sentinel that vouched for it (lastLook.ts). */
  actionAt?: number;
};
export type PendingSettle = (() => Promise<SettleConfirmation>) & {
  /** When the action began whose settle this confirms: the name of the sentinel it left (settle.ts). */
  readonly actionAt?: number;
};

/**
 * What one run holds while it runs, shared by its turns (drive.ts): where it stands, what it has
 * done, the window it is in and what that window loaded. Created when the run record exists.
 */
export class RunState {
  readonly view: TrajectoryView;
  readonly env: CheckEnvironment;
  readonly ledger = new RunLedger();
  /** Where the run's time goes, by part (RunResult.time). */
  readonly time = new RunTimeAccount();
  readonly cursor = new Cursor();
  /** Parameters the steps so far have put on the page (the hazard guard reads it). */
  readonly usedSoFar = new Set<string>();
  readonly valueHashes: Record<string, string>;
  /** What the page did while the recording waited, for the step that waited for it. */
  readonly waits = new WaitWindow();
  /** The run's page and the windows its pages open: steps act in the newest one still open. */
  readonly windows: RunWindows;
  readonly documents: DocumentAccounts;
  /** The change log from each new document's DOMContentLoaded, in every window of the run (pageChanges.ts). */
  readonly changeLogAtLoad = new ChangeLogAtLoad();
  /** The window steps act in now. */
  page: Page;
  /** The agent takes over after a dialog overlapped a cached step: its first step is the one learned for that (NodeState.afterDialog). */
  detourAfterDialog = false;
  /**
   * The hand-over comes because the step before may not have done its work (a dialog swallowed its
   * keys, the field was replaced): the agent finishes the task. A re-join would go on after that
   * step as if done, and the cached path would submit what it left (found by the fault suite: a
   * date typed short under an alert, the agent's click to mend it re-joined the path after it).
   */
  unprovenStep = false;
  /**
   * The last cached step's settling, when it was provisional (checks/settleConfirm.ts): what the
   * next step reads of the page counts only once this confirms it; confirmSettled takes it.
   */
  settling: PendingSettle | undefined;
  /** The screen the agent last saw: shown again when a native prompt blocks a new capture. */
  lastSeen: { screenshot: Buffer; viewport: Observation['viewport'] } | undefined;
  /** Actions the agent gave with a prompt's answer, done after the step that opened the prompt. */
  readonly afterPrompt: ActionInput[] = [];
  /** An agent call is under way: a prompt the page raises meanwhile (a timer's) is not put to a second, concurrent call. */
  asking = false;

  /** Answers native dialogs from the moment the run record exists (watchDialogs); disposed before the commit. */
  dialogs!: DialogGuard;

  constructor(readonly input: RunInput) {
    this.page = input.page;
    this.view = new TrajectoryView(input.store, input.identity.key);
    this.windows = new RunWindows(input.page);
    this.documents = new DocumentAccounts(input.page);
    // Secrets are never hashed: a hash of a short password is as good as the password.
    this.valueHashes = valueHashesOf(input.params, input.identity.valueSalt);
    this.env = {
      page: input.page,
      params: input.params,
      blob: async (hash) => this.ledger.crops.get(hash) ?? (await input.store.getBlob(hash)),
      usedSoFar: this.usedSoFar,
      valueHashes: this.valueHashes,
      deadline: input.context,
      unexplainedLoads: () => this.documents.unexplained(),
      ...(input.tools ? { tools: input.tools } : {}),
    };
  }

  /**
   * The last step's settling, confirmed (settled the usual way where it did not hold): whether what
   * was read of the page since still holds, and what the step was found to have left unproven once
   * the page had settled. Each pending settle is confirmed once; with none pending, it holds.
   */
  /** When the action began whose provisional settle is still to be confirmed; undefined when none is. */
  get settlingActionAt(): number | undefined {
    return this.settling?.actionAt;
  }

  async confirmSettled(): Promise<SettleConfirmation> {
    const pending = this.settling;
    this.settling = undefined;
    return pending ? await pending() : { holds: true };
  }

  /** The run record exists: from now on the run answers the page's native dialogs. */
  watchDialogs(): void {
    this.dialogs = new DialogGuard(this.input.page, this.input.params, (dialog) => answerPrompt(this, dialog), () => this.ledger.steps.length);
  }

  get context(): RunContext {
    return this.input.context;
  }

  get params(): BoundParams {
    return this.input.params;
  }

  /** The number people read for the step about to be done: steps are numbered from 1. */
  get nextStepNumber(): number {
    return this.ledger.steps.length + 1;
  }

  /** A step was done at `node`: the run stands there now. */
  stepDone(node: TrajectoryNode): void {
    this.documents.stepDone(node);
    this.cursor.stepped(node);
    for (const name of namesUsedBy(node)) this.usedSoFar.add(name);
  }

  guardSteps(): void {
    const { maxSteps } = this.input.limits;
    if (this.ledger.steps.length >= maxSteps) throw new RoteError('agent', `the step budget of ${maxSteps} steps is spent`);
  }

  /** A recorded step as a person reads it: its intent (or action) and the element it acts on. */
  describeStep(node: TrajectoryNode): string {
    const what = `"${this.intentOf(node) ?? describeAction(node.action)}"`;
    return node.fingerprint ? `${what} on ${describeFingerprint(node.fingerprint)}` : what;
  }

  /** A recorded intent with this run's values in place of its templates. */
  intentOf(node: TrajectoryNode): string | undefined {
    if (!node.intent) return undefined;
    try {
      return renderForDisplay(node.intent, this.params);
    } catch {
      return node.intent;
    }
  }

  /** An action as results and observations show it: secret values as the mask. */
  redactAction(action: Action): Action {
    if (!this.params.hasSecrets) return action;
    return mapActionText(action, (text) => redactSecrets(text, this.params), { keysAndNumbers: true });
  }

  /** A tool the agent called, or a recorded step names (its pre-check made sure it is registered). */
  toolNamed(name: string): Tool {
    const tool = this.input.tools?.get(name);
    if (tool) return tool;
    const known = this.input.tools?.list().map((info) => info.name) ?? [];
    throw new RoteError('agent', `the agent called tool "${name}", which is not registered with this Rote (registered: ${known.join(', ') || 'none'})`);
  }

  /** Keeps a tool's result for the step about to be pushed, for the agent's next observation. */
  noteToolResult(result: unknown): void {
    const shown = resultForAgent(result, this.params);
    if (shown !== undefined) this.ledger.toolResults.set(this.ledger.steps.length, shown);
  }
}
