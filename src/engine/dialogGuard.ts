import type { Dialog, Page } from 'playwright';
import type { BoundParams } from '../params/params.js';
import { redactSecrets } from '../params/secret.js';
import { renderTemplate, templatize } from '../params/template.js';

/** A native dialog a step raised: its type, its message (with parameter values as templates), and the answer. */
export type RecordedDialog = { type: string; message: string; accepted: boolean };

/**
 * Answers native dialogs (alert, confirm, prompt, beforeunload) during a run. While the agent
 * acts, a dialog is accepted (as the person who clicked Save meant) and recorded with the step.
 * While a cached step replays, a dialog is answered as recorded only when it is the same dialog;
 * any other is dismissed, so an unforeseen "Delete all records?" is never accepted from cache.
 */
export class DialogGuard {
  private expected: readonly RecordedDialog[] | 'record' = 'record';
  private raised: RecordedDialog[] = [];
  /** Dialogs dismissed because the recording did not have them, described for divergence reasons. */
  readonly unexpected: string[] = [];
  private readonly listener = (dialog: Dialog) => void this.answer(dialog);

  constructor(
    private readonly page: Page,
    private readonly params: BoundParams,
  ) {
    page.on('dialog', this.listener);
  }

  /** Before an action: `record` for an agent step, or the dialogs the cached step recorded. */
  beginStep(expected: readonly RecordedDialog[] | 'record'): void {
    this.expected = expected;
    this.raised = [];
  }

  /** The dialogs raised since beginStep, to store with the step. */
  get raisedThisStep(): readonly RecordedDialog[] {
    return this.raised;
  }

  dispose(): void {
    this.page.off('dialog', this.listener);
  }

  private async answer(dialog: Dialog): Promise<void> {
    const type = dialog.type();
    const message = dialog.message();
    try {
      if (this.expected === 'record') {
        this.raised.push({ type, message: templatize(message, this.params).template, accepted: true });
        await dialog.accept();
        return;
      }
      const known = this.expected.find((recorded) => recorded.type === type && safeRender(recorded.message, this.params) === message);
      if (known) {
        this.raised.push(known);
        await (known.accepted ? dialog.accept() : dialog.dismiss());
        return;
      }
      this.unexpected.push(`${type} "${redactSecrets(message, this.params).slice(0, 120)}"`);
      await dialog.dismiss();
    } catch {
      // The page closed while the dialog was open: nothing left to answer.
    }
  }
}

function safeRender(template: string, params: BoundParams): string | undefined {
  try {
    return renderTemplate(template, params);
  } catch {
    return undefined;
  }
}
