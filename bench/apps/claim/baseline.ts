/**
 * The speed baseline: the task as a plain Playwright script, no checks. Expects the page at the
 * app's start URL (as rote.run does) and ends on the "Claim submitted" page.
 */
import type { Page } from 'playwright';
import type { BenchParams } from '../contract.js';

async function fill(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.keyboard.type(value);
}

async function next(page: Page, name: 'Next' | 'Save', url: RegExp): Promise<void> {
  await Promise.all([page.waitForURL(url), page.getByRole('button', { name, exact: true }).click()]);
}

export async function claimBaseline(page: Page, params: BenchParams): Promise<void> {
  const text = (name: string) => String(params[name] ?? '');

  await fill(page, 'Policy number', text('policyNumber'));
  await fill(page, 'Last name', text('lastName'));
  await next(page, 'Next', /\/claim\/details$/);

  await fill(page, 'Incident date', text('incidentDate'));
  await fill(page, 'Claim amount', text('claimAmount'));
  await page.getByLabel('Incident type', { exact: true }).selectOption({ label: text('incidentType') });
  await fill(page, 'Description', text('description'));
  await next(page, 'Next', /\/claim\/review$/);

  const certify = page.getByLabel('I certify this claim is accurate', { exact: true });
  if (params.certify === true || text('certify') === 'true') await certify.check();
  else await certify.uncheck();
  // A native confirm() may guard the save; accept it if it comes.
  const accept = (dialog: import('playwright').Dialog) => void dialog.accept().catch(() => undefined);
  page.once('dialog', accept);
  try {
    await next(page, 'Save', /\/claim\/submitted$/);
  } finally {
    page.off('dialog', accept);
  }
}
