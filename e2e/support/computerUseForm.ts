import type { Page } from 'playwright';
import type { FakeBrain, WireAction } from './fakeOpenAI.js';
import { startSite, type Site } from './site.js';

/**
 * A client intake form for the computer-use proxy's tests, and the scripted model that fills it:
 * it decides each answer from the live page (never from coordinates it saw before), as a model
 * reads a screenshot. Variants: a modal that comes up when the first name gets the focus, and the first
 * two labels swapped under the same coordinates.
 */
export type FormVariant = 'plain' | 'modal' | 'swapped';
export type ClientValues = { first: string; last: string; email: string };

const FIELDS: Record<keyof ClientValues, string> = { first: 'First name', last: 'Last name', email: 'Email' };

export function formPage(variant: FormVariant): string {
  const rows: (keyof ClientValues)[] = variant === 'swapped' ? ['last', 'first', 'email'] : ['first', 'last', 'email'];
  const modal = variant === 'modal' ? `document.getElementById('f-first').addEventListener('focus', function once() { this.removeEventListener('focus', once); document.getElementById('modal').style.display = 'flex'; });` : '';
  return `<!doctype html><html><head><title>New client</title><style>
    body { font: 16px sans-serif; margin: 40px; }
    .row { display: flex; align-items: center; margin: 0 0 28px; }
    label { width: 140px; }
    input { width: 260px; height: 30px; font-size: 16px; border: 1px solid #888; padding: 0 6px; }
    button { font-size: 16px; padding: 6px 18px; }
    #modal { position: fixed; inset: 0; background: rgba(0, 0, 0, 0.45); display: none; align-items: center; justify-content: center; }
    #modal > div { background: #fff; padding: 24px; }
  </style></head><body>
    <h1>New client</h1>
    <form action="/saved" method="get">
      ${rows.map((name) => `<div class="row"><label for="f-${name}">${FIELDS[name]}</label><input id="f-${name}" name="${name}" autocomplete="off"></div>`).join('\n      ')}
      <button type="submit">Submit</button>
    </form>
    <div id="modal" role="dialog" aria-label="Session"><div><p>Your session expires in 5 minutes.</p><button id="ok" type="button" onclick="document.getElementById('modal').style.display = 'none'">OK</button></div></div>
    <script>${modal}</script>
  </body></html>`;
}

const SAVED = '<!doctype html><html><head><title>Saved</title></head><body><h1>Client saved</h1></body></html>';

export async function startFormSite(variant: () => FormVariant): Promise<Site & { submissions: () => ClientValues[] }> {
  const site = await startSite(() => ({ '/': formPage(variant()), '/saved': SAVED }));
  const submissions = () =>
    site.hits
      .filter((hit) => hit.startsWith('GET /saved?'))
      .map((hit) => Object.fromEntries(new URLSearchParams(hit.slice('GET /saved?'.length))) as ClientValues);
  return { ...site, submissions };
}

type Box = { x: number; y: number; width: number; height: number };
type FormState = { saved: boolean; modalOk: Box | null; fields: { name: string; label: string; value: string; focused: boolean; box: Box }[]; submit: Box | null };

/** The task as the agent's user writes it: the values as lines the scripted model reads. */
export function taskOf(values: ClientValues): string {
  return `Add this client with the New client form, then submit it:\n- first: "${values.first}"\n- last: "${values.last}"\n- email: "${values.email}"`;
}

/**
 * The scripted model: a screenshot first when it has none; then the modal's OK, each field whose
 * value is not the task's (a click, then the text once it has the focus; both in one batch for the
 * batched tool), Submit, and a final message on the saved page.
 */
export function formBrain(page: Page): FakeBrain {
  return async (turn) => {
    if (!JSON.stringify(turn.body.input ?? '').includes('image_url')) return { actions: [{ type: 'screenshot' }], intent: 'Look at the screen first' };
    const state = await readForm(page);
    if (state.saved) return { done: true, answer: 'The client is saved.' };
    if (state.modalOk) return { actions: [click(state.modalOk)], intent: 'Close the notice' };
    for (const field of state.fields) {
      const wanted = turn.params[labelToName(field.label)];
      if (wanted === undefined || field.value === wanted) continue;
      if (field.focused) return { actions: [{ type: 'type', text: wanted }], intent: `Type the ${field.label}` };
      const actions: WireAction[] = turn.form === 'batch' ? [click(field.box), { type: 'type', text: wanted }] : [click(field.box)];
      return { actions, intent: `Fill in the ${field.label}` };
    }
    return state.submit ? { actions: [click(state.submit)], intent: 'Submit' } : { done: true, answer: 'There is no form here.' };
  };
}

function labelToName(label: string): string {
  return (Object.entries(FIELDS).find(([, text]) => text === label)?.[0] ?? label) as string;
}

function click(box: Box): WireAction {
  return { type: 'click', button: 'left', x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

async function readForm(page: Page): Promise<FormState> {
  try {
    return await readFormOnce(page);
  } catch {
    // The page was navigating: read the one it led to.
    await page.waitForLoadState('load');
    return readFormOnce(page);
  }
}

function readFormOnce(page: Page): Promise<FormState> {
  return page.evaluate(() => {
    const boxOf = (element: Element) => {
      const rect = element.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    };
    const modal = document.getElementById('modal');
    const ok = document.getElementById('ok');
    const inputs = Array.from(document.querySelectorAll('input'));
    const submit = document.querySelector('button[type=submit]');
    return {
      saved: document.title === 'Saved',
      modalOk: modal && ok && getComputedStyle(modal).display !== 'none' ? boxOf(ok) : null,
      fields: inputs.map((input) => ({ name: input.name, label: input.labels?.[0]?.textContent ?? '', value: input.value, focused: document.activeElement === input, box: boxOf(input) })),
      submit: submit ? boxOf(submit) : null,
    };
  });
}
