import { RoteError } from '../../errors/roteError.js';
import type { Format } from '../format.js';
import { DATE_RULE, datePieces } from './date.js';
import { DATETIME_RULE, splitDateTimePattern } from './datetime.js';
import { MONEY_RULE, NUMBER_RULE, parseNumberPattern } from './number.js';
import { isPhonePattern, PHONE_RULE } from './phone.js';
import { CASES, WORD_RULE } from './text.js';
import { TIME_RULE, timePieces } from './time.js';

const ALLOWED = 'expected date:<pattern>, time:<pattern>, datetime:<pattern>, upper, lower, title, number:<pattern>, money:<pattern>, phone:<pattern>, word:<n>, from:<date|time|number>:<pattern> or bool:<yes>/<no>, several joined by |';
const FROM_RULE = 'from takes how the value is given: date:<pattern>, time:<pattern> or number:<pattern> (from:date:MM/DD/YYYY), and comes first';
const BOOL_RULE = 'bool takes the yes and the no word, split by one / (bool:Yes/No)';

/** `date:MM/DD/YYYY|upper`: formats joined by '|', applied left to right. Throws on a malformed format. */
export function formatSpec(formats: readonly Format[]): string {
  return formats.map((format, index) => {
    if (format.kind === 'from' && index > 0) throw new RoteError('invalid-argument', `format ${JSON.stringify(specOf(format))} is not valid: ${FROM_RULE}`);
    const text = specOf(format);
    const problem = problemWith(format);
    if (problem) throw new RoteError('invalid-argument', `format ${JSON.stringify(text)} is not valid: ${problem}`);
    return text;
  }).join('|');
}

/** Inverse of formatSpec; '' is no formats. Each '|'-separated part is trimmed. */
export function parseFormatSpec(spec: string): Format[] {
  if (spec.trim() === '') return [];
  return spec.split('|').map((part, index) => {
    const piece = part.trim();
    const format = readPiece(piece);
    const problem = format ? (format.kind === 'from' && index > 0 ? FROM_RULE : problemWith(format)) : ALLOWED;
    if (problem) {
      const where = piece === spec ? '' : ` in ${JSON.stringify(spec)}`;
      throw new RoteError('invalid-argument', `format ${JSON.stringify(piece)}${where} is not valid: ${problem}`);
    }
    return format!;
  });
}

function specOf(format: Format): string {
  switch (format.kind) {
    case 'case': return format.to;
    case 'word': return `word:${format.index}`;
    case 'from': return `from:${specOf(format.given)}`;
    case 'bool': return `bool:${format.yes}/${format.no}`;
    default: return `${format.kind}:${format.pattern}`;
  }
}

function readPiece(piece: string): Format | null {
  const colon = piece.indexOf(':');
  const name = colon < 0 ? piece : piece.slice(0, colon);
  const argument = colon < 0 ? undefined : piece.slice(colon + 1);
  switch (name) {
    case 'upper':
    case 'lower':
    case 'title':
      return argument === undefined ? { kind: 'case', to: name } : null;
    case 'date':
    case 'time':
    case 'datetime':
    case 'number':
    case 'money':
    case 'phone':
      return argument === undefined ? null : { kind: name, pattern: argument };
    case 'from': {
      const given = argument === undefined ? null : readPiece(argument);
      // An unreadable reading is kept as a date with an empty pattern, so the from rule names the problem.
      return given && (given.kind === 'date' || given.kind === 'time' || given.kind === 'number') ? { kind: 'from', given } : { kind: 'from', given: { kind: 'date', pattern: '' } };
    }
    case 'bool': {
      const words = argument?.split('/') ?? [];
      return words.length === 2 ? { kind: 'bool', yes: words[0]!, no: words[1]! } : { kind: 'bool', yes: '', no: '' };
    }
    case 'word':
      // Kept as NaN when not a whole number, so the word rule below names the problem.
      return { kind: 'word', index: argument !== undefined && /^-?\d+$/.test(argument) ? Number(argument) : Number.NaN };
    default:
      return null;
  }
}

/** What is wrong with a format, or null. Patterns may not hold | { } (they live inside {{name|spec}}). */
function problemWith(format: Format): string | null {
  if (format.kind === 'case') return (CASES as readonly string[]).includes(format.to) ? null : ALLOWED;
  if (format.kind === 'word') return Number.isSafeInteger(format.index) && format.index !== 0 ? null : WORD_RULE;
  if (format.kind === 'from') return format.given.pattern !== '' && givenProblem(format.given) === null ? null : FROM_RULE;
  if (format.kind === 'bool') return format.yes.trim() !== '' && format.no.trim() !== '' && format.yes !== format.no && !/[|{}]/.test(format.yes + format.no) ? null : BOOL_RULE;
  const pattern = format.pattern;
  if (/[|{}]/.test(pattern) || pattern.trim() !== pattern) return `${ruleFor(format.kind)}; | { } and surrounding spaces are not allowed`;
  return patternIsValid(format.kind, pattern) ? null : ruleFor(format.kind);
}

/** A reading of a given value: an amount may be given with its currency ($1,234.50 as $#,##0.##). */
function givenProblem(given: Extract<Format, { kind: 'from' }>['given']): string | null {
  if (given.kind !== 'number') return problemWith(given);
  return !/[|{}]/.test(given.pattern) && parseNumberPattern(given.pattern, true) !== null ? null : NUMBER_RULE;
}

function patternIsValid(kind: 'date' | 'time' | 'datetime' | 'number' | 'money' | 'phone', pattern: string): boolean {
  switch (kind) {
    case 'datetime': return splitDateTimePattern(pattern) !== null;
    case 'date': return datePieces(pattern) !== null;
    case 'time': return timePieces(pattern) !== null;
    case 'number': return parseNumberPattern(pattern, false) !== null;
    case 'money': return parseNumberPattern(pattern, true) !== null;
    case 'phone': return isPhonePattern(pattern);
  }
}

function ruleFor(kind: 'date' | 'time' | 'datetime' | 'number' | 'money' | 'phone'): string {
  switch (kind) {
    case 'datetime': return DATETIME_RULE;
    case 'date': return DATE_RULE;
    case 'time': return TIME_RULE;
    case 'number': return NUMBER_RULE;
    case 'money': return MONEY_RULE;
    case 'phone': return PHONE_RULE;
  }
}
