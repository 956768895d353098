/**
 * A fake model's mind for a run it cannot watch (the demo's browser is another one): it plans
 * the whole intake from the prompt (the parameters, and whether a step diverged) and the form's
 * layout, which is fixed and read once from a reference page. The popup is dismissed first when
 * the prompt says a recorded step could not be done.
 */
import type { Page } from 'playwright';
import type { IntakeApp } from '../../src/demo/app/server.js';
import type { FakeBrain, FakeDecision } from './fakeOpenAI.js';

type Point = { x: number; y: number };
export type IntakeLayout = Record<string, Point>;

const CONTROLS = ['first_name', 'last_name', 'dob', 'state', 'reminders', 'notes', 'save-button', 'plan_basic', 'plan_standard', 'plan_premium'];

/** Centres of the form's controls and of the session popup's button, at the page's viewport. */
export async function readIntakeLayout(page: Page, app: IntakeApp): Promise<IntakeLayout> {
  const layout: IntakeLayout = {};
  const centre = async (selector: string) => {
    const box = await page.locator(selector).boundingBox();
    if (!box) throw new Error(`no box for ${selector}`);
    return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
  };
  await page.goto(app.url);
  for (const id of CONTROLS) layout[id] = await centre(`#${id}`);
  app.setPerturbations({ sessionPopup: true });
  await page.goto(app.url);
  layout['stay-signed-in'] = await centre('#stay-signed-in');
  app.reset();
  return layout;
}

export function plannerBrain(layout: IntakeLayout): FakeBrain {
  return (turn) => {
    if (turn.turn === 0) turn.memory.plan = plan(layout, turn.params, /cannot be done safely/.test(turn.prompt));
    const steps = turn.memory.plan as FakeDecision[];
    return steps.shift() ?? { done: true, answer: 'The patient is registered.' };
  };
}

function plan(layout: IntakeLayout, params: Record<string, string>, popup: boolean): FakeDecision[] {
  const at = (id: string) => ({ type: 'click', ...layout[id]!, button: 'left' });
  const fill = (id: string, text: string | undefined, intent: string): FakeDecision[] => (text ? [{ actions: [at(id), { type: 'type', text }], intent }] : []);
  return [
    ...(popup ? [{ actions: [at('stay-signed-in')], intent: 'Dismiss the session popup' }] : []),
    ...fill('first_name', params.firstName, 'Fill "First name"'),
    ...fill('last_name', params.lastName, 'Fill "Last name"'),
    ...fill('dob', params.dob, 'Fill "Date of birth"'),
    ...fill('state', params.state, 'Choose "State"'),
    ...(params.plan ? [{ actions: [at(`plan_${params.plan}`)], intent: `Choose the ${params.plan} plan` }] : []),
    ...(params.reminders === 'true' ? [{ actions: [at('reminders')], intent: 'Check "Send appointment reminders"' }] : []),
    ...fill('notes', params.notes, 'Fill "Notes"'),
    { actions: [at('save-button')], intent: 'Submit the form' },
  ];
}
