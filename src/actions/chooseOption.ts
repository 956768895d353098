import { fold } from '../params/fold.js';

/** One option of a <select>, as the page has it. */
export type SelectOption = { value: string; label: string };

/** How a text named an option, strictest first. */
export type OptionReading = 'value' | 'label' | 'case' | 'punctuation' | 'prefix';

export type OptionChoice =
  | { kind: 'one'; index: number; by: OptionReading }
  /** The first reading that fits at all fits options with different values: no answer. */
  | { kind: 'several'; labels: string[] }
  | { kind: 'none' };

/**
 * The one option a text names, read the same way when a select is recorded and when it is
 * replayed: its value or label as it is (both must agree when both fit), then case aside, then
 * punctuation aside ("Part-time" for "part time"), then the one label that starts with the text's
 * words ("evening" for "Evening (6-9 PM)"; only the label may be longer: "Washington" is not
 * "Washington DC"). The first reading that fits decides, and it must fit one option: "A-" folds
 * like "A+", so a loose reading that fits both is no answer rather than the first of them.
 */
export function chooseOption(wanted: string, options: readonly SelectOption[]): OptionChoice {
  const lower = (text: string) => text.trim().toLowerCase();
  const folded = fold(wanted);
  const startsWith = (long: string, short: string) => short !== '' && long.startsWith(`${short} `);
  const exact = decide([...fits(options, (option) => option.value === wanted), ...fits(options, (option) => option.label === wanted)], 'value', options);
  if (exact.kind !== 'none') return exact.kind === 'one' && options[exact.index]!.value !== wanted ? { ...exact, by: 'label' } : exact;
  const readings: [OptionReading, (option: SelectOption) => boolean][] = [
    ['case', (option) => lower(option.value) === lower(wanted) || lower(option.label) === lower(wanted)],
    ['punctuation', (option) => folded !== '' && (fold(option.value) === folded || fold(option.label) === folded)],
    ['prefix', (option) => startsWith(fold(option.label), folded)],
  ];
  for (const [by, reading] of readings) {
    const choice = decide(fits(options, reading), by, options);
    if (choice.kind !== 'none') return choice;
  }
  return { kind: 'none' };
}

function fits(options: readonly SelectOption[], reading: (option: SelectOption) => boolean): number[] {
  return options.flatMap((option, index) => (reading(option) ? [index] : []));
}

/** One answer when every fitting option has the same value (a duplicate entry); several otherwise. */
function decide(indexes: readonly number[], by: OptionReading, options: readonly SelectOption[]): OptionChoice {
  if (indexes.length === 0) return { kind: 'none' };
  const values = new Set(indexes.map((index) => options[index]!.value));
  if (values.size > 1) return { kind: 'several', labels: [...new Set(indexes.map((index) => options[index]!.label))] };
  return { kind: 'one', index: indexes[0]!, by };
}

/** Why a choice is no answer, for a divergence or an error. */
export function describeNoChoice(wanted: string, choice: Exclude<OptionChoice, { kind: 'one' }>, options: readonly SelectOption[]): string {
  switch (choice.kind) {
    case 'several':
      return `several options match ${JSON.stringify(wanted)} (${choice.labels.join(', ')})`;
    case 'none':
      return `no option matches ${JSON.stringify(wanted)} (options: ${options.map((option) => option.label).join(', ')})`;
  }
}
