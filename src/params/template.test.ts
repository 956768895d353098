import { describe, expect, it } from 'vitest';
import { bindParams } from './params.js';
import { taskIdentity } from './taskKey.js';
import { missingNames, renderTemplate, templateNames, templatize } from './template.js';
import { normalizeUrl } from './url.js';

describe('templatize', () => {
  it('turns text equal to a value into its name', () => {
    expect(templatize('Ada', { first: 'Ada', last: 'Lovelace' })).toEqual({ template: '{{first}}', ambiguous: [] });
  });
  it('replaces whole words and keeps the rest literal', () => {
    expect(templatize('Ada Lovelace, London', { first: 'Ada', last: 'Lovelace' }).template).toBe('{{first}} {{last}}, London');
  });
  it('does not replace a value inside a longer word', () => {
    expect(templatize('Adams', { first: 'Ada' }).template).toBe('Adams');
  });
  it('keeps equal values of several parameters as an ambiguity', () => {
    expect(templatize('42', { a: '42', b: '42' })).toEqual({ template: '{{a}}', ambiguous: [['a', 'b']] });
  });
  it('ignores empty values', () => {
    expect(templatize('', { empty: '' }).template).toBe('');
  });
  it('replaces short values only when they are the whole text', () => {
    expect(templatize('2', { n: '2' }).template).toBe('{{n}}');
    expect(templatize('Apt 2', { n: '2' }).template).toBe('Apt 2');
  });
});

describe('templates', () => {
  it('lists names once, in order', () => {
    expect(templateNames('{{b}} {{ a }} {{b}}')).toEqual(['b', 'a']);
  });
  it('renders and reports missing names', () => {
    expect(renderTemplate('Hi {{name}}!', { name: 'Ada' })).toBe('Hi Ada!');
    expect(missingNames('{{a}} {{b}}', { a: '1' })).toEqual(['b']);
    expect(() => renderTemplate('{{x}}', {})).toThrow(/names \{\{x\}\}/);
  });
});

describe('bindParams', () => {
  it('renders numbers and booleans as text', () => {
    expect(bindParams({ n: 3, yes: true, s: 'x' }, 'here')).toEqual({ n: '3', yes: 'true', s: 'x' });
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
    const one = taskIdentity('Register Ada Lovelace', { first: 'Ada', last: 'Lovelace' }, [], start, 'w');
    const two = taskIdentity('Register Alan Turing', { first: 'Alan', last: 'Turing' }, [], start, 'w');
    expect(one.template).toBe('Register {{first}} {{last}}');
    expect(one.key).toBe(two.key);
  });
  it('keeps an ordinal that is not a parameter in the key', () => {
    const second = taskIdentity('select the 2nd option', {}, [], start, 'w');
    const third = taskIdentity('select the 3rd option', {}, [], start, 'w');
    expect(second.key).not.toBe(third.key);
  });
  it('includes tags (order-free) and the start URL', () => {
    const base = taskIdentity('t', {}, ['a', 'b'], start, 'w');
    expect(taskIdentity('t', {}, ['b', 'a'], start, 'w').key).toBe(base.key);
    expect(taskIdentity('t', {}, ['a'], start, 'w').key).not.toBe(base.key);
    expect(taskIdentity('t', {}, ['a', 'b'], 'http://127.0.0.1:3000/other', 'w').key).not.toBe(base.key);
  });
  it('rejects a template naming a parameter that was not given', () => {
    expect(() => taskIdentity('Log in as {{user}}', {}, [], start, 'rote.run("x")')).toThrow('rote.run("x"): the task names {{user}}, but params has no user (given: none)');
  });
});

describe('normalizeUrl', () => {
  it('sorts the query and drops the fragment', () => {
    expect(normalizeUrl('http://h/p?b=two&a=one#x')).toBe('http://h/p?a=one&b=two');
  });
  it('generalizes record ids and parameter values, so another record is the same task', () => {
    expect(normalizeUrl('http://h/patients/42/intake?ref=Ada%20L', { name: 'Ada L' })).toBe('http://h/patients/:id/intake?ref={{name}}');
    expect(normalizeUrl('about:blank')).toBe('about:blank');
  });
});
