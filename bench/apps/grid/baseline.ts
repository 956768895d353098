/** The grid task as a plain Playwright script with no checks: the speed baseline. */
import type { Dialog, Page } from 'playwright';
import type { BenchParams } from '../contract.js';

async function retype(page: Page, label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

export async function gridBaseline(page: Page, params: BenchParams): Promise<void> {
  const name = String(params.customerName);
  const accept = (dialog: Dialog) => void dialog.accept().catch(() => undefined);
  page.on('dialog', accept);
  try {
    await page.getByLabel('Customer name', { exact: true }).click();
    await page.keyboard.type(name);
    await Promise.all([page.waitForURL(/\/customers\?q=/), page.getByRole('button', { name: 'Search', exact: true }).click()]);
    await page.getByRole('link', { name, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit customer' });
    await dialog.waitFor({ state: 'visible' });
    await retype(page, 'Phone', String(params.phone));
    await retype(page, 'Email', String(params.email));
    await retype(page, 'City', String(params.city));
    await page.getByLabel('VIP customer', { exact: true }).setChecked(params.vip === true || params.vip === 'true');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Customer saved', { exact: true }).waitFor({ state: 'visible' });
  } finally {
    page.off('dialog', accept);
  }
}
