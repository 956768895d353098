import type { Dialog, Page } from 'playwright';
import type { DialogAnswer, NativeDialog } from '../agent/agent.js';
import type { BoundParams } from '../params/boundParams.js';
import { redactSecrets } from '../params/secret.js';
import { renderKnown, renderTemplate, templatize } from '../params/template.js';
import type { RecordedDialog } from '../trajectory/trajectoryNode.js';
import { RoteError } from '../errors/roteError.js';
import { deadlineIn, withinDeadline } from '../progress/deadline.js';
import type { RunEvents } from './runEvents.js';
import { unprovenSecrets } from './recordStep.js';

/** Asks the agent how to answer a native prompt its action opened; `by: 'rule'` when rote decided instead (no agent, or one busy deciding). */
export type PromptAnswerer = (dialog: NativeDialog) => Promise<DialogAnswer & { by?: 'rule'; reason?: string }>;

/**
 * What rote did with one native dialog, for the run result and the report. `by` says who decided:
 * the recording (a cached step's dialog, answered as recorded), the agent (a prompt), or rote's
 * rule (an agent step's alert or confirm is accepted; anything a cached step did not record, a
 * prompt the agent left undecided, or a dialog still open when the run ends is dismissed).
 */
export type DialogEvent = NonNullable<RunEvents['dialogs']>[number];

/**
 * Answers native dialogs (alert, confirm, prompt, beforeunload) during a run. While the agent
 * acts, an alert or confirm is accepted (as the person who clicked Save meant), a prompt is put
 * to the agent (OK with a text of its choosing, OK with the text offered, or Cancel), and each is
 * recorded with the step, a prompt's answer templated where it is a parameter's value. While a
 * cached step replays, a dialog is answered as recorded only when it is the same dialog (a prompt
 * with this run's value); any other is dismissed, so an unforeseen "Delete all records?" is never
 * accepted from the cache.
 */
export class DialogGuard {
  private expected: readonly RecordedDialog[] | 'record' = 'record';
  private raised: RecordedDialog[] = [];
  private literal = new Set<string>();
  private ambiguous: string[][] = [];
  /** Dialogs dismissed because the recording did not have them, described for divergence reasons. */
  readonly unexpected: string[] = [];
  /** When each of those was open (closedAt unset while it is): an action it overlapped may not have landed. */
  private readonly unexpectedOpen: { what: string; openedAt: number; closedAt?: number }[] = [];
  /** What went wrong while answering (the agent failed on a prompt): the step fails with it. */
  failure: unknown;
  /** Every dialog of the run and what was done with it. */
  readonly events: DialogEvent[] = [];
  /** Dialogs being answered now (a prompt waits for the agent): none may outlive the run. */
  private readonly open = new Set<Dialog>();
  private readonly listener = (dialog: Dialog) => void this.answer(dialog);

  constructor(
    private readonly page: Page,
    private readonly params: BoundParams,
    private readonly answerPrompt: PromptAnswerer | undefined,
    /** The step acting or about to act, for the events. */
    private readonly currentStep: () => number = () => 0,
  ) {
    page.on('dialog', this.listener);
  }

  /** The message of the dialog open now (a prompt waiting for the agent), secrets masked; undefined when none is. */
  get openNow(): string | undefined {
    const [dialog] = this.open;
    return dialog ? `${dialog.type()} "${redactSecrets(dialog.message(), this.params).slice(0, 120)}"` : undefined;
  }

  /**
   * Dismisses every dialog still open (the run is ending: no agent answer can come in time), so the
   * caller gets back a page that answers. Bounded: a page that does not take the answer is left.
   */
  async closeAll(): Promise<void> {
    // No new dialog comes to this guard now (Playwright dismisses those with no listener); an answer still on its way finds its dialog gone.
    this.dispose();
    const left = [...this.open];
    this.open.clear();
    for (const dialog of left) this.note(dialog, 'dismissed', 'rule', 'still open when the run ended');
    await withinDeadline(deadlineIn(CLOSE_LIMIT_MS), Promise.all(left.map((dialog) => dialog.dismiss().catch(() => undefined))), 'closing dialogs').catch(() => undefined);
  }

  /** Before an action: `record` for an agent step, or the dialogs the cached step recorded. */
  beginStep(expected: readonly RecordedDialog[] | 'record'): void {
    this.expected = expected;
    this.raised = [];
    this.literal = new Set();
    this.ambiguous = [];
    this.failure = undefined;
  }

  /** The dialogs raised since beginStep, to store with the step. */
  get raisedThisStep(): readonly RecordedDialog[] {
    return this.raised;
  }

  /**
   * Parameters a prompt's answer rendered in a form that could not be told for sure (kept literal,
   * so guarded like typed text), and values it could stand for several parameters of.
   */
  get answersThisStep(): { literal: string[]; ambiguous: string[][] } {
    return { literal: [...this.literal], ambiguous: this.ambiguous };
  }

  /**
   * An unexpected dialog that was open at some moment from `since` to now: while a page shows a
   * native dialog, input sent to it may be lost (a click that never lands, keys that never arrive),
   * so an action taken in that window cannot be shown to have happened.
   */
  unexpectedSince(since: number): string | undefined {
    return this.unexpectedOpen.find((open) => open.closedAt === undefined || open.closedAt >= since)?.what;
  }

  dispose(): void {
    this.page.off('dialog', this.listener);
  }

  private async answer(dialog: Dialog): Promise<void> {
    const type = dialog.type();
    const message = dialog.message();
    this.open.add(dialog);
    try {
      if (this.expected === 'record') {
        await this.recordAnswer(dialog, type, message);
        return;
      }
      const known = this.expected.find((recorded) => recorded.type === type && safeRender(recorded.message, this.params) === message);
      if (known) {
        this.raised.push(known);
        if (!known.accepted) await this.answerWith(dialog, 'dismissed', 'recording');
        // A prompt gets the recorded answer with this run's values, or the text it offers now (OK with no typing).
        else if (type === 'prompt') await this.answerWith(dialog, 'accepted', 'recording', { text: known.text === undefined ? dialog.defaultValue() : renderTemplate(known.text, this.params) });
        else await this.answerWith(dialog, 'accepted', 'recording');
        return;
      }
      const what = `${type} "${redactSecrets(message, this.params).slice(0, 120)}"`;
      this.unexpected.push(what);
      const open: { what: string; openedAt: number; closedAt?: number } = { what, openedAt: Date.now() };
      this.unexpectedOpen.push(open);
      try {
        await this.answerWith(dialog, 'dismissed', 'rule', { reason: 'the recorded step had no such dialog' });
      } finally {
        open.closedAt = Date.now();
      }
    } catch (error) {
      // The page closed while the dialog was open, or the agent failed on a prompt: the prompt is
      // cancelled (never answered blind) and the step fails with the agent's error.
      if (type === 'prompt' && this.expected === 'record') this.failure = error;
      if (this.open.has(dialog)) this.note(dialog, 'dismissed', 'rule', whyDismissed(error));
      await dialog.dismiss().catch(() => undefined);
    } finally {
      this.open.delete(dialog);
    }
  }

  /** Answers a dialog and notes what was done, unless the run's end closed it meanwhile. */
  private async answerWith(dialog: Dialog, outcome: DialogEvent['outcome'], by: DialogEvent['by'], options: { text?: string; reason?: string } = {}): Promise<void> {
    if (!this.open.has(dialog)) return;
    this.note(dialog, outcome, by, options.reason, options.text);
    this.open.delete(dialog);
    if (outcome === 'dismissed') await dialog.dismiss();
    else if (options.text !== undefined) await dialog.accept(options.text);
    else await dialog.accept();
  }

  private note(dialog: Dialog, outcome: DialogEvent['outcome'], by: DialogEvent['by'], reason?: string, text?: string): void {
    const event: DialogEvent = { step: this.currentStep(), type: dialog.type(), message: redactSecrets(dialog.message(), this.params), outcome, by };
    if (text !== undefined && dialog.type() === 'prompt') event.text = redactSecrets(text, this.params);
    if (reason !== undefined) event.reason = redactSecrets(reason, this.params);
    this.events.push(event);
  }

  private async recordAnswer(dialog: Dialog, type: string, message: string): Promise<void> {
    const stored = templatize(message, this.params).template;
    if (type !== 'prompt') {
      this.raised.push({ type, message: stored, accepted: true });
      await this.answerWith(dialog, 'accepted', 'rule', { reason: 'raised while the agent was in charge: accepted, as the person who clicked would' });
      return;
    }
    const offered = dialog.defaultValue();
    const answer: Awaited<ReturnType<PromptAnswerer>> = this.answerPrompt ? await this.answerPrompt({ type: 'prompt', message, defaultValue: offered }) : { accept: true, by: 'rule', reason: 'no agent to ask: OK with the text offered' };
    if (!answer.accept) {
      this.raised.push({ type, message: stored, accepted: false });
      await this.answerWith(dialog, 'dismissed', answer.by ?? 'agent', answer.reason !== undefined ? { reason: answer.reason } : {});
      return;
    }
    const recorded: RecordedDialog = { type, message: stored, accepted: true };
    // The agent never sees a secret: it answers `{{password}}`, bound here.
    const text = answer.text === undefined ? undefined : renderKnown(answer.text, this.params);
    if (text !== undefined) {
      const templated = templatize(text, this.params);
      recorded.text = templated.template;
      templated.literal.forEach((name) => this.literal.add(name));
      // A secret in the answer that the agent did not give by name may be there by chance: guarded.
      unprovenSecrets(templated.secretsFound, [answer.text ?? '']).forEach((name) => this.literal.add(name));
      this.ambiguous.push(...templated.ambiguous);
    }
    this.raised.push(recorded);
    await this.answerWith(dialog, 'accepted', answer.by ?? 'agent', { text: text ?? offered, ...(answer.reason !== undefined ? { reason: answer.reason } : {}) });
  }
}

/** How long closing a dialog at the end of a run may take before the page is left as it is. */
const CLOSE_LIMIT_MS = 1_000;

/** Why a prompt put to the agent was dismissed, in a few words (the run's error says the rest). */
function whyDismissed(error: unknown): string {
  if (RoteError.isInstance(error) && error.code === 'timeout') return "the agent gave no answer by the run's deadline";
  if (RoteError.isInstance(error) && error.code === 'dialog-unanswered') return 'the agent was asked twice and gave no decision';
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

function safeRender(template: string, params: BoundParams): string | undefined {
  try {
    return renderTemplate(template, params);
  } catch {
    return undefined;
  }
}
