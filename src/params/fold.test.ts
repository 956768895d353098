import { describe, expect, it } from 'vitest';
import { asBoolean, fold, foldedNamePattern } from './fold.js';

describe('fold', () => {
  it('ignores case and punctuation', () => {
    expect(fold('Part-time')).toBe(fold('part time'));
    expect(foldedNamePattern('part-time').test('Part time')).toBe(true);
    expect(foldedNamePattern('premium').test('Premium plan')).toBe(false);
  });
  it('reads yes/no values and nothing else', () => {
    expect(asBoolean('Yes')).toBe(true);
    expect(asBoolean('off')).toBe(false);
    expect(asBoolean('maybe')).toBeUndefined();
  });
});
