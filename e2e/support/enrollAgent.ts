import type { Locator, Page } from 'playwright';
import type { ActionInput } from '../../src/actions/action.js';
import { scriptedAgent } from '../../src/agent/scriptedAgent.js';
import type { AgentAnswer } from '../../src/agent/agent.js';

const MONTH_FIRST = (iso: string) => {
  const [y, m, d] = iso.split('-');
  return `${m}/${d}/${y}`;
};
const TWELVE_HOUR = (time: string) => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
};
/** A stuck page read fails the agent's call with a message instead of hanging the test. */
const WAIT = 15_000;
const fold = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * Stands in for a model on the enrollment form: on every call it reads the live page and fixes
 * the first field that does not show its parameter yet, the way a person renders values (a date
 * as MM/DD/YYYY, a time as 8:04 PM, the option whose label reads like the value). It starts from
 * whatever state the page is in, so it can take over mid-run.
 */
export function enrollAgent(page: Page) {
  return scriptedAgent(async (observation): Promise<AgentAnswer> => {
    const p = observation.params;
    if (/\/done$/.test(page.url())) return { done: true, answer: 'Saved' };
    if (p.customer && (await page.locator('#picked').textContent({ timeout: WAIT })) !== `Selected customer: ${p.customer}`) {
      return click(page.getByRole('link', { name: p.customer, exact: true }), `Pick ${p.customer}`);
    }
    if (p.dob) {
      const fix = await typeInto(page.getByLabel('Date of birth'), MONTH_FIRST(p.dob), 'Fill the date of birth');
      if (fix) return fix;
    }
    if (p.appointment) {
      const fix = await typeInto(page.getByLabel('Appointment'), TWELVE_HOUR(p.appointment), 'Fill the appointment time');
      if (fix) return fix;
    }
    for (const [label, wanted] of [['State', p.state], ['Employment', p.employment], ['Shift', p.shift]] as const) {
      if (!wanted) continue;
      const fix = await choose(page.getByLabel(label), wanted, `Choose the ${label.toLowerCase()}`);
      if (fix) return fix;
    }
    if (p.newsletter !== undefined) {
      const box = page.getByLabel('Newsletter');
      if ((await box.isChecked({ timeout: WAIT })) !== (p.newsletter === 'true')) return click(box, 'Set the newsletter box');
    }
    if (p.country !== undefined) {
      const fix = await typeInto(page.getByLabel('Country'), p.country, 'Fill the country');
      if (fix) return fix;
    }
    return click(page.getByRole('button', { name: 'Submit' }), 'Submit the enrollment');
  }, 'enroll-agent');
}

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox({ timeout: WAIT });
  if (!box) throw new Error('the agent cannot see its target');
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

async function click(locator: Locator, intent: string, then: ActionInput[] = []): Promise<AgentAnswer> {
  return { intent, actions: [{ type: 'click', ...(await centre(locator)) }, ...then] };
}

async function typeInto(field: Locator, text: string, intent: string): Promise<AgentAnswer | undefined> {
  const current = await field.inputValue({ timeout: WAIT });
  if (current === text) return undefined;
  const keys: ActionInput[] = current === '' ? [{ type: 'type', text }] : [{ type: 'keypress', keys: ['CTRL', 'A'] }, { type: 'type', text }];
  return click(field, intent, keys);
}

async function choose(select: Locator, wanted: string, intent: string): Promise<AgentAnswer | undefined> {
  const options = await select.locator('option').evaluateAll((all) => all.map((o) => ({ value: (o as HTMLOptionElement).value, label: (o as HTMLOptionElement).label })));
  const w = fold(wanted);
  const option =
    options.find((o) => o.value === wanted || fold(o.label) === w) ?? options.find((o) => o.value !== '' && (fold(o.label).startsWith(`${w} `) || w.startsWith(`${fold(o.label)} `)));
  if (!option) return { done: true, answer: `no option reads like ${wanted}` };
  if ((await select.inputValue({ timeout: WAIT })) === option.value) return undefined;
  return click(select, intent, [{ type: 'type', text: option.label }]);
}
