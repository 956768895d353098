/**
 * The library catalogue's fixed data: the "Book details" rows, the shelves, and the names the
 * pages, the server, the agent and verify() share, so that each is written in one place.
 */

/** The fields of the "Book details" table, known on the page only by their row header. */
export const DETAIL_FIELDS = ['title', 'author', 'genre'] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];

/** Each row's header on the unperturbed page. */
export const ROW_HEADERS: Record<DetailField, string> = { title: 'Title', author: 'Author', genre: 'Genre' };

/** The row header the renamedRowHeader perturbation changes, and what it reads instead (same field). */
export const RENAMED_ROW_HEADER = { field: 'genre', to: 'Category' } as const;

/**
 * The opaque names the three detail inputs take, dealt out at random on every load: a posted
 * name says nothing about its field until the server looks the load up.
 */
export const DETAIL_INPUT_NAMES = ['f1', 'f2', 'f3'] as const;

/** The Publisher input's name (it is known on the page by its placeholder only). */
export const PUBLISHER_INPUT_NAME = 'f4';

/** The ISBN input's name; the field is known on the page by its id (`ISBN_INPUT_ID`) only. */
export const ISBN_INPUT_NAME = 'x9';
export const ISBN_INPUT_ID = 'isbn';

/** The hidden input that carries the load token, so the server can decode the opaque names. */
export const LOAD_INPUT_NAME = 'load';

export type Shelf = { name: string; location: string };

/** The shelves of the "Place on a shelf" table (shuffled on every load). */
export const SHELVES: readonly Shelf[] = [
  { name: 'Fiction A', location: 'Ground floor, bay 1' },
  { name: 'Fiction B', location: 'Ground floor, bay 2' },
  { name: 'History A', location: 'First floor, east wing' },
  { name: 'History B', location: 'First floor, west wing' },
  { name: 'Reference C', location: 'Reading room' },
  { name: 'Periodicals D', location: 'Basement, stack 4' },
];

export function shelfNamed(name: string): Shelf | undefined {
  return SHELVES.find((shelf) => shelf.name === name);
}

/**
 * What the indexing must have reached when it is stopped: at least this (what the page asks),
 * and no more than the upper bound, which catches a wait replayed as a duration on a faster load.
 * Between the two lie 30 ticks, 1.2 to 1.8 s: an agent that sees the page diverge at the recorded
 * moment has that long to stop it, on a machine shared by four apps.
 */
export const STOP_AT_LEAST = 60;
export const STOP_AT_MOST = 90;

/** The required checkbox of the requiredField perturbation (above Publish). */
export const CONFIRM_FIELD = { name: 'confirm_details', label: 'I confirm the details are correct' } as const;

/**
 * The "Acquisition" fields of page 1, known by their labels, each filled from a value as users
 * have it in their own data (see params.ts): a date given as 10/11/2011 into a native date input,
 * a date given as Jan 5, 2024 into a text field that wants DD.MM.YYYY, a time given as 8:04 PM
 * into a native time input, an amount with grouping into a plain text field, yes/no spelled
 * every way into a Yes/No select, a condition code into a select that shows words, and a copy
 * number of one or two characters.
 */
export const ACQUISITION_FIELDS = [
  { param: 'acquired', label: 'Acquired on', name: 'acq_on', control: 'date' },
  { param: 'returnBy', label: 'Return by (DD.MM.YYYY)', name: 'ret_by', control: 'text' },
  { param: 'opens', label: 'Reading room opens', name: 'opens_at', control: 'time' },
  { param: 'price', label: 'Price paid', name: 'price', control: 'text' },
  { param: 'loanable', label: 'Loanable', name: 'loanable', control: 'select' },
  { param: 'condition', label: 'Condition', name: 'cond', control: 'select' },
  { param: 'copy', label: 'Copy', name: 'copy_no', control: 'text' },
] as const;
export type AcquisitionParam = (typeof ACQUISITION_FIELDS)[number]['param'];

/** The options of the two selects: what is posted, and the words the page shows for it. */
export const LOANABLE_OPTIONS = [{ value: 'Y', label: 'Yes' }, { value: 'N', label: 'No' }] as const;
export const CONDITION_OPTIONS = [
  { value: 'NEW', label: 'As new' },
  { value: 'VG', label: 'Very good' },
  { value: 'GD', label: 'Good' },
  { value: 'WRN', label: 'Worn' },
] as const;
