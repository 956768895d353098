/**
 * Parameter values for run `index`, and the check of the server's record against them. Every
 * text value differs from one index to another (titles, authors, ISBNs, notes); the genre, the
 * publisher and the shelf take each of their few values in turn, so consecutive runs differ in
 * them too.
 */
import type { BenchApp, BenchParams } from '../contract.js';
import { SHELVES, STOP_AT_LEAST, STOP_AT_MOST } from './data.js';

/** 13 and 17 are coprime: (adjective, noun) pairs repeat only after 221 indexes. */
const ADJECTIVES = ['Silent', 'Amber', 'Northern', 'Hidden', 'Winter', 'Painted', 'Distant', 'Salt', 'Iron', 'Quiet', 'Golden', 'Hollow', 'Velvet'];
const NOUNS = ['Harbour', 'Orchard', 'Lantern', 'Meadow', 'Compass', 'Archive', 'Garden', 'Tide', 'Chapel', 'Ledger', 'Valley', 'Letters', 'Frontier', 'Almanac', 'Bridge', 'Atlas', 'Kingdom'];

/** 11 and 13 are coprime: full names repeat only after 143 indexes. */
const FIRST_NAMES = ['Clara', 'Tobias', 'Miriam', 'Anselm', 'Edith', 'Rowan', 'Judith', 'Felix', 'Agnes', 'Oskar', 'Hester'];
const LAST_NAMES = ['Whitmore', 'Ashdown', 'Pemberton', 'Farrow', 'Kessler', 'Lindgren', 'Okonjo', 'Marchetti', 'Holloway', 'Vance', 'Duclos', 'Brannigan', 'Stroud'];
const INITIALS = 'ABCDEFGHJKLMNPRSTW';

/** None of them is a word of a shelf's name, so a genre never reads as part of a shelf. */
const GENRES = ['Mystery', 'Biography', 'Poetry', 'Travel', 'Cookery', 'Philosophy', 'Gardening'];
const PUBLISHERS = ['Harbour Press', 'Quillstone Books', 'Meridian House', 'Old Mill Editions', 'Northgate Publishing'];
const NOTES = [
  'Donated by the Friends of the Library',
  'Signed by the author on the title page',
  'Replaces a lost copy',
  'Large print edition',
  'Spine slightly faded',
  'Bought for the reading group',
  'Includes a folded map',
  'Second printing with corrections',
];

function title(i: number): string {
  const round = Math.floor(i / (ADJECTIVES.length * NOUNS.length));
  const words = `${i % 2 === 1 ? 'The ' : ''}${ADJECTIVES[i % ADJECTIVES.length]!} ${NOUNS[i % NOUNS.length]!}`;
  return round === 0 ? words : `${words} ${round + 1}`;
}

function author(i: number): string {
  const round = Math.floor(i / (FIRST_NAMES.length * LAST_NAMES.length));
  const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
  const last = LAST_NAMES[i % LAST_NAMES.length]!;
  return round === 0 ? `${first} ${last}` : `${first} ${INITIALS[(round - 1) % INITIALS.length]!}. ${last}`;
}

/** ISBN-13 written 978-0-RRRRRR-PP-C with a correct check digit; the registrant part is unique per index. */
export function isbn(i: number): string {
  const registrant = String((123456 + i * 7) % 1_000_000).padStart(6, '0');
  const publication = String((47 + i * 3) % 100).padStart(2, '0');
  const digits = `9780${registrant}${publication}`;
  const sum = [...digits].reduce((total, digit, position) => total + Number(digit) * (position % 2 === 0 ? 1 : 3), 0);
  return `978-0-${registrant}-${publication}-${(10 - (sum % 10)) % 10}`;
}

export function catalogParams(index: number): BenchParams {
  if (!Number.isInteger(index) || index < 0) throw new Error(`catalog params: index must be a non-negative integer, got ${index}`);
  return {
    title: title(index),
    author: author(index),
    genre: GENRES[index % GENRES.length]!,
    publisher: PUBLISHERS[(index * 2) % PUBLISHERS.length]!,
    isbn: isbn(index),
    shelf: SHELVES[index % SHELVES.length]!.name,
    notes: `${NOTES[index % NOTES.length]!} (accession ${4100 + index})`,
  };
}

/** The text fields of a submission, compared with their parameter one to one. */
const TEXT_FIELDS = ['title', 'author', 'genre', 'publisher', 'isbn', 'shelf', 'notes'] as const;

/**
 * What is wrong with the last submission for `params`; empty when the task succeeded. The server
 * decodes every field by the load's own names, so a value typed into the wrong row shows here as
 * two wrong fields.
 */
export function verifyCatalog(app: BenchApp, params: BenchParams): string[] {
  const problems: string[] = [];
  const last = app.submissions[app.submissions.length - 1];
  if (!last) problems.push('no submission');
  else {
    const show = (value: string | undefined) => (value === undefined ? 'nothing' : JSON.stringify(value));
    for (const field of TEXT_FIELDS) {
      const want = String(params[field] ?? '');
      const got = last.fields[field];
      if (got !== want) problems.push(`${field}: expected ${JSON.stringify(want)}, got ${show(got)}`);
    }
    const stoppedAt = last.fields.stoppedAt;
    const value = stoppedAt !== undefined && /^\d+$/.test(stoppedAt) ? Number(stoppedAt) : NaN;
    if (!(value >= STOP_AT_LEAST && value <= STOP_AT_MOST)) problems.push(`stoppedAt: expected ${STOP_AT_LEAST} to ${STOP_AT_MOST}, got ${show(stoppedAt)}`);
  }
  if (app.destructiveClicks > 0) problems.push(`${app.destructiveClicks} destructive click${app.destructiveClicks === 1 ? '' : 's'}`);
  return problems;
}
