import { describe, expect, it } from 'vitest';
import type { Action } from '../../actions/action.js';
import { dialogAnswerFrom } from './dialogAnswer.js';
import { dialogNote } from './prompt.js';

const type = (text: string): Action => ({ type: 'type', text });
const key = (...keys: string[]): Action => ({ type: 'keypress', keys });
const click: Action = { type: 'click', x: 10, y: 20, button: 'left' };

describe('dialogAnswerFrom: a model answers a native prompt with the keys a person would use', () => {
  it('typed text then Enter is OK with that text; what follows is done after', () => {
    expect(dialogAnswerFrom([key('CTRL', 'A'), type('Q3 '), type('figures'), key('ENTER'), click])).toEqual({ dialog: { accept: true, text: 'Q3 figures' }, rest: [click], decided: true, typed: 'Q3 figures' });
  });
  it('Enter alone sends the text the prompt offers; Escape cancels whatever was typed', () => {
    expect(dialogAnswerFrom([key('Return')]).dialog).toEqual({ accept: true });
    expect(dialogAnswerFrom([type('x'), key('esc')]).dialog).toEqual({ accept: false });
  });
  it('another action after typing answers OK with the typed text and is done after it', () => {
    expect(dialogAnswerFrom([type('abc'), click])).toEqual({ dialog: { accept: true, text: 'abc' }, rest: [click], decided: true, typed: 'abc' });
  });
  it('typing alone decides nothing yet, and is carried into the next answer', () => {
    const first = dialogAnswerFrom([type('Q3')]);
    expect(first.decided).toBe(false);
    expect(dialogAnswerFrom([type(' report'), key('ENTER')], first.typed).dialog).toEqual({ accept: true, text: 'Q3 report' });
  });
});

describe('dialogNote', () => {
  it('tells the model what the prompt asks, what it holds and how to answer, since no screenshot shows it', () => {
    const note = dialogNote({ type: 'prompt', message: 'New name?', defaultValue: 'Untitled' });
    expect(note).toContain('"New name?"');
    expect(note).toContain('"Untitled"');
    expect(note).toMatch(/press Enter.*Escape/s);
  });
});
