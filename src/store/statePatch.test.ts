import { describe, expect, it } from 'vitest';
import { canonicalKey, legacyEndKey, MAX_LEARNED } from './learnedKeys.js';
import { importedState, parsedStateText, patchedState } from './statePatch.js';

const key = (value: string) => canonicalKey([], ['count'], { count: value });

describe('patchedState', () => {
  it('adds each learned item once and keeps the key order; the end URL is no part of the state (its own column)', () => {
    const stored = { ahead: [], alsoUnder: [key('a')], valueHashes: {} };
    const patched = patchedState(stored, { id: 'n', endUrl: '/done', state: { add: { alsoUnder: [key('a'), key('b')], endsUnder: [key('c')] } } });
    expect(patched).toEqual({ ahead: [], alsoUnder: [key('a'), key('b')], valueHashes: {}, endsUnder: [key('c')] });
    expect(Object.keys(patched!)).toEqual(['ahead', 'alsoUnder', 'valueHashes', 'endsUnder']);
  });

  it('changes nothing for a link without changes, or on a damaged state', () => {
    expect(patchedState({ a: 1 }, { id: 'n' })).toBeUndefined();
    expect(patchedState({ a: 1 }, { id: 'n', state: { add: { alsoUnder: [] } } })).toBeUndefined();
    // A state column that is not a JSON object stays as it is, so its node stays a miss that names itself.
    expect(patchedState(parsedStateText('{not json'), { id: 'n', state: { add: { alsoUnder: [key('a')] } } })).toBeUndefined();
    expect(patchedState([1, 2], { id: 'n', state: { add: { alsoUnder: [key('a')] } } })).toBeUndefined();
    expect(patchedState({ a: 1 }, { id: 'n', endUrl: '/x' })).toBeUndefined();
    expect(patchedState(undefined, { id: 'n', state: { add: { alsoUnder: [key('a')] } } })).toEqual({ alsoUnder: [key('a')] });
  });

  it('keeps at most 64 keys a list and never drops one it kept; the values a click sets are counted per parameter', () => {
    const many = Array.from({ length: MAX_LEARNED + 10 }, (_, i) => key(String(i)));
    const capped = patchedState({}, { id: 'n', state: { add: { alsoUnder: many } } })!;
    expect(capped.alsoUnder).toEqual(many.slice(0, MAX_LEARNED));
    // A full list learns nothing more: a key kept may be what makes a fork hand over.
    expect(patchedState(capped, { id: 'n', state: { add: { alsoUnder: [key('new')] } } })!.alsoUnder).toEqual(many.slice(0, MAX_LEARNED));

    const once = { param: 'month', hash: 'm1' };
    const counts = Array.from({ length: MAX_LEARNED + 5 }, (_, i) => ({ param: 'count', hash: `c${i}` }));
    const sets = patchedState({ setsValue: [once] }, { id: 'n', state: { add: { setsValue: counts } } })!.setsValue as unknown[];
    expect(sets).toContainEqual(once);
    expect(sets.filter((set) => (set as { param: string }).param === 'count')).toEqual(counts.slice(0, MAX_LEARNED));
  });
});

describe('importedState', () => {
  it("takes the file's state and keeps what runs learned since the file was written", () => {
    const file = { state: { ahead: [], label: 'edited', alsoUnder: [key('a')] }, endsRun: false };
    const stored = { state: { ahead: [], label: 'old', alsoUnder: [key('b')], setsValue: [{ param: 'count', hash: 'h' }] }, endsRun: false };
    expect(importedState(file, stored)).toEqual({ ahead: [], label: 'edited', alsoUnder: [key('a'), key('b')], setsValue: [{ param: 'count', hash: 'h' }] });
  });

  it('keeps an end learned under other values as an end for those values only', () => {
    // `count` is watched by a later step of the recording, not by this one: an old end here is for count "two" only.
    const recorded = { ahead: [], watchedAhead: ['count'], valueHashes: { count: 'two' } };
    expect(legacyEndKey(recorded)).toEqual({ ahead: [], valueHashes: { count: 'two' } });
    expect(legacyEndKey({ ...recorded, watches: [{ param: 'count', selector: '#c', label: 'count' }] })).toEqual(key('two'));
    // The file's node ended without keys (an older export): it ends for its recording's values.
    const file = { state: recorded, endsRun: true };
    const stored = { state: { ...recorded, endsUnder: [key('one')] }, endsRun: true };
    expect((importedState(file, stored) as { endsUnder: unknown[] }).endsUnder).toEqual([legacyEndKey(recorded), key('one')]);
    // The stored node ends and the file's does not: the stored end stays, with the values it stood for.
    const notEnding = importedState({ state: recorded, endsRun: false }, { state: recorded, endsRun: true }) as { endsUnder: unknown[] };
    expect(notEnding.endsUnder).toEqual([legacyEndKey(recorded)]);
  });

  it("leaves a damaged state on either side to the file's; an end whose values were lost fits no run", () => {
    expect(importedState({ state: 'oops', endsRun: false }, { state: { alsoUnder: [key('a')] }, endsRun: false })).toBe('oops');
    expect(importedState({ state: { a: 1 }, endsRun: false }, { state: 'oops', endsRun: false })).toEqual({ a: 1 });
    expect(importedState({ state: { a: 1 }, endsRun: false }, { state: 'oops', endsRun: true })).toEqual({ a: 1, endsUnder: [] });
    expect(importedState({ state: { a: 1 }, endsRun: true }, { state: 'oops', endsRun: true })).toEqual({ a: 1 });
  });
});
