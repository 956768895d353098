import type { BoundParams } from './boundParams.js';
import { fold } from './fold.js';
import { applyFormats, formatSpec, type Format } from './format.js';
import { parseIsoDate } from './formats/date.js';
import { givenReadings } from './formats/given.js';

/**
 * A date asked in parts (a month select, a day box, a year box), as old forms ask a date of birth.
 * Which part a control holds is read from the control itself, never guessed from the value: the
 * options a select offers (twelve month names, the days 1 to 31, years) and names that say a date
 * or that part, or the names a box is known by (Day, DD, Month, MM, Year, YYYY); a control named
 * for something else (an hour, a card's expiry, a tax year) is none. The run must also ask two
 * parts of the same date (see pieceGuards.ts): a lone 5 or 2024 is more likely something else. Then the part of the date parameter the control shows
 * is bound as a template (`{{dob|from:date:MM/DD/YYYY|date:MMMM}}`), so a replay sets the new date's
 * part; where the control does not say which part it is, or two readings of the value or two
 * parameters fit, the step stays guarded as a piece (see pieces.ts).
 */
export type DatePart = 'year' | 'month' | 'day';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** What a select's options say it picks (placeholders like "Month" or "--" aside). */
export function datePartOfOptions(labels: readonly string[]): DatePart | undefined {
  const real = labels.map((label) => label.trim()).filter((label) => /\d/.test(label) || MONTHS.some((month) => fold(label) === month || fold(label) === month.slice(0, 3)));
  if (real.length < 2) return undefined;
  const names = real.map((label) => MONTHS.findIndex((month) => fold(label) === month || fold(label) === month.slice(0, 3)));
  if (real.length === 12 && names.every((index, at) => index === at)) return 'month';
  if (!real.every((label) => /^\d+$/.test(label))) return undefined;
  const numbers = real.map(Number);
  if (numbers.every((year) => year >= 1000 && year <= 9999)) return 'year';
  const consecutive = numbers.every((n, at) => n === at + 1);
  if (consecutive && numbers.length === 12) return 'month';
  if (consecutive && numbers.length >= 28 && numbers.length <= 31) return 'day';
  return undefined;
}

/** Words of a control's names (label, name and id attributes, placeholder...), split and folded: birthMonth, dob_month -> birth month, dob month. */
function wordsOf(names: string): string[] {
  return fold(names.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.[\]]/g, ' ')).split(' ').filter(Boolean);
}

const PART_WORDS: Record<DatePart, readonly string[]> = {
  day: ['day', 'dd'],
  month: ['month', 'mm', 'mon'],
  year: ['year', 'yyyy', 'yy', 'yr'],
};
const DATE_WORDS = ['date', 'dob', 'birth', 'birthday', 'born', 'bday'];
/**
 * Words of controls whose numbers are no part of a date however their options look: an hour
 * select 1-12, a card's expiry month, a payment day, a tax year, a count of days.
 */
const NOT_A_DATE = ['hour', 'hours', 'hr', 'hh', 'minute', 'minutes', 'min', 'time', 'am', 'pm', 'exp', 'expiry', 'expires', 'expiration', 'valid', 'card', 'cc', 'cvv', 'per', 'qty', 'quantity', 'count', 'number', 'num', 'no', 'age', 'size', 'tax', 'fiscal', 'built', 'model', 'duration', 'length', 'term', 'days', 'months', 'years', 'weeks', 'payment', 'billing', 'every', 'each'];

/** What a box's names say it holds: one part named, no other, and no word of something else ("Day", "DD", "Birth year", "YYYY"). */
export function datePartOfName(names: string): DatePart | undefined {
  const words = wordsOf(names);
  if (words.some((word) => NOT_A_DATE.includes(word))) return undefined;
  const named = (Object.keys(PART_WORDS) as DatePart[]).filter((part) => words.some((word) => PART_WORDS[part].includes(word)));
  return named.length === 1 ? named[0] : undefined;
}

/**
 * Whether a select whose options read as `part` is named for it: its names say that part or a date
 * (a birth date's month select, named "month", "dob_month" or labelled "Date of birth"), and
 * nothing else a 1 to 12 or a year could be (an hour, an expiry, a tax year).
 */
export function namesDatePart(names: string, part: DatePart): boolean {
  const words = wordsOf(names);
  if (words.some((word) => NOT_A_DATE.includes(word))) return false;
  const other = (Object.keys(PART_WORDS) as DatePart[]).filter((candidate) => candidate !== part && words.some((word) => PART_WORDS[candidate].includes(word)));
  if (other.length > 0 && !words.some((word) => PART_WORDS[part].includes(word))) return false;
  return words.some((word) => PART_WORDS[part].includes(word) || DATE_WORDS.includes(word));
}

/**
 * The pattern that renders the part as the control shows it: a month by name as long as the
 * label, numbers padded only when the text is ("05"). A day of 11 tells no padding: the next
 * day 5 is typed as 5, as a person types it (a box named DD takes it too).
 */
function partPattern(part: DatePart, text: string): string | undefined {
  const shown = text.trim();
  switch (part) {
    case 'year':
      return /^\d{4}$/.test(shown) ? 'YYYY' : /^\d{2}$/.test(shown) ? 'YY' : undefined;
    case 'month':
      if (/^\p{L}+$/u.test(shown)) return shown.length > 3 ? 'MMMM' : 'MMM';
      return /^\d{1,2}$/.test(shown) ? (shown.startsWith('0') ? 'MM' : 'M') : undefined;
    case 'day':
      return /^\d{1,2}$/.test(shown) ? (shown.startsWith('0') ? 'DD' : 'D') : undefined;
  }
}

/**
 * Binds the part a control shows (`text`: the chosen option's label or the typed text) to the one
 * date parameter whose value has that part, read the one way its value can be read: its names
 * (more than one only when they hold the same date) and the formats that render the part.
 */
export function bindDatePart(part: DatePart, text: string, params: BoundParams): { names: string[]; formats: string } | { literal: string[] } | undefined {
  const pattern = partPattern(part, text);
  if (!pattern) return undefined;
  const fits: { name: string; value: string; chain: Format[] }[] = [];
  const unsure = new Set<string>();
  for (const [name, value] of params.plainEntries()) {
    const kind = params.kind(name);
    if (kind !== undefined && kind !== 'date' && kind !== 'string') continue;
    const readings: Format[][] = parseIsoDate(value.trim()) ? [[]] : givenReadings(value, 'date').map((given): Format[] => [{ kind: 'from', given }]);
    const chains = readings.map((reading): Format[] => [...reading, { kind: 'date', pattern }]).filter((chain) => sameText(applyFormats(value, chain), text));
    // Month first and day first both showing this part (05/05/2024): which one the user meant is not
    // known. A year is the same under either: the first reading serves (and teaches no reading, see learnedSchema).
    if (chains.length > 1 && part !== 'year') unsure.add(name);
    else if (chains.length >= 1) fits.push({ name, value, chain: chains[0]! });
  }
  const first = fits[0];
  if (!first && unsure.size === 0) return undefined;
  if (first && unsure.size === 0 && fits.every((fit) => fit.value === first.value && formatSpec(fit.chain) === formatSpec(first.chain))) {
    // Several parameters holding the same date (a start and a planned start) are an ordinary ambiguity.
    return { names: fits.map((fit) => fit.name), formats: formatSpec(first.chain) };
  }
  return { literal: [...fits.map((fit) => fit.name), ...unsure] };
}

function sameText(rendered: string | null, shown: string): boolean {
  return rendered !== null && fold(rendered) === fold(shown);
}
