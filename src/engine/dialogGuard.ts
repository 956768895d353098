import type { Dialog, Page } from 'playwright';
import type { DialogAnswer, NativeDialog } from '../agent/agent.js';
import type { BoundParams } from '../params/boundParams.js';
import { redactSecrets } from '../params/secret.js';
import { renderKnown, renderTemplate, templatize } from '../params/template.js';
import type { RecordedDialog } from './trajectoryNode.js';
import { unprovenSecrets } from './recordStep.js';

/** Asks the agent how to answer a native prompt its action opened. */
export type PromptAnswerer = (dialog: NativeDialog) => Promise<DialogAnswer>;

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
  private readonly listener = (dialog: Dialog) => void this.answer(dialog);

  constructor(
    private readonly page: Page,
    private readonly params: BoundParams,
    private readonly answerPrompt: PromptAnswerer | undefined,
  ) {
    page.on('dialog', this.listener);
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
    try {
      if (this.expected === 'record') {
        await this.recordAnswer(dialog, type, message);
        return;
      }
      const known = this.expected.find((recorded) => recorded.type === type && safeRender(recorded.message, this.params) === message);
      if (known) {
        this.raised.push(known);
        if (!known.accepted) await dialog.dismiss();
        // A prompt gets the recorded answer with this run's values, or the text it offers now (OK with no typing).
        else if (type === 'prompt') await dialog.accept(known.text === undefined ? dialog.defaultValue() : renderTemplate(known.text, this.params));
        else await dialog.accept();
        return;
      }
      const what = `${type} "${redactSecrets(message, this.params).slice(0, 120)}"`;
      this.unexpected.push(what);
      const open: { what: string; openedAt: number; closedAt?: number } = { what, openedAt: Date.now() };
      this.unexpectedOpen.push(open);
      try {
        await dialog.dismiss();
      } finally {
        open.closedAt = Date.now();
      }
    } catch (error) {
      // The page closed while the dialog was open, or the agent failed on a prompt: the prompt is
      // cancelled (never answered blind) and the step fails with the agent's error.
      if (type === 'prompt' && this.expected === 'record') this.failure = error;
      await dialog.dismiss().catch(() => undefined);
    }
  }

  private async recordAnswer(dialog: Dialog, type: string, message: string): Promise<void> {
    const stored = templatize(message, this.params).template;
    if (type !== 'prompt') {
      this.raised.push({ type, message: stored, accepted: true });
      await dialog.accept();
      return;
    }
    const offered = dialog.defaultValue();
    const answer: DialogAnswer = this.answerPrompt ? await this.answerPrompt({ type: 'prompt', message, defaultValue: offered }) : { accept: true };
    if (!answer.accept) {
      this.raised.push({ type, message: stored, accepted: false });
      await dialog.dismiss();
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
    await dialog.accept(text ?? offered);
  }
}

function safeRender(template: string, params: BoundParams): string | undefined {
  try {
    return renderTemplate(template, params);
  } catch {
    return undefined;
  }
}
