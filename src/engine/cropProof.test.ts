import { describe, expect, it } from 'vitest';
import type { Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import { leanOnCrop, type LookedTarget } from './cropProof.js';

const box = { x: 100, y: 200, width: 300, height: 24 };
const looked: LookedTarget = { domNode: 42, box, documents: 1, window: 0, step: 3 };
const field = (changes: Partial<Target> = {}): Target => ({
  fingerprint: { role: 'textbox', name: 'Note', tag: 'input', inputType: 'text' },
  box,
  checked: null,
  hasText: false,
  disabled: false,
  showsValue: true,
  identity: {},
  ownText: '',
  roleOwn: true,
  domNode: 42,
  uncovered: true,
  ...changes,
});
const type: Action = { type: 'type', text: '{{note}}' };
const now = { documents: 1, window: 0 };

describe('leanOnCrop: a crop check answered by the step before', () => {
  it('stands for typing and keys into the same element, unmoved, with nothing over it', () => {
    expect(leanOnCrop(looked, type, field(), now)).toBe(looked);
    expect(leanOnCrop(looked, { type: 'keypress', keys: ['TAB'] }, field(), now)).toBe(looked);
  });

  it('never stands for a click: where it lands is its point', () => {
    expect(leanOnCrop(looked, { type: 'click', x: 110, y: 210, button: 'left' }, field(), now)).toBeUndefined();
  });

  it('not for another element, one whose node is unknown, or a new document or window', () => {
    expect(leanOnCrop(looked, type, field({ domNode: 43 }), now)).toBeUndefined();
    const { domNode: _unknown, ...noNode } = field();
    expect(leanOnCrop(looked, type, noNode, now)).toBeUndefined();
    expect(leanOnCrop(looked, type, field(), { documents: 2, window: 0 })).toBeUndefined();
    expect(leanOnCrop(looked, type, field(), { documents: 1, window: 1 })).toBeUndefined();
  });

  it('not when the element moved, something stands over its middle, or that cannot be told', () => {
    expect(leanOnCrop(looked, type, field({ box: { ...box, y: 201.5 } }), now)).toBeUndefined();
    expect(leanOnCrop(looked, type, field({ uncovered: false }), now)).toBeUndefined();
    expect(leanOnCrop(looked, type, field({ uncovered: null }), now)).toBeUndefined();
  });

  it('not without a step before that compared a crop', () => {
    expect(leanOnCrop(undefined, type, field(), now)).toBeUndefined();
  });
});
