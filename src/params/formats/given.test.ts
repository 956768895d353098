import { describe, expect, it } from 'vitest';
import { BoundParams } from '../boundParams.js';
import { applyFormats, formatSpec, inferFormat, parseFormatSpec } from '../format.js';
import { bindParams } from '../params.js';
import { renderTemplate } from '../template.js';
import { givenReadings, readGiven } from './given.js';

function infer(value: string, text: string): string {
  const inference = inferFormat(value, text);
  switch (inference.kind) {
    case 'match': return `match ${formatSpec(inference.formats)}`;
    case 'ambiguous': return 'ambiguous';
    case 'none': return 'none';
  }
}

describe('values given in the user’s own format', () => {
  it.each([
    // What the field held or was typed, after the value was given so: the reading it proves.
    ['10/11/2011', '2011-10-11', 'from:date:MM/DD/YYYY', '3/15/2024', '2024-03-15'],
    ['15.01.2024', '2024-01-15', 'from:date:DD.MM.YYYY', '05.02.2023', '2023-02-05'],
    ['2024/01/15', '01/15/2024', 'from:date:YYYY/MM/DD|date:MM/DD/YYYY', '2023/12/02', '12/02/2023'],
    ['Jan 15, 2024', '2024-01-15', 'from:date:MMM D, YYYY', 'December 2, 2023', '2023-12-02'],
    ['10/11/2011', 'Oct 11, 2011', 'from:date:MM/DD/YYYY|date:MMM D, YYYY', '02/07/2024', 'Feb 7, 2024'],
    ['8:04 PM', '20:04', 'from:time:h:mm A', '10:56 AM', '10:56'],
    ['8:04 PM', '20:04', 'from:time:h:mm A', '12:05 am', '00:05'],
    ['1,234.50', '1234.50', 'from:number:#,##0.##', '12,000', '12000'],
  ])('%s that became %s reads as %s; %s becomes %s', (value, text, spec, next, expected) => {
    expect(infer(value, text)).toBe(`match ${spec}`);
    expect(applyFormats(next, parseFormatSpec(spec))).toBe(expected);
  });

  it('reads a value given as a date as a date only, not as the digits of a phone number', () => {
    // What a native date input holds after 2020/08/29 was typed into it as 08/29/2020.
    expect(infer('2020/08/29', '2020-08-29')).toBe('match from:date:YYYY/MM/DD');
    expect(infer('29.08.2020', '2020-08-29')).toBe('match from:date:DD.MM.YYYY');
    expect(infer('555-867-5309', '(555) 867-5309')).toBe('match phone:(###) ###-####');
  });

  it('keeps a text that reads month first and day first ambiguous', () => {
    expect(infer('05/06/2024', '2024-05-06')).toBe('match from:date:MM/DD/YYYY');
    expect(infer('05/06/2024', '2024-06-05')).toBe('match from:date:DD/MM/YYYY');
    expect(infer('05/05/2024', '2024-05-05')).toBe('ambiguous');
    expect(infer('10/11/2011', '11.10.2011')).toBe('ambiguous');
  });

  it('takes a value typed as given as itself, whatever it would read as', () => {
    expect(infer('10/11/2011', '10/11/2011')).toBe('match ');
  });

  it('reads a canonical value under any reading, and refuses what reads neither way', () => {
    const from = parseFormatSpec('from:date:MM/DD/YYYY');
    expect(applyFormats('2024-03-15', from)).toBe('2024-03-15');
    expect(applyFormats('15/03/2024', from)).toBeNull();
    expect(readGiven('13:00 PM', { kind: 'time', pattern: 'h:mm A' })).toBeNull();
    expect(readGiven('Smarch 3, 2024', { kind: 'date', pattern: 'MMM D, YYYY' })).toBeNull();
  });

  it('refuses a reading that is not first, or not a date, time or number', () => {
    expect(() => parseFormatSpec('date:MM/DD/YYYY|from:date:MM/DD/YYYY')).toThrow(/comes first/);
    expect(() => parseFormatSpec('from:upper')).toThrow(/from takes how the value is given/);
    expect(() => parseFormatSpec('bool:Yes')).toThrow(/bool takes the yes and the no word/);
  });

  it('renders a yes/no value given in any spelling as the words a field shows', () => {
    for (const yes of ['Yes', 'true', 'on', '1']) expect(renderTemplate('{{x|bool:Ja/Nein}}', BoundParams.of({ x: yes }))).toBe('Ja');
    for (const no of ['No', 'false', 'off', '0']) expect(renderTemplate('{{x|bool:Ja/Nein}}', BoundParams.of({ x: no }))).toBe('Nein');
  });
});

describe('a learned reading checks later values', () => {
  const schema = {
    date: { type: 'date' as const, optional: true, inferred: true, given: 'date:MM/DD/YYYY' },
    time: { type: 'time' as const, optional: true, inferred: true, given: 'time:h:mm A' },
    amount: { type: 'number' as const, optional: true, inferred: true, given: 'number:#,##0.##' },
    agree: { type: 'boolean' as const, optional: true, inferred: true },
  };

  it('keeps a value in the recording’s own format as given, and takes the canonical one too', () => {
    const params = bindParams({ date: '3/15/2024', time: '10:56 AM', amount: '12,000.5', agree: 'Yes' }, 'w', schema);
    expect(params.toRecord()).toEqual({ date: '3/15/2024', time: '10:56 AM', amount: '12,000.5', agree: 'Yes' });
    expect(bindParams({ date: '2024-03-15', time: '20:04', amount: 7 }, 'w', schema).toRecord()).toEqual({ date: '2024-03-15', time: '20:04', amount: '7' });
  });

  it('refuses a value it cannot read, naming the parameter, the value and the formats accepted, all at once', () => {
    expect(() => bindParams({ date: '15/03/2024', time: '25:00' }, 'rote.run("t")', schema)).toThrow(
      'rote.run("t"): 2 problems with params:\n' +
        '  - params.date must be a date as MM/DD/YYYY (e.g. "12/31/2024"), the way the recording was given it, or as YYYY-MM-DD, got "15/03/2024"\n' +
        '  - params.time must be a time as h:mm A (e.g. "8:04 PM"), the way the recording was given it, or as a 24-hour HH:MM, got "25:00"',
    );
  });

  it('refuses what the reading cannot tell or the type does not allow: a time without AM/PM, another currency, a third decimal', () => {
    const money = { price: { type: 'money' as const, optional: true, inferred: true, given: 'number:$#,##0.##' } };
    expect(bindParams({ price: '$12,000' }, 'w', money).get('price')).toBe('$12,000');
    expect(bindParams({ price: '12,000.5' }, 'w', money).get('price')).toBe('12,000.5');
    expect(() => bindParams({ price: '€1,000' }, 'w', money)).toThrow('params.price must be a money as $#,##0.## (e.g. "$1,234.5"), the way the recording was given it, or as a plain number (1234.5), got "€1,000"');
    expect(() => bindParams({ price: '1,234.567' }, 'w', money)).toThrow('params.price must be a money');
    // 8:04 under h:mm A could be morning or evening; 08:04 is the canonical 24-hour form.
    expect(() => bindParams({ time: '8:04' }, 'w', schema)).toThrow('params.time must be a time as h:mm A');
    expect(bindParams({ time: '08:04' }, 'w', schema).get('time')).toBe('08:04');
    expect(bindParams({ time: '20:04' }, 'w', schema).get('time')).toBe('20:04');
    for (const time of ['10:04', '11:30', '12:15']) expect(() => bindParams({ time }, 'w', schema)).toThrow('params.time must be a time as h:mm A');
  });

  it('learns the currency an amount was given in', () => {
    expect(givenReadings('$1,234.50', 'number')).toEqual([{ kind: 'number', pattern: '$#,##0.##' }]);
    expect(givenReadings('1,234.50', 'number')).toEqual([{ kind: 'number', pattern: '#,##0.##' }]);
  });
});
