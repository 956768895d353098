import type { Format } from '../format.js';

export const CASES = ['upper', 'lower', 'title'] as const;
export type CaseName = (typeof CASES)[number];

/** Probe values that separate case conversions and word positions (forward and from the end). */
export const TEXT_PROBES = ['Mary Ann Lee', "jOHN o'brien-SMITH", 'Zed Xu', 'ALICE B JONES', 'bob'];

export const WORD_RULE = 'word takes a whole number other than 0: 1 is the first word, -1 the last';

export function applyCase(value: string, to: CaseName): string | null {
  switch (to) {
    case 'upper': return value.toUpperCase();
    case 'lower': return value.toLowerCase();
    // Each word's first letter capitalized, the rest left as it is ("McDonald" stays), a hyphen
    // starting a word too ("Lee-Smith"); lowering the rest as well would change such names.
    case 'title': return value.replace(/(^|[\s-])(\p{L})/gu, (_whole, before: string, letter: string) => before + letter.toUpperCase());
    default: return null;
  }
}

export function splitWords(value: string): string[] {
  const trimmed = value.trim();
  return trimmed ? trimmed.split(/\s+/) : [];
}

/** The 1-based word of the value, negative counting from the end; null when there is none. */
export function wordOf(value: string, index: number): string | null {
  if (!Number.isInteger(index) || index === 0) return null;
  const words = splitWords(value);
  return words[index > 0 ? index - 1 : words.length + index] ?? null;
}

/**
 * Chains tried for a text value: case conversions, then each word with and without a case.
 * The first word is word:1 and the last word:-1; a middle word is tried both from the start and
 * from the end, which probes tell apart, so a middle word stays ambiguous (literal) rather than
 * guessing whether a new value's second word is the same part of the name.
 */
export function textChains(value: string): Format[][] {
  const chains: Format[][] = CASES.map((to) => [{ kind: 'case', to }]);
  const count = splitWords(value).length;
  if (count < 2) return chains;
  for (let position = 1; position <= count; position++) {
    const indexes = position === 1 ? [1] : position === count ? [-1] : [position, position - count - 1];
    for (const index of indexes) {
      chains.push([{ kind: 'word', index }]);
      for (const to of CASES) chains.push([{ kind: 'word', index }, { kind: 'case', to }]);
    }
  }
  return chains;
}
