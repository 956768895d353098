import { describe, expect, it } from 'vitest';
import type { TargetInfo } from './capturedInput.js';
import { expectationsFor } from './expectedInput.js';
import { chordOf, InputBatcher, type PersonAnswer, type PersonInput } from './inputBatcher.js';

const target = (over: Partial<TargetInfo> = {}): TargetInfo => ({ tag: 'input', type: 'text', role: 'textbox', name: 'First name', checked: null, editable: true, multiline: false, secret: false, ...over });
const body = target({ tag: 'body', type: null, role: 'generic', name: '', editable: false });
const notes = target({ tag: 'textarea', type: null, name: 'Notes', multiline: true });
const save = target({ type: 'submit', role: 'button', name: 'Save', editable: false });
const key = (k: string, on: TargetInfo = target(), mods: Partial<Record<'ctrl' | 'alt' | 'meta' | 'shift', boolean>> = {}): PersonInput => ({ kind: 'key', key: k, ctrl: false, alt: false, meta: false, shift: false, ...mods, target: on });
const click = (x: number, y: number, on: TargetInfo): PersonInput => ({ kind: 'click', x, y, button: 'left', target: on });

function feed(batcher: InputBatcher, inputs: PersonInput[]): PersonAnswer[] {
  return inputs.flatMap((input) => batcher.push(input).answers);
}

describe('InputBatcher', () => {
  it('gathers printable keys into one type step, ended by a click, with intents from the targets', () => {
    const batcher = new InputBatcher();
    const answers = feed(batcher, [click(100, 50, target()), ...[...'Ada'].map((c) => key(c)), click(200, 300.123, save)]);
    expect(answers).toEqual([
      { actions: [{ type: 'click', x: 100, y: 50, button: 'left' }], intent: 'Click "First name"' },
      { actions: [{ type: 'type', text: 'Ada' }], intent: 'Type into "First name"' },
      { actions: [{ type: 'click', x: 200, y: 300.12, button: 'left' }], intent: 'Click "Save"' },
    ]);
    expect(batcher.pendingKind).toBeUndefined();
  });

  it('types into what was clicked, though the page still has the focus elsewhere (the click is not performed yet)', () => {
    const batcher = new InputBatcher();
    const answers = feed(batcher, [click(10, 10, target({ name: 'Last name' })), key('L', body), key('i', body)]);
    expect(answers).toHaveLength(1);
    expect(batcher.flush()).toEqual([{ actions: [{ type: 'type', text: 'Li' }], intent: 'Type into "Last name"' }]);
    // Once every answer is performed, the page's focus is current again.
    batcher.performed();
    expect(feed(batcher, [key('j', body)])).toEqual([{ actions: [{ type: 'keypress', keys: ['J'] }], intent: 'Press J' }]);
  });

  it('a key that reached the page in place of the engine\'s equal one goes back where the person typed it', () => {
    const batcher = new InputBatcher();
    feed(batcher, [key('d'), key('a'), { ...key('A'), back: 2 } as PersonInput]);
    expect(batcher.pendingText?.text).toBe('Ada');
  });

  it('Backspace edits the gathered text; with nothing gathered it is a key', () => {
    const batcher = new InputBatcher();
    const answers = feed(batcher, [key('L'), key('x'), key('Backspace'), key('i'), key('Backspace'), key('Backspace')]);
    expect(answers).toEqual([]);
    expect(batcher.flush()).toEqual([]);
    expect(feed(batcher, [key('Backspace')])).toEqual([{ actions: [{ type: 'keypress', keys: ['BACKSPACE'] }], intent: 'Press Backspace in "First name"' }]);
  });

  it('a non-printable key ends the typing and is its own step; Enter in a textarea is a new line', () => {
    const batcher = new InputBatcher();
    expect(feed(batcher, [key('a'), key('Tab', target(), { shift: true })])).toEqual([
      { actions: [{ type: 'type', text: 'a' }], intent: 'Type into "First name"' },
      { actions: [{ type: 'keypress', keys: ['SHIFT', 'TAB'] }], intent: 'Press Shift+Tab in "First name"' },
    ]);
    expect(feed(batcher, [key('x', notes), key('Enter', notes), key('y', notes), key('Enter', notes, { ctrl: true })])).toEqual([
      { actions: [{ type: 'type', text: 'x\ny' }], intent: 'Type into "Notes"' },
      { actions: [{ type: 'keypress', keys: ['CTRL', 'ENTER'] }], intent: 'Press Ctrl+Enter in "Notes"' },
    ]);
  });

  it('a paste joins the typing; a key rote cannot name is dropped with a notice', () => {
    const batcher = new InputBatcher();
    expect(feed(batcher, [key('A'), { kind: 'paste', text: 'da Lovelace', target: target() }])).toEqual([]);
    expect(batcher.flush()[0]!.actions).toEqual([{ type: 'type', text: 'Ada Lovelace' }]);
    expect(batcher.push({ kind: 'paste', text: 'x', target: body })).toEqual({ answers: [], notice: 'a paste outside a text field was not recorded' });
    expect(batcher.push(key('AudioVolumeUp', body))).toEqual({ answers: [], notice: 'the key "AudioVolumeUp" is not recorded' });
  });

  it('wheel events of one gesture are one scroll', () => {
    const batcher = new InputBatcher();
    const wheel = (dy: number): PersonInput => ({ kind: 'wheel', x: 640, y: 400, dx: 0, dy, target: body });
    expect(feed(batcher, [wheel(100), wheel(100), wheel(33.4)])).toEqual([]);
    expect(feed(batcher, [click(1, 2, save)])[0]).toEqual({ actions: [{ type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 233 }], intent: 'Scroll down' });
  });

  it("a select's changes are one choice of its last option, with a click first when the select is not focused", () => {
    const state = target({ tag: 'select', type: null, role: 'combobox', name: 'State', editable: false });
    const change = (label: string, focused: boolean): PersonInput => ({ kind: 'select', x: 300, y: 240, label, focused, target: state });
    const batcher = new InputBatcher();
    expect(feed(batcher, [change('Arizona', true), change('California', true)])).toEqual([]);
    expect(batcher.flush()).toEqual([{ actions: [{ type: 'type', text: 'California' }], intent: 'Choose "California" in "State"', setsSelect: true }]);
    batcher.push(change('Texas', false));
    expect(batcher.flush()[0]!.actions).toEqual([{ type: 'click', x: 300, y: 240, button: 'left' }, { type: 'type', text: 'Texas' }]);
    // A click right after: what is typed next goes to what was clicked, not to the select.
    batcher.push(change('Oregon', true));
    const answers = feed(batcher, [click(5, 5, target({ name: 'Last name' })), key('L', state), key('i', state)]);
    expect(answers.map((answer) => answer.intent)).toEqual(['Choose "Oregon" in "State"', 'Click "Last name"']);
    expect(batcher.flush()).toEqual([{ actions: [{ type: 'type', text: 'Li' }], intent: 'Type into "Last name"' }]);
  });

  it('intents for checkboxes, radios, other buttons and unnamed targets', () => {
    const batcher = new InputBatcher();
    const intents = feed(batcher, [
      click(1, 1, target({ type: 'checkbox', role: 'checkbox', name: 'Send reminders', checked: false, editable: false })),
      click(1, 1, target({ type: 'checkbox', role: 'checkbox', name: 'Send reminders', checked: true, editable: false })),
      click(1, 1, target({ type: 'radio', role: 'radio', name: 'Premium', checked: false, editable: false })),
      { kind: 'click', x: 1, y: 1, button: 'right', target: save },
      click(1, 1, body),
      { kind: 'drag', path: [{ x: 1, y: 1 }, { x: 50, y: 1 }], target: target({ tag: 'div', type: null, role: 'slider', name: 'Volume', editable: false }) },
    ]).map((answer) => answer.intent);
    expect(intents).toEqual(['Check "Send reminders"', 'Uncheck "Send reminders"', 'Choose "Premium"', 'Right-click "Save"', 'Click the page', 'Drag "Volume"']);
  });

  it('tells when the typing is the start of a value (the person is likely mid-value)', () => {
    const batcher = new InputBatcher();
    feed(batcher, [...'Love'].map((c) => key(c)));
    expect(batcher.typingIsStartOf(['Ada', 'Lovelace'])).toBe(true);
    feed(batcher, [...'lace'].map((c) => key(c)));
    expect(batcher.typingIsStartOf(['Ada', 'Lovelace'])).toBe(false);
    expect(batcher.pendingText).toEqual({ text: 'Lovelace', secret: false });
  });
});

describe('chordOf', () => {
  it('names keys the way actions do, Shift only where it changes the key', () => {
    expect(chordOf({ key: 'a', ctrl: true, alt: false, meta: false, shift: false })).toEqual(['CTRL', 'A']);
    expect(chordOf({ key: 'A', ctrl: false, alt: false, meta: false, shift: true })).toEqual(['SHIFT', 'A']);
    expect(chordOf({ key: '?', ctrl: false, alt: false, meta: false, shift: true })).toEqual(['?']);
    expect(chordOf({ key: ' ', ctrl: false, alt: false, meta: false, shift: false })).toEqual(['SPACE']);
    expect(chordOf({ key: 'ArrowDown', ctrl: false, alt: true, meta: false, shift: false })).toEqual(['ALT', 'ARROWDOWN']);
    expect(chordOf({ key: 'F5', ctrl: false, alt: false, meta: false, shift: false })).toEqual(['F5']);
    expect(chordOf({ key: 'Escape', ctrl: false, alt: false, meta: true, shift: false })).toEqual(['META', 'ESC']);
    expect(chordOf({ key: 'Unidentified', ctrl: false, alt: false, meta: false, shift: false })).toBeUndefined();
  });
});

describe('expectationsFor', () => {
  it('lets through the points and the keys, in order, the engine will send for an answer', () => {
    expect(expectationsFor({ actions: [{ type: 'click', x: 10, y: 20, button: 'left' }], intent: '' })).toEqual({ points: [{ x: 10, y: 20 }], wheels: [], keys: [] });
    expect(expectationsFor({ actions: [{ type: 'type', text: 'Ab\nç' }], intent: '' }).keys).toEqual([{ key: 'A' }, { key: 'b' }, { key: 'Enter' }]);
    expect(expectationsFor({ actions: [{ type: 'keypress', keys: ['CTRL', 'A'] }], intent: '' }).keys).toEqual([{ key: 'a', anyCase: true }]);
    expect(expectationsFor({ actions: [{ type: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: 100 }], intent: '' }).wheels).toEqual([{ x: 5, y: 6 }]);
    // A select is set by its option, with no key: none is let through.
    expect(expectationsFor({ actions: [{ type: 'click', x: 1, y: 2, button: 'left' }, { type: 'type', text: 'Texas' }], intent: '', setsSelect: true })).toEqual({ points: [{ x: 1, y: 2 }], wheels: [], keys: [] });
  });
});
