/**
 * A scripted stand-in for a model on the library catalogue. Every answer is decided from the live
 * DOM (one snapshot per call, see snapshot.ts), never from a stored position, one step per answer:
 *
 *  a. a visible popup: click its button;
 *  b. "Book published": done;  the page is still loading: wait;
 *  c. "New book": the first field in page order that does not hold its value (the detail rows by
 *     their header, which it knows in both wordings, "Genre" or "Category"; Publisher by its
 *     placeholder; ISBN by its id), then Next;
 *  d. "Place on a shelf": "Assign" in the row whose Shelf cell is the wanted shelf, then the
 *     toolbar button whose drawing is the save icon;
 *  e. "Index the book": Start; wait while the indicator is below 60%; Stop; wait while the Notes
 *     label is still empty; fill Notes; tick a required checkbox; Publish. A job stopped too
 *     early or too late cannot be undone: the agent finishes and verify() reports the value.
 * An error shown with nothing left to change, or a page it does not know, ends the run instead
 * of looping.
 */
import type { Page } from 'playwright';
import type { Agent, AgentAnswer, Observation } from '../../../src/agent/agent.js';
import { clickOrScroll, typeOver, type Viewport } from '../../../src/demo/agentKit.js';
import { ACQUISITION_FIELDS, STOP_AT_LEAST } from './data.js';
import { acquisitionExpected } from './params.js';
import { ICON_MARKUP } from './icons.js';
import { catalogSnapshot, type CatalogSnapshot, type TextField } from './snapshot.js';

/** The words a person accepts as the header of each detail row, and the parameter it takes. */
const ROW_PARAMS: readonly { param: 'title' | 'author' | 'genre'; headers: readonly string[] }[] = [
  { param: 'title', headers: ['Title'] },
  { param: 'author', headers: ['Author'] },
  { param: 'genre', headers: ['Genre', 'Category'] },
];

/** The save icon's drawing, as the agent knows it (whitespace folded, as the snapshot reads it). */
const SAVE_ICON = ICON_MARKUP.save.replace(/\s+/g, ' ').trim();

const WAIT_MS = 200;
/** Close to the value it stops at, it looks again sooner, as anyone watching a bar would. */
const CLOSE_WAIT_MS = 50;

function wait(intent: string, ms = WAIT_MS): AgentAnswer {
  return { actions: [{ type: 'wait', ms }], intent };
}

function fill(field: TextField, wanted: string, viewport: Viewport, name: string): AgentAnswer | null {
  if (field.value === wanted) return null;
  return clickOrScroll(field.box, viewport, typeOver(field.value, wanted), `Fill "${name}"`) ?? wait(`Wait for "${name}" to show`);
}

function button(snap: CatalogSnapshot, text: string): CatalogSnapshot['buttons'][number] | undefined {
  return snap.buttons.find((b) => b.text === text);
}

function clickButton(snap: CatalogSnapshot, text: string): AgentAnswer | null {
  const found = button(snap, text);
  if (!found || found.disabled) return null;
  return clickOrScroll(found.box, snap.viewport, [], `Click "${text}"`);
}

function newBook(snap: CatalogSnapshot, params: Record<string, string>): AgentAnswer {
  const { viewport } = snap;
  for (const { headers } of ROW_PARAMS) {
    if (!snap.rows.some((row) => headers.includes(row.header))) return { done: true, answer: `Cannot find the "${headers[0]!}" row of the book details` };
  }
  for (const row of snap.rows) {
    const known = ROW_PARAMS.find((entry) => entry.headers.includes(row.header));
    const wanted = known && params[known.param];
    if (wanted === undefined) continue;
    const answer = fill(row, wanted, viewport, row.header);
    if (answer) return answer;
  }
  if (!snap.publisher) return { done: true, answer: 'Cannot find the Publisher field' };
  const publisher = fill(snap.publisher, params.publisher ?? '', viewport, 'Publisher');
  if (publisher) return publisher;
  if (!snap.isbn) return { done: true, answer: 'Cannot find the ISBN field' };
  const isbn = fill(snap.isbn, params.isbn ?? '', viewport, 'ISBN');
  if (isbn) return isbn;
  const acquisition = acquire(snap, params);
  if (acquisition) return acquisition;
  if (snap.error) return { done: true, answer: `Cannot continue: ${snap.error}` };
  return clickButton(snap, 'Next') ?? { done: true, answer: 'Cannot find "Next"' };
}

/**
 * The "Acquisition" fields, as a person fills them from the values as given: each value read the
 * way the user wrote it and put in the form its field takes (a native date typed month first, as
 * Chromium's en-US date input takes keys; a native time as its digits and AM/PM; the select's
 * option with the words for the value).
 */
function acquire(snap: CatalogSnapshot, params: Record<string, string>): AgentAnswer | null {
  const wanted = acquisitionExpected(params);
  for (const field of ACQUISITION_FIELDS) {
    const live = snap.labelled.find((entry) => entry.label === field.label);
    if (!live) return { done: true, answer: `Cannot find the "${field.label}" field` };
    const want = wanted[field.param]!;
    switch (field.control) {
      case 'select': {
        if (live.value === want) continue;
        const option = live.options.find((o) => o.value === want);
        if (!option) return { done: true, answer: `"${field.label}" has no option for ${params[field.param]}` };
        return clickOrScroll(live.box, snap.viewport, [{ type: 'type', text: option.label }], `Choose "${field.label}"`) ?? wait(`Wait for "${field.label}" to show`);
      }
      case 'date': {
        if (live.value === want) continue;
        const [y, m, d] = want.split('-');
        return clickOrScroll(live.box, snap.viewport, [{ type: 'type', text: `${m}/${d}/${y}` }], `Fill "${field.label}"`) ?? wait(`Wait for "${field.label}" to show`);
      }
      case 'time': {
        if (live.value === want) continue;
        const [h, min] = want.split(':').map(Number) as [number, number];
        const keys = `${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}${String(min).padStart(2, '0')}${h < 12 ? 'AM' : 'PM'}`;
        return clickOrScroll(live.box, snap.viewport, [{ type: 'type', text: keys }], `Fill "${field.label}"`) ?? wait(`Wait for "${field.label}" to show`);
      }
      case 'text': {
        const answer = fill(live, want, snap.viewport, field.label);
        if (answer) return answer;
        continue;
      }
    }
  }
  return null;
}

function shelf(snap: CatalogSnapshot, params: Record<string, string>): AgentAnswer {
  const wanted = params.shelf ?? '';
  if (snap.selectedShelf !== wanted) {
    const row = snap.shelves.find((s) => s.shelf === wanted);
    if (!row) return { done: true, answer: `There is no shelf "${wanted}"` };
    return clickOrScroll(row.assign, snap.viewport, [], `Click "Assign" in the row of ${wanted}`) ?? wait('Wait for the shelves to show');
  }
  const save = snap.icons.find((icon) => icon.markup === SAVE_ICON);
  if (!save) return { done: true, answer: 'Cannot find the save icon in the toolbar' };
  return clickOrScroll(save.box, snap.viewport, [], 'Click the save icon') ?? wait('Wait for the toolbar to show');
}

function indexing(snap: CatalogSnapshot, params: Record<string, string>): AgentAnswer {
  const { viewport } = snap;
  const start = clickButton(snap, 'Start indexing');
  if (start) return start;
  const stop = button(snap, 'Stop');
  if (stop && !stop.disabled) {
    const progress = snap.progress ?? 0;
    if (progress < STOP_AT_LEAST) return wait(`Wait for the indexing to reach ${STOP_AT_LEAST}%`, progress >= STOP_AT_LEAST - 10 ? CLOSE_WAIT_MS : WAIT_MS);
    return clickButton(snap, 'Stop') ?? wait('Wait for "Stop" to show');
  }
  // Stopped (or run to the end): a value outside the window is not the agent's to undo; it
  // finishes the task and verify() reports the value the server got.
  const notes = snap.textareas[0];
  if (!notes) return wait('Wait for the Notes field');
  if (notes.label === '') return wait('Wait for the Notes field to be labelled');
  if (notes.label !== 'Notes') return { done: true, answer: `The text field is labelled "${notes.label}", not "Notes"` };
  const filled = fill(notes, params.notes ?? '', viewport, 'Notes');
  if (filled) return filled;

  const required = snap.requiredUnchecked[0];
  if (required) return clickOrScroll(required.box, viewport, [], `Check "${required.label}"`) ?? wait('Wait for the checkbox to show');
  if (snap.error && button(snap, 'Publish')) return { done: true, answer: `Cannot continue: ${snap.error}` };
  return clickButton(snap, 'Publish') ?? { done: true, answer: 'Cannot find "Publish"' };
}

/** The decision for one snapshot; pure, so it can be tested without a browser. */
export function decideCatalog(snap: CatalogSnapshot, params: Record<string, string>): AgentAnswer {
  if (snap.dialog?.button) return clickOrScroll(snap.dialog.button, snap.viewport, [], `Dismiss the "${snap.dialog.text.slice(0, 50)}" popup`);
  if (snap.heading === 'Book published') return { done: true, answer: snap.confirmation ?? 'Book published' };
  if (snap.loading || snap.heading === null) return wait('Wait for the page to load');
  switch (snap.heading) {
    case 'New book':
      return newBook(snap, params);
    case 'Place on a shelf':
      return shelf(snap, params);
    case 'Index the book':
      return indexing(snap, params);
    default:
      return { done: true, answer: `Unexpected page "${snap.heading}"` };
  }
}

/** Waits in a row after which the agent gives up: far more than the slowest page needs (about 20). */
const MAX_WAITS = 100;

/** The catalogue agent for `page`: reads its DOM on every call; the observation's screenshot is not used. */
export function catalogAgent(page: Page): Agent {
  let waits = 0;
  return {
    name: 'catalog-agent (scripted, reads the DOM)',
    async next(observation: Observation): Promise<AgentAnswer> {
      const answer = decideCatalog(await catalogSnapshot(page), observation.params);
      const waiting = 'actions' in answer && answer.actions.length === 1 && answer.actions[0]!.type === 'wait';
      waits = waiting ? waits + 1 : 0;
      if (waits > MAX_WAITS) return { done: true, answer: 'The page never showed what the task needs' };
      return answer;
    },
  };
}
