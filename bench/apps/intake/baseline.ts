/**
 * The speed baseline: the agent's actions as a plain Playwright script, with no rote checks.
 * Expects `page` at the app's start URL, unperturbed (a native confirm on save is accepted).
 * Text is typed as rote replays it: a click into the field, then keyboard.type.
 */
import type { Dialog, Page } from 'playwright';
import type { BenchParams } from '../contract.js';
import { FIELDS, INSURANCE } from './fields.js';

export async function intakeBaseline(page: Page, params: BenchParams): Promise<void> {
  for (const field of FIELDS) {
    const value = params[field.param];
    if (value === undefined) continue;
    switch (field.kind) {
      case 'text':
      case 'textarea':
        await page.getByLabel(field.label, { exact: true }).click();
        await page.keyboard.type(String(value));
        break;
      case 'select':
        await page.getByLabel(field.label, { exact: true }).selectOption({ label: String(value) });
        break;
      case 'radio': {
        const option = INSURANCE.find((o) => o.value === String(value).toLowerCase());
        if (!option) throw new Error(`intake baseline: no ${field.label} option ${String(value)}`);
        await page.getByLabel(option.label, { exact: true }).check();
        break;
      }
      case 'checkbox': {
        const box = page.getByLabel(field.label, { exact: true });
        if (value === true || value === 'true') await box.check();
        else await box.uncheck();
        break;
      }
    }
  }
  const accept = (dialog: Dialog) => {
    dialog.accept().catch(() => undefined);
  };
  page.once('dialog', accept);
  try {
    await Promise.all([page.waitForURL(/\/saved\?/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
    await page.getByRole('heading', { name: 'Record saved', exact: true }).waitFor();
  } finally {
    page.off('dialog', accept);
  }
}
