/**
 * The speed baseline: the catalogue task as a plain Playwright script with no checks. Expects the
 * page at the app's start URL, unperturbed (a native confirm on Publish is accepted). Text is
 * typed as rote replays it: a click into the field, then keyboard.type.
 */
import type { Dialog, Locator, Page } from 'playwright';
import type { BenchParams } from '../contract.js';
import { ACQUISITION_FIELDS, DETAIL_FIELDS, ROW_HEADERS, STOP_AT_LEAST } from './data.js';
import { acquisitionExpected } from './params.js';

/**
 * The table row of the `cell` (th or td) whose whole text is `text`. The row is the cell's parent:
 * a `tr` that merely contains such a cell could be the page's layout table around everything.
 */
function row(page: Page, cell: 'th' | 'td', text: string): Locator {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.locator(cell, { hasText: new RegExp(`^\\s*${escaped}\\s*$`) }).locator('xpath=..');
}

async function type(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.page().keyboard.type(text);
}

export async function catalogBaseline(page: Page, params: BenchParams): Promise<void> {
  const text = (name: string) => String(params[name] ?? '');
  const accept = (dialog: Dialog) => void dialog.accept().catch(() => undefined);
  page.on('dialog', accept);
  try {
    for (const field of DETAIL_FIELDS) {
      await type(row(page, 'th', ROW_HEADERS[field]).locator('input'), text(field));
    }
    await type(page.getByPlaceholder('Publisher', { exact: true }), text('publisher'));
    await type(page.locator('#isbn'), text('isbn'));
    await fillAcquisition(page, params);
    await Promise.all([page.waitForURL(/\/shelf$/), page.getByRole('button', { name: 'Next', exact: true }).click()]);

    await row(page, 'td', text('shelf')).getByRole('button', { name: 'Assign', exact: true }).click();
    // The icons have no names: a plain script can only say "the first toolbar button".
    await Promise.all([page.waitForURL(/\/index$/), page.locator('#toolbar button').first().click()]);

    await page.getByRole('button', { name: 'Start indexing', exact: true }).click();
    await page.waitForFunction(`Number(document.getElementById('progress').getAttribute('aria-valuenow')) >= ${STOP_AT_LEAST}`, undefined, { polling: 'raf' });
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    // The label gets its text a second or two after load; getByLabel waits for it.
    await type(page.getByLabel('Notes', { exact: true }), text('notes'));
    await Promise.all([page.waitForURL(/\/published$/), page.getByRole('button', { name: 'Publish', exact: true }).click()]);
    await page.getByRole('heading', { name: 'Book published', exact: true }).waitFor();
  } finally {
    page.off('dialog', accept);
  }
}

/** The "Acquisition" fields, each in the form it takes (a native input set to its ISO value, a select by value). */
export async function fillAcquisition(page: Page, params: BenchParams): Promise<void> {
  const acquisition = acquisitionExpected(params);
  for (const field of ACQUISITION_FIELDS) {
    const control = page.getByLabel(field.label, { exact: true });
    const want = acquisition[field.param]!;
    if (field.control === 'select') await control.selectOption(want);
    else if (field.control === 'date' || field.control === 'time') await control.fill(want);
    else await type(control, want);
  }
}
