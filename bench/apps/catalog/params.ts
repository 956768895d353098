/**
 * Parameter values for run `index`, and the check of the server's record against them. Every
 * text value differs from one index to another (titles, authors, ISBNs, notes); the genre, the
 * publisher and the shelf take each of their few values in turn, so consecutive runs differ in
 * them too.
 */
import type { BenchApp, BenchParams, ValueCellName } from '../contract.js';
import { CONDITION_OPTIONS, LOANABLE_OPTIONS, SHELVES, STOP_AT_LEAST, STOP_AT_MOST } from './data.js';

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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Yes and no as people write them; index 0 (the recording) says "on". */
const YES_NO = ['on', 'No', 'true', '0', 'Yes', 'off', '1', 'false', 'yes', 'no'];
const pad = (n: number) => String(n).padStart(2, '0');

/** A calendar day that differs per index; day and month never equal, so month-first is told from day-first. */
function day(i: number, salt: number): { year: number; month: number; day: number } {
  const month = 1 + ((i * 5 + salt) % 12);
  let d = 1 + ((i * 7 + salt * 3) % 28);
  if (d === month) d = d === 28 ? 27 : d + 1;
  return { year: 1998 + ((i * 3 + salt) % 27), month, day: d };
}

/**
 * The acquisition values as users have them in their own data: a date as MM/DD/YYYY, another as
 * "Jan 5, 2024", a time as "8:04 PM", an amount with grouping, yes/no spelled every way, a
 * condition by its code, a copy number of one or two digits. Index 0 is what the recording is
 * given: each value there proves its own format (a day above 12, an amount over 1,000).
 */
export function acquisitionParams(i: number): BenchParams {
  const acquired = i === 0 ? { year: 2011, month: 10, day: 21 } : day(i, 1);
  const returnBy = day(i, 5);
  const hour = (i * 5 + 20) % 24;
  const minute = (i * 13 + 4) % 60;
  const cents = (i * 37) % 100;
  const whole = i % 3 === 2 ? 7 + i : 1000 + ((i * 1733) % 40000);
  return {
    acquired: `${pad(acquired.month)}/${pad(acquired.day)}/${acquired.year}`,
    returnBy: `${MONTHS[returnBy.month - 1]!} ${returnBy.day}, ${returnBy.year}`,
    opens: `${hour % 12 === 0 ? 12 : hour % 12}:${pad(minute)} ${hour < 12 ? 'AM' : 'PM'}`,
    price: `${whole.toLocaleString('en-US')}.${pad(cents)}`,
    loanable: YES_NO[i % YES_NO.length]!,
    condition: CONDITION_OPTIONS[i % CONDITION_OPTIONS.length]!.value,
    copy: String(1 + ((i * 5) % 14)),
  };
}

/** What the server must hold for each acquisition value: the form each field took it in. */
export function acquisitionExpected(params: BenchParams): Record<string, string> {
  const text = (name: string) => String(params[name] ?? '');
  const [m, d, y] = text('acquired').split('/');
  const returnBy = /^([A-Za-z]{3}) (\d{1,2}), (\d{4})$/.exec(text('returnBy'));
  const time = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(text('opens'));
  const yes = /^(on|true|1|yes)$/i.test(text('loanable'));
  return {
    acquired: `${y}-${pad(Number(m))}-${pad(Number(d))}`,
    returnBy: returnBy ? `${pad(Number(returnBy[2]))}.${pad(MONTHS.indexOf(returnBy[1]!) + 1)}.${returnBy[3]}` : 'unreadable',
    opens: time ? `${pad((Number(time[1]) % 12) + (time[3] === 'PM' ? 12 : 0))}:${time[2]}` : 'unreadable',
    price: text('price').replace(/,/g, ''),
    loanable: (yes ? LOANABLE_OPTIONS[0] : LOANABLE_OPTIONS[1]).value,
    condition: text('condition'),
    copy: text('copy'),
  };
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
    ...acquisitionParams(index),
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
    for (const [field, want] of Object.entries(acquisitionExpected(params))) {
      const got = last.fields[field];
      // An amount is right when it is the same number (1234.50 or 1234.5), written without grouping.
      const same = field === 'price' ? got !== undefined && /^-?\d+(\.\d+)?$/.test(got) && Number(got) === Number(want) : got === want;
      if (!same) problems.push(`${field}: expected ${JSON.stringify(want)}, got ${show(got)}`);
    }
    const stoppedAt = last.fields.stoppedAt;
    const value = stoppedAt !== undefined && /^\d+$/.test(stoppedAt) ? Number(stoppedAt) : NaN;
    if (!(value >= STOP_AT_LEAST && value <= STOP_AT_MOST)) problems.push(`stoppedAt: expected ${STOP_AT_LEAST} to ${STOP_AT_MOST}, got ${show(stoppedAt)}`);
  }
  if (app.destructiveClicks > 0) problems.push(`${app.destructiveClicks} destructive click${app.destructiveClicks === 1 ? '' : 's'}`);
  return problems;
}

/**
 * The values of each value cell: the run's own values with the ones that cell stresses replaced.
 * All in the formats the recording was given (index 0), so the one recording must replay them.
 */
export const catalogValueCells: Record<ValueCellName, (index: number) => BenchParams> = {
  freeTextInTask: (i) => ({ ...catalogParams(i), notes: `Catalogue the copy on the shelf by the door, with the author's notes (accession ${4100 + i})` }),
  shortValues: (i) => ({ ...catalogParams(i), copy: String(i % 9 + 1), condition: i % 2 === 0 ? 'VG' : 'GD' }),
  userDates: (i) => ({ ...catalogParams(i), acquired: i % 2 === 0 ? '02/29/2024' : '3/7/2019', returnBy: i % 2 === 0 ? 'Dec 31, 1999' : 'Feb 1, 2030' }),
  userTimes: (i) => ({ ...catalogParams(i), opens: i % 2 === 0 ? '12:05 AM' : '12:30 PM' }),
  groupedNumbers: (i) => ({ ...catalogParams(i), price: i % 2 === 0 ? '1,234,567.89' : '7.05' }),
  yesNo: (i) => ({ ...catalogParams(i), loanable: i % 2 === 0 ? '1' : 'false' }),
  selectLabels: (i) => ({ ...catalogParams(i), condition: i % 2 === 0 ? 'WRN' : 'NEW' }),
};
