import { describe, expect, it } from 'vitest';
import { applyFormats, formatSpec, inferFormat, type ParamKind } from './format.js';

/** The inference as one readable string: 'match date:MM/DD/YYYY', 'ambiguous a / b', 'none'. */
function infer(value: string, text: string, kind?: ParamKind): string {
  const inference = inferFormat(value, text, kind);
  switch (inference.kind) {
    case 'match': return `match ${formatSpec(inference.formats)}`.trim();
    case 'ambiguous': return `ambiguous ${inference.readings.map((reading) => formatSpec(reading)).join(' / ')}`;
    case 'none': return 'none';
  }
}

/** Infers how `text` renders `value`, then renders `next` the same way (what replay types). */
function replay(value: string, text: string, next: string, kind?: ParamKind): string | null {
  const inference = inferFormat(value, text, kind);
  if (inference.kind !== 'match') throw new Error(`expected a match for ${text}, got ${inference.kind}`);
  return applyFormats(next, inference.formats);
}

describe('dates', () => {
  it.each([
    ['1990-04-01', '04/01/1990', 'date:MM/DD/YYYY', '2024-12-31', '12/31/2024'],
    ['1990-04-01', '4/1/1990', 'date:M/D/YYYY', '2024-02-07', '2/7/2024'],
    ['1990-04-01', '01.04.1990', 'date:DD.MM.YYYY', '2024-02-07', '07.02.2024'],
    ['1990-04-01', '1/4/1990', 'date:D/M/YYYY', '2024-02-17', '17/2/2024'],
    ['1990-04-01', 'April 1, 1990', 'date:MMMM D, YYYY', '2024-12-31', 'December 31, 2024'],
    ['1990-04-01', 'Apr 1, 1990', 'date:MMM D, YYYY', '2024-12-31', 'Dec 31, 2024'],
    ['1990-04-01', '1 April 1990', 'date:D MMMM YYYY', '2024-02-07', '7 February 2024'],
    ['1990-04-01', '01-APR-1990', 'date:DD-MMM-YYYY|upper', '2024-02-07', '07-FEB-2024'],
    ['1990-04-01', '1990/04/01', 'date:YYYY/MM/DD', '2024-02-07', '2024/02/07'],
    ['1990-04-01', '04-01-1990', 'date:MM-DD-YYYY', '2024-02-07', '02-07-2024'],
    ['1990-04-01', '04/01/90', 'date:MM/DD/YY', '2005-02-07', '02/07/05'],
    ['1990-04-01', '04011990', 'date:MMDDYYYY', '2024-02-07', '02072024'],
    ['1990-04-13', '13041990', 'date:DDMMYYYY', '2024-02-07', '07022024'],
    ['1990-04-01', '1990', 'date:YYYY', '2024-02-07', '2024'],
    ['2027-09-30', '09/2027', 'date:MM/YYYY', '2031-01-31', '01/2031'],
    ['2027-09-30', '09/27', 'date:MM/YY', '2031-01-31', '01/31'],
  ])('%s typed %s is %s; replay of %s types %s', (value, text, spec, next, expected) => {
    expect(infer(value, text, 'date')).toBe(`match ${spec}`);
    expect(infer(value, text)).toBe(`match ${spec}`);
    expect(replay(value, text, next)).toBe(expected);
  });

  it('keeps a text that reads both month-first and day-first ambiguous', () => {
    expect(infer('2001-01-01', '01/01/2001')).toBe('ambiguous date:MM/DD/YYYY / date:DD/MM/YYYY');
    expect(infer('2001-01-01', '01/01')).toBe('ambiguous date:MM/YY / date:MM/DD / date:DD/MM');
  });

  it('matches month-first when day-first would render another text', () => {
    expect(infer('2001-01-02', '01/02/2001')).toBe('match date:MM/DD/YYYY');
    expect(infer('2001-01-13', '13/01/2001')).toBe('match date:DD/MM/YYYY');
  });

  it('collapses readings that differ only in zero padding to the padded pattern', () => {
    expect(infer('2001-11-25', '11/25/2001')).toBe('match date:MM/DD/YYYY');
    expect(replay('2001-11-25', '11/25/2001', '2001-02-07')).toBe('02/07/2001');
    expect(infer('1990-04-15', '15 Apr 1990')).toBe('match date:DD MMM YYYY');
  });

  it('keeps full and short month names apart when the month is May', () => {
    expect(infer('1990-05-01', 'May 1, 1990')).toBe('ambiguous date:MMMM D, YYYY / date:MMM D, YYYY');
  });

  it('reads an ISO value as a date only, not as phone digits', () => {
    expect(infer('1990-04-01', '1990.04.01')).toBe('match date:YYYY.MM.DD');
  });

  it('finds nothing for a text that is another date or not a date', () => {
    expect(infer('1990-04-01', '04/02/1990', 'date')).toBe('none');
    expect(infer('1990-04-01', 'soon', 'date')).toBe('none');
  });
});

describe('times', () => {
  it.each([
    ['20:04', '8:04 PM', 'time:h:mm A', '09:30', '9:30 AM'],
    ['20:04', '08:04 pm', 'time:hh:mm a', '09:30', '09:30 am'],
    ['20:04', '8:04pm', 'time:h:mma', '00:05', '12:05am'],
    ['09:05', '9:05', 'time:H:mm', '20:45', '20:45'],
    ['20:04', '20:04:00', 'time:HH:mm:ss', '07:08:09', '07:08:09'],
    ['20:00', '8 PM', 'time:h A', '09:00', '9 AM'],
    ['00:30', '12:30 AM', 'time:hh:mm A', '12:15', '12:15 PM'],
    ['20:04', '2004', 'time:HHmm', '07:08', '0708'],
  ])('%s typed %s is %s; replay of %s types %s', (value, text, spec, next, expected) => {
    expect(infer(value, text, 'time')).toBe(`match ${spec}`);
    expect(replay(value, text, next, 'time')).toBe(expected);
  });

  it('collapses 24-hour readings that differ only in padding', () => {
    expect(infer('20:04', '20:04:00')).toBe('match time:HH:mm:ss');
    expect(infer('12:15', '12:15', 'time')).toBe('match');
    expect(infer('12:15:00', '12:15', 'time')).toBe('match time:HH:mm');
  });

  it('never infers a pattern that drops minutes or seconds the value has', () => {
    expect(infer('20:30', '8 PM', 'time')).toBe('none');
    expect(infer('20:04:30', '20:04', 'time')).toBe('none');
  });
});

describe('text', () => {
  it('treats text equal to the value as the value itself, before any case', () => {
    expect(infer('CA', 'CA')).toBe('match');
    expect(infer('CA', 'CA', 'enum')).toBe('match');
  });

  it.each([
    ['ca', 'CA', 'upper', 'ny', 'NY'],
    ['Ada@Example.com', 'ada@example.com', 'lower', 'Bob@X.org', 'bob@x.org'],
    ['john smith', 'John Smith', 'title', "mary lee-smith", 'Mary Lee-Smith'],
    // Title case leaves the rest of each word alone: a new name keeps its own capitals.
    ['mary lee', 'Mary Lee', 'title', 'ann McDonald', 'Ann McDonald'],
    ['John Smith', 'John', 'word:1', 'Ada Lovelace', 'Ada'],
    ['John Smith', 'Smith', 'word:-1', 'Ada King Lovelace', 'Lovelace'],
    ['Mary Ann Lee', 'Lee', 'word:-1', 'Bob Ray', 'Ray'],
    ['Mary Ann Lee', 'Mary', 'word:1', 'Bob Ray', 'Bob'],
    ['John Smith', 'SMITH', 'word:-1|upper', 'Ada Lovelace', 'LOVELACE'],
    ['john smith', 'John', 'word:1|title', 'ada lovelace', 'Ada'],
  ])('%s typed %s is %s; replay of %s types %s', (value, text, spec, next, expected) => {
    expect(infer(value, text, 'string')).toBe(`match ${spec}`);
    expect(replay(value, text, next)).toBe(expected);
  });

  it('keeps a word that occurs twice, or a middle word, ambiguous', () => {
    expect(infer('Anna Anna', 'Anna')).toBe('ambiguous word:1 / word:-1');
    expect(infer('Anna Anna', 'ANNA')).toBe('ambiguous word:1|upper / word:-1|upper');
    expect(infer('Mary Ann Lee', 'Ann')).toBe('ambiguous word:2 / word:-2');
  });

  it('never splits a one-word value into words', () => {
    expect(infer('Cher', 'Ch')).toBe('none');
    expect(infer('a', 'A')).toBe('ambiguous upper / title');
  });

  it('lets booleans and secrets be typed only as they are', () => {
    expect(infer('true', 'TRUE', 'boolean')).toBe('none');
    expect(infer('hunter2', 'HUNTER2', 'secret')).toBe('none');
    expect(infer('1990-04-01', '04/01/1990', 'string')).toBe('none');
  });
});
