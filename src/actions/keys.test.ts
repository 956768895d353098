import { describe, expect, it } from 'vitest';
import { actionSchema, describeAction, withPoint } from './action.js';
import { playwrightChord, playwrightKey } from './keys.js';

describe('keys', () => {
  it('maps computer-use key names, case-insensitively', () => {
    expect(playwrightChord(['CTRL', 'A'])).toBe('Control+a');
    expect(playwrightChord(['enter'])).toBe('Enter');
    expect(playwrightChord(['ArrowDown'])).toBe('ArrowDown');
    expect(playwrightChord(['SHIFT', 'TAB'])).toBe('Shift+Tab');
    expect(playwrightChord(['SPACE'])).toBe('Space');
    expect(playwrightKey('F5')).toBe('F5');
  });
  it('rejects a key it does not know, naming it', () => {
    expect(() => playwrightChord(['HYPER'])).toThrow('unknown key "HYPER"');
  });
});

describe('actions', () => {
  it('validates the closed union and defaults the click button', () => {
    expect(actionSchema.parse({ type: 'click', x: 1, y: 2 })).toEqual({ type: 'click', x: 1, y: 2, button: 'left' });
    expect(actionSchema.safeParse({ type: 'teleport' }).success).toBe(false);
    expect(actionSchema.safeParse({ type: 'click', x: -1, y: 2 }).success).toBe(false);
  });
  it('moves a drag as a whole', () => {
    const moved = withPoint({ type: 'drag', path: [{ x: 0, y: 0 }, { x: 10, y: 5 }] }, { x: 100, y: 100 });
    expect(moved).toEqual({ type: 'drag', path: [{ x: 100, y: 100 }, { x: 110, y: 105 }] });
    expect(describeAction({ type: 'keypress', keys: ['CTRL', 'S'] })).toBe('keypress CTRL+S');
  });
});
