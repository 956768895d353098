import type { Format } from '../format.js';
import { renderDate } from './date.js';
import { renderDateTime } from './datetime.js';
import { readGiven } from './given.js';
import { asBoolean } from '../fold.js';
import { renderNumber } from './number.js';
import { renderPhone } from './phone.js';
import { applyCase, wordOf } from './text.js';
import { renderTime } from './time.js';

/**
 * Renders a bound value through the formats, left to right. Null (never a throw) when the value
 * does not read as a format needs, or a format is malformed: the caller hands over instead of
 * typing something wrong.
 */
export function applyFormats(value: string, formats: readonly Format[]): string | null {
  let current: string | null = value;
  for (const format of formats) {
    if (current === null) return null;
    current = applyOne(current, format);
  }
  return current;
}

function applyOne(value: string, format: Format): string | null {
  switch (format.kind) {
    case 'date': return renderDate(value, format.pattern);
    case 'time': return renderTime(value, format.pattern);
    case 'datetime': return renderDateTime(value, format.pattern);
    case 'case': return applyCase(value, format.to);
    case 'number': return renderNumber(value, format.pattern, false);
    case 'money': return renderNumber(value, format.pattern, true);
    case 'phone': return renderPhone(value, format.pattern);
    case 'word': return wordOf(value, format.index);
    case 'from': return readGiven(value, format.given);
    case 'bool': {
      const yes = asBoolean(value);
      return yes === undefined ? null : yes ? format.yes : format.no;
    }
    default: return null;
  }
}
