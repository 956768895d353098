/**
 * The library catalogue's server: plain node:http on 127.0.0.1, server-rendered pages, books in
 * memory. Every page load draws its layout from a seeded generator (see random.ts), so a run is
 * reproducible for a given app start and load count, and no two loads look alike.
 *
 *   GET  /books/new              page 1, "New book"
 *   POST /books                  decodes the load's opaque names, stores the draft, 303 to page 2
 *   GET  /books/:id/shelf        page 2, "Place on a shelf"
 *   POST /books/:id/shelf        stores the shelf, 303 to page 3
 *   GET  /books/:id/index        page 3, "Index the book"
 *   POST /books/:id/index        records the submission, 303 to "Book published"
 *   GET  /books/:id/published    "Book published"
 *   POST /api/destructive        the delete icon (counted, changes nothing)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, recordDestructive, redirect, requestTarget, sendHtml } from '../../../src/demo/app/http.js';
import type { BenchApp, PerturbationName } from '../contract.js';
import { ACQUISITION_FIELDS, DETAIL_FIELDS, DETAIL_INPUT_NAMES, ISBN_INPUT_NAME, LOAD_INPUT_NAME, PUBLISHER_INPUT_NAME, shelfNamed, SHELVES, type DetailField } from './data.js';
import { ICON_ORDER } from './icons.js';
import { indexPage } from './indexPage.js';
import { newBookPage, type BookValues } from './newBookPage.js';
import { notFoundPage, publishedPage } from './publishedPage.js';
import { randomForLoad, type Random } from './random.js';
import { shelfPage } from './shelfPage.js';

/** Far above any form the catalogue posts; only a runaway client reaches it. */
const MAX_BODY = 64 * 1024;
/** Page-1 loads remembered for decoding; older ones are forgotten (their form has expired). */
const MAX_OPEN_FORMS = 500;
/** The seed of an app started without one. */
const DEFAULT_SEED = 0x11b4a7;

/** The ranges the loads draw from. */
const SLOW_MS = [600, 1500] as const;
const ISBN_OFFSETS_PX = 21;
const TICK_MS = [40, 60] as const;
const JUMP_PERCENT = [3, 9] as const;
const LABEL_DELAY_MS = [1000, 2000] as const;
/** Enough jumps of at least 3% to pass 100%. */
const JUMP_COUNT = 34;

type Book = { id: number; values: Required<BookValues>; shelf?: string; published?: Record<string, string> };

export type CatalogSubmission = { id: number; fields: Record<string, string> };

export type CatalogApp = BenchApp & {
  readonly origin: string;
  readonly perturbation: PerturbationName | null;
  readonly submissions: readonly CatalogSubmission[];
  /** Page loads served since the app started (never reset). */
  readonly loads: number;
};

export type CatalogAppOptions = {
  seed?: number;
  /**
   * The range each 1 % of the progress takes, in ms (default 40 to 60, the benchmark's). A test
   * that checks where a run stopped it uses slower ticks, so that the 60-to-90 % window measures
   * the run's reaction and not how busy the machine is.
   */
  tickMs?: readonly [number, number];
};

export async function startCatalogApp(options: CatalogAppOptions = {}): Promise<CatalogApp> {
  const seed = options.seed ?? DEFAULT_SEED;
  let perturbation: PerturbationName | null = null;
  // Never rewound by reset(): the benchmark resets before every run, and a run must not meet the
  // recording's layout again just because it came after a reset.
  let loads = 0;
  let lastIsbnOffset = -1;
  /** Page-1 load token -> which opaque name holds which detail field. */
  const openForms = new Map<string, Record<string, DetailField>>();
  const books = new Map<number, Book>();
  let nextBookId = 1;
  const submissions: CatalogSubmission[] = [];
  let destructiveClicks = 0;

  function nextLoad(): { load: number; random: Random } {
    const load = loads++;
    return { load, random: randomForLoad(seed, load) };
  }

  function renderNewBook(values?: BookValues, error?: string): string {
    const { load, random } = nextLoad();
    const order = random.shuffle(DETAIL_FIELDS);
    const names = random.shuffle(DETAIL_INPUT_NAMES);
    const token = `${load}-${random.hex()}`;
    // Never where the previous load had it.
    const isbnOffsetPx = lastIsbnOffset < 0 ? random.int(0, ISBN_OFFSETS_PX - 1) : (lastIsbnOffset + random.int(1, ISBN_OFFSETS_PX - 1)) % ISBN_OFFSETS_PX;
    lastIsbnOffset = isbnOffsetPx;
    const slowMs = random.int(...SLOW_MS);
    const rows = order.map((field, i) => ({ field, name: names[i]! }));
    openForms.set(token, Object.fromEntries(rows.map((row) => [row.name, row.field])));
    for (const old of openForms.keys()) {
      if (openForms.size <= MAX_OPEN_FORMS) break;
      openForms.delete(old);
    }
    return newBookPage(perturbation, { token, rows, isbnOffsetPx, slowMs, values, error });
  }

  function renderShelf(book: Book, error?: string): string {
    const { random } = nextLoad();
    const shelves = random.shuffle(SHELVES);
    // shuffledIcons: an order where save has moved, so the recorded spot holds another icon.
    let icons = random.shuffle(ICON_ORDER);
    while (icons[0] === 'save') icons = random.shuffle(ICON_ORDER);
    const slowMs = random.int(...SLOW_MS);
    const { title, author, isbn } = book.values;
    return shelfPage(perturbation, { bookId: book.id, book: { title, author, isbn }, shelves, icons: perturbation === 'shuffledIcons' ? icons : ICON_ORDER, slowMs, error });
  }

  function renderIndex(book: Book, error?: string): string {
    const { random } = nextLoad();
    const tickMs = random.int(...(options.tickMs ?? TICK_MS));
    const jumps = Array.from({ length: JUMP_COUNT }, () => random.int(...JUMP_PERCENT));
    const labelDelayMs = random.int(...LABEL_DELAY_MS);
    const slowMs = random.int(...SLOW_MS);
    return indexPage(perturbation, { bookId: book.id, title: book.values.title, tickMs, jumps: perturbation === 'progressJumps' ? jumps : null, labelDelayMs, slowMs, error });
  }

  function saveDraft(form: Record<string, string>): Book | { values: BookValues; error: string } {
    const token = form[LOAD_INPUT_NAME] ?? '';
    const names = openForms.get(token);
    if (!names) return { values: {}, error: 'This form has expired. Please enter the book again.' };
    openForms.delete(token);
    const values: BookValues = {
      publisher: (form[PUBLISHER_INPUT_NAME] ?? '').trim(),
      isbn: (form[ISBN_INPUT_NAME] ?? '').trim(),
    };
    for (const [name, field] of Object.entries(names)) values[field] = (form[name] ?? '').trim();
    for (const field of ACQUISITION_FIELDS) values[field.param] = (form[field.name] ?? '').trim();
    const { title = '', author = '', genre = '', publisher = '', isbn = '' } = values;
    if (!title || !author || !genre || !publisher || !isbn || ACQUISITION_FIELDS.some((field) => !values[field.param])) return { values, error: 'Every field is required.' };
    const acquisition = Object.fromEntries(ACQUISITION_FIELDS.map((field) => [field.param, values[field.param] ?? '']));
    const book: Book = { id: nextBookId++, values: { title, author, genre, publisher, isbn, ...acquisition } as Required<BookValues> };
    books.set(book.id, book);
    return book;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path } = requestTarget(req);
    const p = perturbation;

    if (path === '/' && (method === 'GET' || method === 'HEAD')) return redirect(res, 303, '/books/new');
    if (path === '/books/new' && method === 'GET') return sendHtml(res, 200, renderNewBook());
    if (path === '/books' && method === 'POST') {
      const saved = saveDraft(formFields(await readBody(req, MAX_BODY)));
      if (!('id' in saved)) return sendHtml(res, 200, renderNewBook(saved.values, saved.error));
      return redirect(res, 303, `/books/${saved.id}/shelf`);
    }

    if (path === '/api/destructive' && method === 'POST') return recordDestructive(req, res, MAX_BODY, () => destructiveClicks++);

    const match = /^\/books\/(\d+)\/(shelf|index|published)$/.exec(path);
    const book = match ? books.get(Number(match[1])) : undefined;
    if (!match || !book) return sendHtml(res, 404, notFoundPage(p));
    const page = match[2];
    const at = (where: 'shelf' | 'index' | 'published') => `/books/${book.id}/${where}`;

    if (page !== 'published' && book.published) return redirect(res, 303, at('published'));
    if (page === 'shelf' && method === 'GET') return sendHtml(res, 200, renderShelf(book));
    if (page === 'shelf' && method === 'POST') {
      const shelf = shelfNamed(formFields(await readBody(req, MAX_BODY)).shelf ?? '');
      if (!shelf) return sendHtml(res, 200, renderShelf(book, 'Assign the book to a shelf first.'));
      book.shelf = shelf.name;
      return redirect(res, 303, at('index'));
    }
    if (page === 'index' && !book.shelf) return redirect(res, 303, at('shelf'));
    if (page === 'index' && method === 'GET') return sendHtml(res, 200, renderIndex(book));
    if (page === 'index' && method === 'POST') {
      const form = formFields(await readBody(req, MAX_BODY));
      const stoppedAt = form.stopped_at ?? '';
      if (!/^\d+$/.test(stoppedAt)) return sendHtml(res, 200, renderIndex(book, 'Start the indexing and stop it before you publish.'));
      const fields = { ...book.values, shelf: book.shelf ?? '', stoppedAt, notes: (form.notes ?? '').trim() };
      book.published = fields;
      submissions.push({ id: book.id, fields });
      return redirect(res, 303, at('published'));
    }
    if (page === 'published' && method === 'GET') {
      if (!book.published) return redirect(res, 303, at('index'));
      return sendHtml(res, 200, publishedPage(p, { id: book.id, fields: book.published }, nextLoad().random.int(...SLOW_MS)));
    }
    return sendHtml(res, 404, notFoundPage(p));
  }

  const { origin, close } = await listenLocal(handle);

  return {
    origin,
    startUrl: `${origin}/books/new`,
    get perturbation() {
      return perturbation;
    },
    setPerturbation(next) {
      perturbation = next;
    },
    reset() {
      perturbation = null;
      openForms.clear();
      books.clear();
      nextBookId = 1;
      submissions.length = 0;
      destructiveClicks = 0;
    },
    get submissions() {
      return submissions;
    },
    get destructiveClicks() {
      return destructiveClicks;
    },
    get loads() {
      return loads;
    },
    close,
  };
}
