import { describe, expect, it } from 'vitest';
import { BoundParams } from './boundParams.js';
import { bindParams } from './params.js';
import { taskIdentity } from './taskKey.js';
import { missingNames, renderKnown, renderTemplate, templateNames, templatize } from './template.js';
import { normalizeUrl } from './url.js';
import { applyFormats, parseFormatSpec } from './format.js';

describe('templatize', () => {
  it('turns text equal to a value into its name', () => {
    expect(templatize('Ada', BoundParams.of({ first: 'Ada', last: 'Lovelace' }))).toEqual({ template: '{{first}}', ambiguous: [], literal: [], secretsFound: [], pieceOf: [] });
  });
  it('replaces whole words and keeps the rest literal', () => {
    expect(templatize('Ada Lovelace, London', BoundParams.of({ first: 'Ada', last: 'Lovelace' })).template).toBe('{{first}} {{last}}, London');
  });
  it('does not replace a value inside a longer word', () => {
    expect(templatize('Adams', BoundParams.of({ first: 'Ada' })).template).toBe('Adams');
  });
  it('keeps equal values of several parameters as an ambiguity', () => {
    expect(templatize('42', BoundParams.of({ a: '42', b: '42' }))).toEqual({ template: '{{a}}', ambiguous: [['a', 'b']], literal: [], secretsFound: [], pieceOf: [] });
  });
  it('ignores empty values', () => {
    expect(templatize('', BoundParams.of({ empty: '' })).template).toBe('');
  });
  it('replaces short values only when they are the whole text', () => {
    expect(templatize('2', BoundParams.of({ n: '2' })).template).toBe('{{n}}');
    expect(templatize('Apt 2', BoundParams.of({ n: '2' })).template).toBe('Apt 2');
  });
});

describe('templates', () => {
  it('lists names once, in order', () => {
    expect(templateNames('{{b}} {{ a }} {{b}}')).toEqual(['b', 'a']);
  });
  it('renders and reports missing names', () => {
    expect(renderTemplate('Hi {{name}}!', BoundParams.of({ name: 'Ada' }))).toBe('Hi Ada!');
    expect(missingNames('{{a}} {{b}}', BoundParams.of({ a: '1' }))).toEqual(['b']);
    expect(() => renderTemplate('{{x}}', BoundParams.of({}))).toThrow(/names \{\{x\}\}/);
  });
});

describe('bindParams', () => {
  it('renders numbers and booleans as text', () => {
    expect(bindParams({ n: 3, yes: true, s: 'x' }, 'here').toRecord()).toEqual({ n: '3', yes: 'true', s: 'x' });
  });
  it('names the parameter, the value and what was expected', () => {
    expect(() => bindParams({ when: { day: 1 } }, 'rote.run("t")')).toThrow('rote.run("t"): params.when must be a string, number or boolean, got an object');
    expect(() => bindParams({ n: Number.NaN }, 'w')).toThrow('w: params.n must be a finite number, got NaN');
    expect(() => bindParams({ 'bad name': 'x' }, 'w')).toThrow(/parameter name "bad name" is not valid/);
    expect(() => bindParams([1], 'w')).toThrow('w: params must be an object of name -> string | number | boolean, got an array');
  });
});

describe('taskIdentity', () => {
  const start = 'http://127.0.0.1:3000/form?b=2&a=1#top';
  it('gives the same key for new values of the same task', () => {
    const one = taskIdentity('Register Ada Lovelace', BoundParams.of({ first: 'Ada', last: 'Lovelace' }), [], start, 'w');
    const two = taskIdentity('Register Alan Turing', BoundParams.of({ first: 'Alan', last: 'Turing' }), [], start, 'w');
    expect(one.template).toBe('Register {{first}} {{last}}');
    expect(one.key).toBe(two.key);
  });
  it('keeps an ordinal that is not a parameter in the key', () => {
    const second = taskIdentity('select the 2nd option', BoundParams.of({}), [], start, 'w');
    const third = taskIdentity('select the 3rd option', BoundParams.of({}), [], start, 'w');
    expect(second.key).not.toBe(third.key);
  });
  it('includes tags (order-free) and the start URL', () => {
    const base = taskIdentity('t', BoundParams.of({}), ['a', 'b'], start, 'w');
    expect(taskIdentity('t', BoundParams.of({}), ['b', 'a'], start, 'w').key).toBe(base.key);
    expect(taskIdentity('t', BoundParams.of({}), ['a'], start, 'w').key).not.toBe(base.key);
    expect(taskIdentity('t', BoundParams.of({}), ['a', 'b'], 'http://127.0.0.1:3000/other', 'w').key).not.toBe(base.key);
  });
  it('rejects a template naming a parameter that was not given', () => {
    expect(() => taskIdentity('Log in as {{user}}', BoundParams.of({}), [], start, 'rote.run("x")')).toThrow('rote.run("x"): the task names {{user}}, but params has no user (given: none)');
  });
});

describe('a text that reads a value more than one way', () => {
  it('stays literal and keeps each reading, for a later value to decide', () => {
    const result = templatize('2024-05-05', BoundParams.of({ dob: '05/05/2024' }), 'text', 'date');
    expect(result.template).toBe('2024-05-05');
    expect(result.literal).toEqual(['dob']);
    expect(result.readings).toEqual({ param: 'dob', formats: ['from:date:MM/DD/YYYY', 'from:date:DD/MM/YYYY'] });
    // A value both read, but to other dates, decides nothing; one only month first reads decides.
    expect(result.readings!.formats.map((spec) => applyFormats('06/07/2024', parseFormatSpec(spec)))).toEqual(['2024-06-07', '2024-07-06']);
    expect(result.readings!.formats.map((spec) => applyFormats('06/17/2024', parseFormatSpec(spec)))).toEqual(['2024-06-17', null]);
  });
});

describe('normalizeUrl', () => {
  it('sorts the query and drops the fragment', () => {
    expect(normalizeUrl('http://h/p?b=two&a=one#x')).toBe('http://h/p?a=one&b=two');
  });
  it('generalizes record ids and parameter values, so another record is the same task', () => {
    expect(normalizeUrl('http://h/patients/42/intake?ref=Ada%20L', BoundParams.of({ name: 'Ada L' }))).toBe('http://h/patients/:id/intake?ref={{name}}');
    expect(normalizeUrl('about:blank')).toBe('about:blank');
  });
  it('generalizes a search kept inside a query value, so the edit page of another search is the same task', () => {
    const fletcher = normalizeUrl('http://h/admin/c/42/change/?_changelist_filters=q%3DFletcher%26o%3Dname', BoundParams.of({ name: 'Fletcher' }));
    const rowland = normalizeUrl('http://h/admin/c/7/change/?_changelist_filters=o%3Dname%26q%3DRowland', BoundParams.of({ name: 'Rowland' }));
    expect(fletcher).toBe('http://h/admin/c/:id/change/?_changelist_filters=o=name&q={{name}}');
    expect(rowland).toBe(fletcher);
  });
});

describe('templatize with formats', () => {
  it('stores a date typed in another format with its format, and renders a new value the same way', () => {
    const { template } = templatize('04/01/1990', BoundParams.of({ dob: '1990-04-01' }));
    expect(template).toBe('{{dob|date:MM/DD/YYYY}}');
    expect(renderTemplate(template, BoundParams.of({ dob: '2003-11-25' }))).toBe('11/25/2003');
  });
  it('keeps an unsure rendering literal and names its parameter', () => {
    expect(templatize('01/01/2001', BoundParams.of({ dob: '2001-01-01' }))).toEqual({ template: '01/01/2001', ambiguous: [], literal: ['dob'], secretsFound: [], pieceOf: [], readings: { param: 'dob', formats: ['date:MM/DD/YYYY', 'date:DD/MM/YYYY'] } });
  });
  it('finds a rendering inside a longer text, and shields an unsure one from shorter renderings', () => {
    expect(templatize('Born April 1, 1990 in Ohio', BoundParams.of({ dob: '1990-04-01' })).template).toBe('Born {{dob|date:MMMM D, YYYY}} in Ohio');
    const unsure = templatize('DOB 01/01/2001', BoundParams.of({ dob: '2001-01-01' }));
    expect(unsure.template).toBe('DOB 01/01/2001');
    expect(unsure.literal).toEqual(['dob']);
  });
  it('prefers a value typed as given over a derivation of another parameter', () => {
    expect(templatize('John', BoundParams.of({ first: 'John', fullName: 'John Smith' })).template).toBe('{{first}}');
    expect(templatize('John', BoundParams.of({ fullName: 'John Smith' })).template).toBe('{{fullName|word:1}}');
  });
  it('keeps literal a text that two parameters could each have produced in another way', () => {
    // A number that looks like a year, and a date whose year it is.
    const params = BoundParams.of({ amount: '2020', since: '2020-05-06' });
    expect(templatize('2,020', params).template).toBe('{{amount|number:#,##0}}');
    expect(templatize('05/06/2020', params).template).toBe('{{since|date:MM/DD/YYYY}}');
  });
  it('renders a 12-hour time and fails loudly on a value that cannot be rendered', () => {
    const { template } = templatize('8:04 PM', BoundParams.of({ at: '20:04' }));
    expect(template).toBe('{{at|time:h:mm A}}');
    expect(renderTemplate(template, BoundParams.of({ at: '09:05' }))).toBe('9:05 AM');
    expect(() => renderTemplate(template, BoundParams.of({ at: 'soon' }))).toThrow('{{at|time:h:mm A}}: its value "soon" cannot be rendered as time:h:mm A');
  });
  it('leaves unknown placeholders and bad formats alone when rendering what an agent typed', () => {
    expect(renderKnown('{{x}} {{at|time:h:mm A}}', BoundParams.of({ at: '13:00' }))).toBe('{{x}} 1:00 PM');
  });
});

describe('value salt', () => {
  it('is the same task on another host, so recorded value hashes survive an import there; the key is not', () => {
    const here = taskIdentity('Register {{name}}', BoundParams.of({ name: 'Ann' }), ['a'], 'http://127.0.0.1:4000/intake?id=7', 'w');
    const there = taskIdentity('Register {{name}}', BoundParams.of({ name: 'Bob' }), ['a'], 'https://staging.example.test/intake?id=9', 'w');
    expect(there.valueSalt).toBe(here.valueSalt);
    expect(there.key).not.toBe(here.key);
    expect(taskIdentity('Register {{name}}', BoundParams.of({ name: 'Ann' }), ['b'], 'http://127.0.0.1:4000/intake', 'w').valueSalt).not.toBe(here.valueSalt);
  });
});

describe('templatize guards', () => {
  it('does not take a number out of a longer number', () => {
    expect(templatize('Pay 1234.56 now', BoundParams.of({ n: '1234' })).template).toBe('Pay 1234.56 now');
    expect(templatize('Invoice 2024-0117', BoundParams.of({ d: '2024-01-05' })).template).toBe('Invoice 2024-0117');
  });
  it('keeps a short value or a case change inside a longer text literal, and guarded', () => {
    expect(templatize('Qty 12 please', BoundParams.of({ n: '12' }))).toEqual({ template: 'Qty 12 please', ambiguous: [], literal: ['n'], secretsFound: [], pieceOf: [] });
    expect(templatize('Ship to JOHN SMITH now', BoundParams.of({ name: 'John Smith' }))).toEqual({ template: 'Ship to JOHN SMITH now', ambiguous: [], literal: ['name'], secretsFound: [], pieceOf: [] });
  });
});

describe('templatize: a piece of a value on its own', () => {
  it('stays literal and names the value, so another value hands over instead of keeping the old piece', () => {
    const params = BoundParams.of({ dob: '2011-10-11', at: '8:04 PM' });
    // A day is a weak piece: guarded only where the run asks the date in pieces (see pieceGuards).
    expect(templatize('11', params)).toEqual({ template: '11', ambiguous: [], literal: [], secretsFound: [], pieceOf: ['dob'] });
    expect(templatize('October', params)).toEqual({ template: 'October', ambiguous: [], literal: ['dob'], secretsFound: [], pieceOf: ['dob'] });
    expect(templatize('2011', params).template).toBe('{{dob|date:YYYY}}');
    // A word of a time is no template: the next time's first word is another piece (14:30 has one word).
    expect(templatize('8:04', params)).toEqual({ template: '8:04', ambiguous: [], literal: ['at'], secretsFound: [], pieceOf: [] });
    expect(templatize('Ada', BoundParams.of({ name: 'Ada Lovelace' })).template).toBe('{{name|word:1}}');
  });
});
