import { playwrightKey } from '../actions/keys.js';
import type { PersonAnswer } from './inputBatcher.js';

/**
 * The input the engine is about to send while it performs one answer. The page lets exactly this
 * through (each point once, the keys in this order) and keeps blocking and reporting everything
 * else, so input the person makes meanwhile is queued, not lost, and the engine's own input is
 * never recorded. The engine's input is as trusted as the person's (both come through the
 * browser's input pipeline), so what it will send is the way to tell them apart. Keys are matched
 * in order and case: a person typing on while the engine types passes only a key equal to the
 * engine's very next one, which then takes its place, so even that costs no character.
 */
export type Expectations = {
  /** Where a pointer press will start (click, double click, the first point of a drag). */
  points: { x: number; y: number }[];
  /** Where a wheel event will land. */
  wheels: { x: number; y: number }[];
  /** KeyboardEvent.key of each keydown, in order; `anyCase` for a chord's letter. Modifiers always pass. */
  keys: { key: string; anyCase?: true }[];
};

export const NO_EXPECTATIONS: Expectations = { points: [], wheels: [], keys: [] };

const MODIFIERS = new Set(['Control', 'Alt', 'Shift', 'Meta']);

/** Characters Playwright types with a key press (the US layout); others are inserted as text, with no keydown. */
const KEYED = /^[\x20-\x7e\n\t]$/;

export function expectationsFor(answer: PersonAnswer): Expectations {
  const expected: Expectations = { points: [], wheels: [], keys: [] };
  for (const action of answer.actions) {
    switch (action.type) {
      case 'click':
      case 'double_click':
        expected.points.push({ x: action.x, y: action.y });
        break;
      case 'drag':
        expected.points.push(action.path[0]!);
        break;
      case 'scroll':
        expected.wheels.push({ x: action.x, y: action.y });
        break;
      case 'type':
        // A select is set by its option (script, no keys): nothing to let through.
        if (answer.setsSelect) break;
        for (const character of action.text) {
          if (KEYED.test(character)) expected.keys.push({ key: character === '\n' ? 'Enter' : character === '\t' ? 'Tab' : character });
        }
        break;
      case 'keypress':
        for (const key of action.keys) {
          const name = playwrightKey(key);
          if (name !== undefined && !MODIFIERS.has(name)) expected.keys.push([...name].length === 1 ? { key: name, anyCase: true } : { key: name });
        }
        break;
      case 'move':
      case 'wait':
      case 'goto':
      case 'tool':
        break;
    }
  }
  return expected;
}
