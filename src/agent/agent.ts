import type { Action, ActionInput } from '../actions/action.js';

export type StepKind = 'cached' | 'relocated' | 'agent';

/** What an agent sees when it is asked for the next actions. */
export type Observation = {
  /** The run this call belongs to: a new id is a new run (a new conversation for a model agent). */
  runId: string;
  /** When the run must end (epoch ms): an answer after it is not used, so a model call should not outlast it. */
  deadline: number;
  /** The task as the caller gave it. */
  task: string;
  /** Bound parameter values; secrets are shown as "********". */
  params: Record<string, string>;
  /** PNG of the viewport. */
  screenshot: Buffer;
  url: string;
  viewport: { width: number; height: number };
  /** The steps done so far in this run, in order. */
  history: { action: Action; intent?: string; kind: StepKind; result?: unknown }[];
  /**
   * Custom tools the agent may call with `{ type: 'tool', name, args }` (JSON args; `{{name}}` in a
   * string stands for a parameter, as in typed text). A call's result shows as `result` in history.
   */
  tools: { name: string; description?: string }[];
  /** Present when the agent takes over from a cached step that diverged. */
  divergence?: { step: number; intent?: string; reason: string };
  /**
   * Present when the agent's last action opened a native prompt, which waits for an answer: its
   * message and the text it offers (what OK with no typing sends). The answer's `dialog` field
   * answers it. The screenshot is the page just before that action (a native dialog is not drawn),
   * and the page itself is blocked until the answer: an agent must not read or script it now.
   */
  dialog?: NativeDialog;
  /**
   * Present when the run acts in a window that a page of the run opened (an add or lookup window,
   * a link with a target) rather than the page it was given: `index` counts the windows opened in
   * this run (1 is the first), `open` how many are open now. The screenshot and the URL are that
   * window's; when it closes, the run is back in the window that opened it.
   */
  window?: { index: number; open: number; title: string };
};

/**
 * A native dialog waiting for an answer. `note` is present when the agent is asked a second time
 * because its answer gave no decision: the last chance before the prompt is dismissed and the run
 * fails with `dialog-unanswered`.
 */
export type NativeDialog = { type: 'prompt'; message: string; defaultValue: string; note?: string };

/**
 * The answer to a native prompt: OK with `text` (omitted: the text it offered, as OK with no
 * typing sends), or Cancel.
 */
export type DialogAnswer = { accept: true; text?: string } | { accept: false };

/** What answering cost: model requests (retries included) and tokens. Summed per run. */
export type AgentUsage = { modelCalls: number; inputTokens: number; outputTokens: number };

/** Actions in the computer-use shapes; the engine validates each before acting (a click's button defaults to left). */
/**
 * The next actions. When the observation shows a native prompt, `dialog` answers it first (without
 * one, it is answered OK with the text it offered) and `actions` may be empty.
 */
export type AgentDecision = { actions: ActionInput[]; intent?: string; usage?: AgentUsage; dialog?: DialogAnswer };
export type AgentDone = { done: true; answer?: string; usage?: AgentUsage };
export type AgentAnswer = AgentDecision | AgentDone;

/**
 * A policy asked for the next actions. It never drives the page itself: the engine acts,
 * checks and records, which is what makes mid-run takeover and re-joining possible.
 * One `next()` is one agent (model) call.
 */
export interface Agent {
  /** Shown in run results and logs. */
  readonly name?: string;
  next(observation: Observation): Promise<AgentAnswer>;
}

export function isDone(answer: AgentAnswer): answer is AgentDone {
  return 'done' in answer && answer.done === true;
}
