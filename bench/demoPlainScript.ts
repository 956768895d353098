import type { Browser, Page } from 'playwright';
import type { PatientParams } from '../src/demo/patients.js';

/**
 * The demo's intake task as a plain Playwright script, with no rote checks: the speed baseline of
 * the batch figure. The actions are the recording's (a click into each text field, then
 * keyboard.type; the state by its label; the plan and reminders checked; Save), on a page at the
 * form's URL.
 */
export async function demoPlainScript(page: Page, patient: PatientParams): Promise<void> {
  const typeInto = async (selector: string, text: string) => {
    await page.locator(selector).click();
    await page.keyboard.type(text);
  };
  await typeInto('#first_name', patient.firstName);
  await typeInto('#last_name', patient.lastName);
  await typeInto('#dob', patient.dob);
  await page.locator('#state').selectOption({ label: patient.state });
  await page.locator(`#plan_${patient.plan}`).check();
  if (patient.reminders) await page.locator('#reminders').check();
  await typeInto('#notes', patient.notes);
  await Promise.all([page.waitForURL(/\/confirmation\?/), page.locator('#save-button').click()]);
  await page.locator('#confirmation').waitFor();
}

/**
 * The rows through the plain script, `concurrency` browser contexts at once, each row in a fresh
 * context as `rote run --rows` gives it: the wall time of the whole batch.
 */
export async function plainBatch(browser: Browser, url: string, rows: readonly PatientParams[], concurrency: number): Promise<number> {
  const queue = [...rows];
  const started = Date.now();
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        await page.goto(url);
        await demoPlainScript(page, row);
      } finally {
        await context.close();
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return Date.now() - started;
}
