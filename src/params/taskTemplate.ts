import type { BoundParams } from './boundParams.js';
import { hideSecrets } from './template.js';

/**
 * The template of a task's text, which its cache key is made from: every parameter value that
 * stands in the text whole is replaced by its `{{name}}`, and nothing else is. The key must not
 * move when only the values do, so a value counts only as itself, quoted or as whole words:
 * never a word of a longer value, a case change or a date in another format (those are how a
 * value is typed into a page, which `templatize` reads; in a task's own words they are chance,
 * like the "the" of a free-text comment that also stands in "Fill in the form").
 *
 * A quoted value counts whatever its length (`password "US"`). Unquoted, a short all-lowercase
 * value ("a", "on", "no") or a function word ("the", "and") is left alone: it is an ordinary word
 * of the sentence far more often than it is the value, and replacing it only for the runs whose
 * value happens to be that word would move the key from run to run. Secret values are replaced wherever they stand (see hideSecrets).
 */
export function taskTemplate(task: string, params: BoundParams): string {
  const hidden = hideSecrets(task, params).template;
  // Longest first, so "John Smith" is {{fullName}} before "John" can be {{first}}.
  const byValue = new Map<string, string[]>();
  for (const [name, value] of params.plainEntries()) {
    if (value.trim() === '') continue;
    byValue.set(value, [...(byValue.get(value) ?? []), name]);
  }
  const tokens: string[] = [];
  const token = (replacement: string) => `\u0000${tokens.push(replacement) - 1}\u0000`;
  // Placeholders already in the text (a secret just hidden) are tokens too: nothing is found inside them.
  let template = hidden.replace(/\{\{[^{}]*\}\}/g, (whole) => token(whole));
  for (const value of [...byValue.keys()].sort((a, b) => b.length - a.length)) {
    const names = byValue.get(value)!;
    // Equal values (copy "1" and loanable "1"): the one the words before it name ("copy 1"), so
    // the key does not depend on which other parameter happens to share the value this time.
    const placeholder = (offset: number, text: string) => `{{${namedBefore(text.slice(0, offset), names) ?? names[0]}}}`;
    const escaped = escapeRegExp(value);
    // Quoted: between a pair of the same quotes, straight or typographic.
    const quoted = new RegExp(`(["'\u2018\u2019\u201C\u201D\u00AB\u00BB\`])${escaped}(["'\u2018\u2019\u201C\u201D\u00AB\u00BB\`])`, 'gu');
    template = template.replace(quoted, (whole, open: string, close: string, offset: number, text: string) => (pairs(open, close) ? `${open}${token(placeholder(offset, text))}${close}` : whole));
    if (/^\p{Ll}+$/u.test(value) && (value.length < 3 || FUNCTION_WORDS.has(value))) continue;
    // As whole words: no letter, digit or _ against it, and a number is not part of a longer one
    // (12 in 12.5, 2024 in 2024-01-15).
    const word = new RegExp(`(?<![\\p{L}\\p{N}_\u0000])(?<!\\p{N}[.,:/-])${escaped}(?![\\p{L}\\p{N}_\u0000])(?![.,:/-]\\p{N})`, 'gu');
    // A short value standing unquoted more than once ("option 2 ... quantity 2") may be the value at
    // one place and an ordinal at another: only where the words right next to it name the parameter
    // ("quantity 2", "2 tickets"), so "option 2" and "option 3" never share a key because a
    // quantity happened to equal them.
    const named = value.trim().length < 3 && (template.match(word)?.length ?? 0) > 1;
    template = template.replace(word, (whole, offset: number, text: string) => {
      if (!named) return token(placeholder(offset, text));
      const name = names.find((candidate) => nextTo(text.slice(0, offset), text.slice(offset + whole.length), candidate));
      return name === undefined ? whole : token(`{{${name}}}`);
    });
  }
  return template.replace(/\u0000(\d+)\u0000/g, (_whole, index: string) => tokens[Number(index)]!);
}

/**
 * English words that make up the sentence of a task rather than name its data: a value that is
 * one of them ("the", "and") is taken for a parameter only where the task quotes it.
 */
const FUNCTION_WORDS = new Set(
  'the and for with from into onto that this these those then than you your our are was were has have had not but all any its his her she him they them their there here what when where which who whom whose will would can could should may might must shall each every some such only also just more most other out over under about after before again off per via nor yet'.split(' '),
);

/** The one of `names` whose words all stand among the last few words before a value, if exactly one. */
function namedBefore(before: string, names: readonly string[]): string | undefined {
  if (names.length < 2) return names[0];
  const fits = names.filter((name) => namesItself(before, name));
  return fits.length === 1 ? fits[0] : undefined;
}

/** The words of `name` stand right before the value ("quantity 2") or right after it ("2 quantity"). */
function nextTo(before: string, after: string, name: string): boolean {
  const wanted = nameWords(name).join(' ');
  const words = (text: string) => text.toLowerCase().replace(/\u0000\d+\u0000/g, ' \u0000 ').replace(/[^\p{L}\p{N}\u0000]+/gu, ' ').trim().split(' ').filter(Boolean);
  const count = nameWords(name).length;
  return words(before).slice(-count).join(' ') === wanted || words(after).slice(0, count).join(' ') === wanted;
}

/** The words of `name` all stand among the last few words of `before`. */
function namesItself(before: string, name: string): boolean {
  const recent = ` ${lastWords(before)} `;
  return nameWords(name).every((word) => recent.includes(` ${word}`));
}

function lastWords(before: string): string {
  return before.toLowerCase().replace(/\u0000\d+\u0000/g, ' ').replace(/[^\p{L}\p{N}]+/gu, ' ').trim().split(' ').slice(-4).join(' ');
}

function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase().split(' ').filter(Boolean);
}

const CLOSING: Record<string, string> = { '"': '"', "'": "'", '`': '`', '\u2018': '\u2019', '\u201C': '\u201D', '\u00AB': '\u00BB', '\u2019': '\u2019', '\u201D': '\u201D', '\u00BB': '\u00AB' };

function pairs(open: string, close: string): boolean {
  return CLOSING[open] === close;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
