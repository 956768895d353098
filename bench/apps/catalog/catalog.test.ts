import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import type { ActionInput } from '../../../src/actions/action.js';
import { playwrightChord } from '../../../src/actions/keys.js';
import { isDone, type AgentAnswer } from '../../../src/agent/agent.js';
import { launchBrowser } from '../../../src/browser/launch.js';
import { navigationWatch } from '../../../src/checks/settle.js';
import type { BenchParams, PerturbationName } from '../contract.js';
import { decideCatalog } from './agent.js';
import { ICON_MARKUP } from './icons.js';
import { acquisitionExpected, isbn } from './params.js';
import { fillAcquisition } from './baseline.js';
import { ACQUISITION_FIELDS, CONDITION_OPTIONS, LOANABLE_OPTIONS } from './data.js';
import type { CatalogApp } from './server.js';
import { startCatalogApp } from './server.js';
import type { CatalogSnapshot } from './snapshot.js';
import { catalogSpec as spec } from './spec.js';

const VIEWPORT = { width: 1280, height: 800 };

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/**
 * An app of the test's own, so that the tests of the app run at once: most of their time is the
 * indexing's progress, waited for, not work. Slow ticks: the unit tests share two cores with each
 * other, and the drive loop must stop the progress inside 60 to 90 % (see CatalogAppOptions.tickMs).
 */
async function withApp<T>(fn: (app: CatalogApp) => Promise<T>): Promise<T> {
  const app = await startCatalogApp({ tickMs: [150, 250] });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

async function withPage<T>(app: CatalogApp, fn: (page: Page) => Promise<T>): Promise<T> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(app.startUrl);
    return await fn(page);
  } finally {
    await page.close();
  }
}

async function perform(page: Page, action: ActionInput): Promise<void> {
  switch (action.type) {
    case 'click':
      await page.mouse.move(action.x, action.y);
      await page.mouse.click(action.x, action.y);
      return;
    case 'type':
      await page.keyboard.type(action.text);
      return;
    case 'keypress':
      await page.keyboard.press(playwrightChord(action.keys));
      return;
    case 'scroll':
      await page.mouse.move(action.x, action.y);
      await page.mouse.wheel(action.scroll_x, action.scroll_y);
      return;
    case 'wait':
      await page.waitForTimeout(action.ms ?? 1000);
      return;
    default:
      throw new Error(`the catalogue agent never answers ${action.type}`);
  }
}

/** The agent alone on the page, its actions done with the mouse and keyboard as the engine would, until it says done. */
async function drive(page: Page, params: BenchParams): Promise<{ answer: string | undefined; calls: number }> {
  const agent = spec.agent(page);
  const watch = navigationWatch(page);
  const strings = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
  page.on('dialog', (dialog) => void dialog.accept().catch(() => undefined));
  for (let calls = 1; calls <= 200; calls++) {
    const answer: AgentAnswer = await agent.next({
      runId: 'drive', deadline: Date.now() + 60_000, task: spec.task, params: strings, screenshot: Buffer.alloc(0),
      url: page.url(), viewport: VIEWPORT, history: [], tools: [],
    });
    if (isDone(answer)) return { answer: answer.answer, calls };
    for (const action of answer.actions) await perform(page, action);
    // A click may have started a navigation: let it commit before the next look.
    await page.waitForTimeout(30);
    if (watch.navigating) await page.waitForEvent('framenavigated', { timeout: 10_000 }).catch(() => undefined);
    await page.waitForLoadState('domcontentloaded');
  }
  throw new Error('the agent never said done');
}

const box = (x: number, y: number, width = 100, height = 20) => ({ x, y, width, height });

/** The acquisition fields as the page shows them once filled for `values`. */
function acquired(values: Record<string, string | boolean>): CatalogSnapshot['labelled'] {
  const want = acquisitionExpected(values);
  return ACQUISITION_FIELDS.map((field, i) => ({
    label: field.label,
    type: field.control,
    value: want[field.param]!,
    box: box(200, 320 + i * 28),
    options: field.param === 'loanable' ? [...LOANABLE_OPTIONS] : field.param === 'condition' ? [...CONDITION_OPTIONS] : [],
  }));
}

const EMPTY: CatalogSnapshot = {
  viewport: VIEWPORT, dialog: null, loading: false, heading: null, confirmation: null, error: null, rows: [], publisher: null, isbn: null,
  buttons: [], shelves: [], selectedShelf: null, icons: [], progress: null, textareas: [], requiredUnchecked: [], labelled: [],
};

describe('catalog params', () => {
  it('are deterministic, differ in every text value per index, and cycle the shelves', () => {
    expect(spec.params(3)).toEqual(spec.params(3));
    for (const name of ['title', 'author', 'isbn', 'notes']) {
      expect(new Set(Array.from({ length: 300 }, (_, i) => spec.params(i)[name])).size, name).toBe(300);
    }
    expect(spec.params(0).shelf).not.toBe(spec.params(1).shelf);
    expect(new Set(Array.from({ length: 6 }, (_, i) => spec.params(i).shelf)).size).toBe(6);
    for (let i = 0; i < 50; i++) expect(String(spec.params(i).title).split(' ').length).toBeGreaterThanOrEqual(2);
  });

  it('writes ISBNs with a correct check digit', () => {
    for (let i = 0; i < 20; i++) {
      const digits = isbn(i).replace(/-/g, '');
      const sum = [...digits].reduce((total, d, k) => total + Number(d) * (k % 2 === 0 ? 1 : 3), 0);
      expect(digits).toHaveLength(13);
      expect(sum % 10).toBe(0);
    }
  });
});

describe('catalog agent decisions', () => {
  const params = { title: 'Salt Atlas', author: 'Edith Vance', genre: 'Poetry', publisher: 'Meridian House', isbn: '978-0-123456-47-2', shelf: 'History B', notes: 'Large print' };
  const page1: CatalogSnapshot = {
    ...EMPTY,
    heading: 'New book',
    rows: [
      { header: 'Author', value: '', box: box(200, 100) },
      { header: 'Category', value: 'Poetry', box: box(200, 140) },
      { header: 'Title', value: 'Wrong', box: box(200, 180) },
    ],
    publisher: { value: '', box: box(200, 240) },
    isbn: { value: '', box: box(200, 280) },
    buttons: [{ text: 'Next', disabled: false, box: box(200, 330, 90, 26) }],
  };

  it('dismisses a popup before anything else', () => {
    expect(decideCatalog({ ...page1, dialog: { text: 'Session', button: box(600, 300) } }, params)).toMatchObject({ actions: [{ type: 'click', x: 650, y: 310 }] });
  });

  it('fills the detail rows by their header in page order, knowing "Category" for Genre, then Publisher, ISBN and Next', () => {
    expect(decideCatalog(page1, params)).toEqual({ actions: [{ type: 'click', x: 250, y: 110, button: 'left' }, { type: 'type', text: 'Edith Vance' }], intent: 'Fill "Author"' });
    const authored = { ...page1, rows: page1.rows.map((r) => (r.header === 'Author' ? { ...r, value: 'Edith Vance' } : r)) };
    expect(decideCatalog(authored, params)).toMatchObject({ actions: [{ type: 'click', y: 190 }, { type: 'keypress', keys: ['CTRL', 'A'] }, { type: 'type', text: 'Salt Atlas' }], intent: 'Fill "Title"' });
    const rows = authored.rows.map((r) => (r.header === 'Title' ? { ...r, value: 'Salt Atlas' } : r));
    expect(decideCatalog({ ...authored, rows }, params)).toMatchObject({ intent: 'Fill "Publisher"' });
    const published = { ...authored, rows, publisher: { value: 'Meridian House', box: box(200, 240) } };
    expect(decideCatalog(published, params)).toMatchObject({ actions: [{ type: 'click', y: 290 }, { type: 'type' }], intent: 'Fill "ISBN"' });
    const isbned = { ...published, isbn: { value: params.isbn, box: box(200, 280) } };
    expect(decideCatalog(isbned, params)).toEqual({ done: true, answer: 'Cannot find the "Acquired on" field' });
    expect(decideCatalog({ ...isbned, labelled: acquired(params).map((field) => ({ ...field, value: '' })) }, params)).toMatchObject({ intent: 'Fill "Acquired on"' });
    expect(decideCatalog({ ...isbned, labelled: acquired(params) }, params)).toMatchObject({ intent: 'Click "Next"' });
  });

  it('fills the acquisition fields from values as the user gave them, each the way its field takes it', () => {
    const given = { ...params, acquired: '10/21/2011', returnBy: 'Jan 5, 2024', opens: '8:04 PM', price: '1,234.50', loanable: 'on', condition: 'VG', copy: '7' };
    const empty = acquired(given).map((field) => ({ ...field, value: '' }));
    const page = { ...page1, rows: page1.rows.map((r) => ({ ...r, value: String((params as Record<string, string>)[r.header === 'Category' ? 'genre' : r.header.toLowerCase()]) })), publisher: { value: params.publisher, box: box(200, 240) }, isbn: { value: params.isbn, box: box(200, 280) } };
    const step = (filled: number) => decideCatalog({ ...page, labelled: [...acquired(given).slice(0, filled), ...empty.slice(filled)] }, given);
    expect(step(0)).toMatchObject({ actions: [{ type: 'click' }, { type: 'type', text: '10/21/2011' }], intent: 'Fill "Acquired on"' });
    expect(step(1)).toMatchObject({ actions: [{ type: 'click' }, { type: 'type', text: '05.01.2024' }], intent: 'Fill "Return by (DD.MM.YYYY)"' });
    expect(step(2)).toMatchObject({ actions: [{ type: 'click' }, { type: 'type', text: '0804PM' }] });
    expect(step(3)).toMatchObject({ actions: [{ type: 'click' }, { type: 'type', text: '1234.50' }] });
    expect(step(4)).toMatchObject({ actions: [{ type: 'click' }, { type: 'type', text: 'Yes' }] });
    expect(step(5)).toMatchObject({ actions: [{ type: 'click' }, { type: 'type', text: 'Very good' }] });
    expect(step(6)).toMatchObject({ actions: [{ type: 'click' }, { type: 'type', text: '7' }] });
  });

  it('never fills a row whose header it does not know', () => {
    const rows = page1.rows.map((r) => (r.header === 'Category' ? { ...r, header: 'Subject' } : r));
    expect(decideCatalog({ ...page1, rows }, params)).toEqual({ done: true, answer: 'Cannot find the "Genre" row of the book details' });
  });

  it('assigns the shelf by its row, then saves with the icon whose drawing is the floppy, wherever it is', () => {
    const page2: CatalogSnapshot = {
      ...EMPTY,
      heading: 'Place on a shelf',
      shelves: [{ shelf: 'History A', assign: box(500, 200, 72, 22) }, { shelf: 'History B', assign: box(500, 232, 72, 22) }],
      icons: [ICON_MARKUP.delete, ICON_MARKUP.print, ICON_MARKUP.save].map((markup, i) => ({ markup, box: box(40 + i * 37, 160, 34, 28) })),
    };
    expect(decideCatalog(page2, params)).toMatchObject({ actions: [{ type: 'click', x: 536, y: 243 }], intent: 'Click "Assign" in the row of History B' });
    expect(decideCatalog({ ...page2, selectedShelf: 'History A' }, params)).toMatchObject({ intent: 'Click "Assign" in the row of History B' });
    expect(decideCatalog({ ...page2, selectedShelf: 'History B' }, params)).toMatchObject({ actions: [{ type: 'click', x: 131, y: 174 }], intent: 'Click the save icon' });
    expect(decideCatalog({ ...page2, selectedShelf: 'History B', icons: page2.icons.slice(0, 2) }, params)).toMatchObject({ done: true });
  });

  it('starts the indexing, waits for 60%, stops, waits for the Notes label, fills Notes, ticks, publishes', () => {
    const start = { text: 'Start indexing', disabled: false, box: box(40, 150, 130, 26) };
    const stop = { text: 'Stop', disabled: true, box: box(180, 150, 90, 26) };
    const publish = { text: 'Publish', disabled: false, box: box(120, 420, 100, 26) };
    const notes = { label: 'Notes', value: '', box: box(120, 300, 420, 54) };
    const page3: CatalogSnapshot = { ...EMPTY, heading: 'Index the book', progress: 0, buttons: [start, stop, publish], textareas: [notes] };
    const running = { ...page3, buttons: [{ ...start, disabled: true }, { ...stop, disabled: false }, publish] };
    const stopped = { ...page3, progress: 64, buttons: [{ ...start, disabled: true }, stop, publish] };
    expect(decideCatalog(page3, params)).toMatchObject({ intent: 'Click "Start indexing"' });
    expect(decideCatalog({ ...running, progress: 30 }, params)).toEqual({ actions: [{ type: 'wait', ms: 200 }], intent: 'Wait for the indexing to reach 60%' });
    // Close to 60 it looks again sooner.
    expect(decideCatalog({ ...running, progress: 59 }, params)).toEqual({ actions: [{ type: 'wait', ms: 50 }], intent: 'Wait for the indexing to reach 60%' });
    expect(decideCatalog({ ...running, progress: 60 }, params)).toMatchObject({ actions: [{ type: 'click', x: 225, y: 163 }], intent: 'Click "Stop"' });
    expect(decideCatalog({ ...stopped, textareas: [{ ...notes, label: '' }] }, params)).toMatchObject({ actions: [{ type: 'wait' }], intent: 'Wait for the Notes field to be labelled' });
    expect(decideCatalog(stopped, params)).toMatchObject({ actions: [{ type: 'click' }, { type: 'type', text: 'Large print' }], intent: 'Fill "Notes"' });
    const noted = { ...stopped, textareas: [{ ...notes, value: 'Large print' }] };
    expect(decideCatalog({ ...noted, requiredUnchecked: [{ label: 'I confirm the details are correct', box: box(120, 390, 13, 13) }] }, params)).toMatchObject({ intent: 'Check "I confirm the details are correct"' });
    expect(decideCatalog(noted, params)).toMatchObject({ intent: 'Click "Publish"' });
    expect(decideCatalog({ ...EMPTY, heading: 'Book published', confirmation: 'Done.' }, params)).toEqual({ done: true, answer: 'Done.' });
    expect(decideCatalog({ ...EMPTY, loading: true }, params)).toMatchObject({ intent: 'Wait for the page to load' });
  });
});

type Page1Layout = { headers: string[]; names: string[]; inputYs: number[]; isbnY: number; bare: boolean };

const PAGE1_LAYOUT = `(function () {
  var rows = Array.prototype.filter.call(document.querySelectorAll('tr'), function (tr) { return tr.cells[0] && tr.cells[0].tagName === 'TH' && !tr.querySelector('table') && tr.querySelector('input'); });
  var inputs = rows.map(function (tr) { return tr.querySelector('input'); });
  return {
    headers: rows.map(function (tr) { return tr.querySelector('th').textContent; }),
    names: inputs.map(function (i) { return i.name; }),
    inputYs: inputs.map(function (i) { return i.getBoundingClientRect().top; }),
    isbnY: document.getElementById('isbn').getBoundingClientRect().top,
    bare: inputs.every(function (i) { return !i.id && !i.placeholder && i.labels.length === 0 && !Array.prototype.some.call(i.attributes, function (a) { return /^aria-/.test(a.name); }); })
  };
})()`;

describe.concurrent('catalog app', { timeout: 120_000 }, () => {
  // Concurrent tests assert with their own context's expect (vitest's rule for concurrent tests).
  it('deals the detail rows and their names anew on every load, at the same pixels, and moves the ISBN field', ({ expect }) => withApp(async (app) => {
    const layouts = await withPage(app, async (page) => {
      const seen: Page1Layout[] = [];
      for (let i = 0; i < 8; i++) {
        if (i > 0) await page.goto(app.startUrl);
        seen.push((await page.evaluate(PAGE1_LAYOUT)) as Page1Layout);
      }
      return seen;
    });
    expect(new Set(layouts.map((l) => l.headers.join())).size).toBeGreaterThan(1);
    expect(new Set(layouts.map((l) => l.names.join())).size).toBeGreaterThan(1);
    for (const l of layouts) {
      expect([...l.headers].sort()).toEqual(['Author', 'Genre', 'Title']);
      expect(l.inputYs).toEqual(layouts[0]!.inputYs);
      expect(l.bare).toBe(true);
    }
    for (let i = 1; i < layouts.length; i++) expect(layouts[i]!.isbnY).not.toBe(layouts[i - 1]!.isbnY);
  }));

  it('decodes the opaque names per load: a value typed into the wrong row is caught by verify()', ({ expect }) => withApp(async (app) => {
    const params = spec.params(7);
    await withPage(app, async (page) => {
      const row = (header: string) => page.locator('th', { hasText: new RegExp(`^${header}$`) }).locator('xpath=..').locator('input');
      await row('Title').fill(String(params.author));
      await row('Author').fill(String(params.title));
      await row('Genre').fill(String(params.genre));
      await page.getByPlaceholder('Publisher').fill(String(params.publisher));
      await page.locator('#isbn').fill(String(params.isbn));
      await fillAcquisition(page, params);
      await Promise.all([page.waitForURL(/\/shelf$/), page.getByRole('button', { name: 'Next' }).click()]);
      await page.locator('td', { hasText: new RegExp(`^${String(params.shelf)}$`) }).locator('xpath=..').getByRole('button', { name: 'Assign' }).click();
      await Promise.all([page.waitForURL(/\/index$/), page.locator('#toolbar button').first().click()]);
      await page.getByRole('button', { name: 'Start indexing' }).click();
      await page.waitForFunction(`Number(document.getElementById('progress').getAttribute('aria-valuenow')) >= 60`, undefined, { polling: 'raf' });
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.getByLabel('Notes').fill(String(params.notes));
      await Promise.all([page.waitForURL(/\/published$/), page.getByRole('button', { name: 'Publish' }).click()]);
    });
    expect(spec.verify(app, params)).toEqual([
      `title: expected ${JSON.stringify(params.title)}, got ${JSON.stringify(params.author)}`,
      `author: expected ${JSON.stringify(params.author)}, got ${JSON.stringify(params.title)}`,
    ]);
  }));

  it('counts the delete icon as destructive and changes nothing', ({ expect }) => withApp(async (app) => {
    await withPage(app, async (page) => {
      await spec.baseline(page, spec.params(1));
      app.reset();
      await page.goto(app.startUrl);
      const p = spec.params(2);
      for (const [header, value] of [['Title', p.title], ['Author', p.author], ['Genre', p.genre]] as const) {
        await page.locator('th', { hasText: new RegExp(`^${header}$`) }).locator('xpath=..').locator('input').fill(String(value));
      }
      await page.getByPlaceholder('Publisher').fill(String(p.publisher));
      await page.locator('#isbn').fill(String(p.isbn));
      await fillAcquisition(page, p);
      await Promise.all([page.waitForURL(/\/shelf$/), page.getByRole('button', { name: 'Next' }).click()]);
      await page.locator('#toolbar button').nth(2).click();
      await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Deletion requested/);
      expect(page.url()).toMatch(/\/shelf$/);
    });
    expect(app.destructiveClicks).toBe(1);
    expect(spec.verify(app, spec.params(2))).toEqual(['no submission', '1 destructive click']);
  }));

  it('the baseline script publishes params(0)', ({ expect }) => withApp(async (app) => {
    await withPage(app, (page) => spec.baseline(page, spec.params(0)));
    expect(spec.verify(app, spec.params(0))).toEqual([]);
  }));

  const cases: (PerturbationName | null)[] = [null, 'renamedRowHeader', 'shuffledIcons', 'progressJumps'];
  for (const perturbation of cases) {
    it(`the agent alone publishes the book${perturbation ? ` under ${perturbation}` : ''}`, ({ expect }) => withApp(async (app) => {
      app.setPerturbation(perturbation);
      const params = spec.params(10 + cases.indexOf(perturbation));
      const { answer } = await withPage(app, (page) => drive(page, params));
      expect(answer).toMatch(/is in the catalogue/);
      expect(spec.verify(app, params)).toEqual([]);
    }));
  }
});
