import { describe, expect, it } from 'vitest';
import { pointerAfter } from '../actions/action.js';
import { checkPauses, pausesOf } from './personOptions.js';

describe("the recorder's pauses", () => {
  it('default to 1 s of typing, 4 s mid-value and 300 ms for a gesture, and take what is given', () => {
    expect(pausesOf({})).toEqual({ typingPauseMs: 1000, midValuePauseMs: 4000, gesturePauseMs: 300 });
    expect(pausesOf({ typingPauseMs: 250 }).typingPauseMs).toBe(250);
  });

  it('refuse a pause that is not a whole number of milliseconds from 1 up, naming the option and the value', () => {
    expect(() => checkPauses({ typingPauseMs: 0 })).toThrow('PersonAgent.attach: options.typingPauseMs must be a whole number of milliseconds from 1 up, got 0');
    expect(() => checkPauses({ gesturePauseMs: 2.5 })).toThrow('options.gesturePauseMs must be a whole number of milliseconds from 1 up, got 2.5');
    expect(() => checkPauses({ typingPauseMs: 1, midValuePauseMs: 5000, gesturePauseMs: 300 })).not.toThrow();
  });
});

describe('where the pointer rests after an action', () => {
  const before = { x: 7, y: 9 };
  it('at a point action, at the end of a drag, and where it was for typing, keys and waits', () => {
    expect(pointerAfter({ type: 'click', x: 10, y: 20, button: 'left' }, before)).toEqual({ x: 10, y: 20 });
    expect(pointerAfter({ type: 'drag', path: [{ x: 1, y: 1 }, { x: 50, y: 60 }] }, before)).toEqual({ x: 50, y: 60 });
    expect(pointerAfter({ type: 'type', text: 'abc' }, before)).toBe(before);
    expect(pointerAfter({ type: 'wait', ms: 100 }, before)).toBe(before);
  });
});
