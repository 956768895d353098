import { describe, expect, it } from 'vitest';
import { canonicalJson, jsonProblem, mapStrings, stringsOf } from './jsonValues.js';

describe('jsonProblem', () => {
  it('accepts plain JSON and names where a value is not', () => {
    expect(jsonProblem({ a: [1, 'x', null, true, { b: {} }] })).toBeUndefined();
    expect(jsonProblem(undefined)).toBe('undefined at $');
    expect(jsonProblem({ a: [1, () => 2] })).toBe('a function at $.a[1]');
    expect(jsonProblem({ n: Number.NaN })).toBe('NaN at $.n');
    expect(jsonProblem({ when: new Date(0) })).toBe('a Date at $.when');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(jsonProblem(loop)).toBe('a circular reference at $.self');
    const shared = { x: 1 };
    expect(jsonProblem([shared, shared])).toBeUndefined();
  });
});

describe('mapStrings, stringsOf, canonicalJson', () => {
  it('maps every string, keys only when asked', () => {
    const value = { id: 'C-1', list: ['a', 2], pw: { hunter2: 'hunter2' } };
    const upper = (text: string) => text.toUpperCase();
    expect(mapStrings(value, upper)).toEqual({ id: 'C-1', list: ['A', 2], pw: { hunter2: 'HUNTER2' } });
    expect(mapStrings(value, upper, { keys: true })).toEqual({ ID: 'C-1', LIST: ['A', 2], PW: { HUNTER2: 'HUNTER2' } });
    expect(stringsOf(value)).toEqual(['C-1', 'a', 'hunter2']);
  });
  it('gives equal text for equal values whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: 'x' } })).toBe(canonicalJson({ a: { c: 'x', d: [1, { e: 2, f: 1 }] }, b: 1 }));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});

describe('mapStrings with numbers', () => {
  it('maps a number as its text and keeps it a number when the map leaves it alone', () => {
    const hide = (text: string) => text.split('4821').join('{{pin}}');
    expect(mapStrings({ pin: 4821, n: 7, k: { '4821': 'x' } }, hide, { keys: true, numbers: true })).toEqual({ pin: '{{pin}}', n: 7, k: { '{{pin}}': 'x' } });
    expect(mapStrings({ pin: 4821 }, hide)).toEqual({ pin: 4821 });
  });
});
