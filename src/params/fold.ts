/** Case and punctuation aside: "Part-time" and "part time" fold alike. */
export function fold(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** A pattern matching a whole accessible name that folds to the same as `text`. */
export function foldedNamePattern(text: string): RegExp {
  const words = fold(text).split(' ').filter(Boolean).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^[^\\p{L}\\p{N}]*${words.join('[^\\p{L}\\p{N}]+')}[^\\p{L}\\p{N}]*$`, 'iu');
}

const TRUE_WORDS = new Set(['true', 'yes', 'y', 'on', '1', 'checked']);
const FALSE_WORDS = new Set(['false', 'no', 'n', 'off', '0', 'unchecked']);

/** A parameter value read as a checkbox state; undefined when it is not a yes/no value. */
export function asBoolean(value: string): boolean | undefined {
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}
