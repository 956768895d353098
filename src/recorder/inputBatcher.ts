import type { Action } from '../actions/action.js';
import type { CapturedInput, TargetInfo } from './capturedInput.js';

/** One answer of the person: the actions the engine performs and records, with a short intent. */
export type PersonAnswer = {
  actions: Action[];
  intent: string;
  /** The answer sets a <select> by its option (no key reaches the page for it). */
  setsSelect?: true;
};

/** Inputs the batcher turns into answers (the finish control and notices are the agent's). */
export type PersonInput = Exclude<CapturedInput, { kind: 'finish' } | { kind: 'unsupported' }>;

export type BatchResult = {
  /** Answers complete now, in order. */
  answers: PersonAnswer[];
  /** Why an input was dropped, for the person to read. */
  notice?: string;
};

type Pending =
  | { kind: 'text'; text: string; target: TargetInfo }
  | { kind: 'wheel'; x: number; y: number; dx: number; dy: number }
  | { kind: 'select'; x: number; y: number; label: string; focused: boolean; target: TargetInfo };

/** DOM key names -> the computer-use names actions use (see src/actions/keys.ts for the way back). */
const KEY_NAMES: Record<string, string> = {
  Enter: 'ENTER', Tab: 'TAB', Escape: 'ESC', Backspace: 'BACKSPACE', Delete: 'DELETE', Insert: 'INSERT',
  Home: 'HOME', End: 'END', PageUp: 'PAGEUP', PageDown: 'PAGEDOWN',
  ArrowUp: 'ARROWUP', ArrowDown: 'ARROWDOWN', ArrowLeft: 'ARROWLEFT', ArrowRight: 'ARROWRIGHT', ' ': 'SPACE',
};

/** How a key reads in an intent: "Enter", "Ctrl+A", "Shift+Tab". */
const SHOWN: Record<string, string> = {
  CTRL: 'Ctrl', ALT: 'Alt', SHIFT: 'Shift', META: 'Meta', SPACE: 'Space',
  ...Object.fromEntries(Object.entries(KEY_NAMES).filter(([dom]) => dom !== ' ').map(([dom, name]) => [name, dom])),
};

type KeyInput = Extract<PersonInput, { kind: 'key' }>;

function isCharacter(key: string): boolean {
  return [...key].length === 1;
}

/** A key that puts its character into a text field: one character, no Ctrl or Meta. */
function isPrintable(input: KeyInput): boolean {
  return isCharacter(input.key) && !input.ctrl && !input.meta;
}

/** The computer-use chord for a key with its modifiers; undefined for a key rote cannot name. */
export function chordOf(input: Pick<KeyInput, 'key' | 'ctrl' | 'alt' | 'meta' | 'shift'>): string[] | undefined {
  const character = isCharacter(input.key) && input.key !== ' ';
  const main = KEY_NAMES[input.key] ?? (/^F([1-9]|1[0-9]|2[0-4])$/.test(input.key) ? input.key : character ? input.key.toUpperCase() : undefined);
  if (main === undefined) return undefined;
  const modifiers: string[] = [];
  if (input.ctrl) modifiers.push('CTRL');
  if (input.alt) modifiers.push('ALT');
  // Shift is in a symbol already ("?" is Shift+/); it is named for keys and letters, where it changes the key.
  if (input.shift && (!character || /^\p{L}$/u.test(input.key) || input.ctrl || input.alt || input.meta)) modifiers.push('SHIFT');
  if (input.meta) modifiers.push('META');
  return [...modifiers, main];
}

function shownChord(keys: readonly string[]): string {
  return keys.map((key) => SHOWN[key] ?? key).join('+');
}

/** `"Save"`, or what the element is when it has no name: `the textbox`. */
export function named(target: TargetInfo): string {
  if (target.name !== '') return JSON.stringify(target.name);
  const what = target.role !== '' && target.role !== 'generic' ? target.role : target.tag;
  return what === '' || what === 'html' || what === 'body' ? 'the page' : `the ${what}`;
}

function clickIntent(target: TargetInfo, button: 'left' | 'right' | 'middle'): string {
  if (button !== 'left') return `${button === 'right' ? 'Right-click' : 'Middle-click'} ${named(target)}`;
  const checkbox = target.type === 'checkbox' || target.role === 'checkbox' || target.role === 'switch';
  if (checkbox && target.checked !== null) return `${target.checked ? 'Uncheck' : 'Check'} ${named(target)}`;
  if (target.type === 'radio' || target.role === 'radio') return `Choose ${named(target)}`;
  return `Click ${named(target)}`;
}

function scrollIntent(dx: number, dy: number): string {
  if (Math.abs(dy) >= Math.abs(dx)) return dy >= 0 ? 'Scroll down' : 'Scroll up';
  return dx >= 0 ? 'Scroll right' : 'Scroll left';
}

function point(value: number): number {
  return Math.max(0, Math.round(value * 100) / 100);
}

/**
 * Turns the person's captured input into agent answers, in order. Printable keys in a text field
 * are gathered into one `type` until something else happens (a click, a non-printable key, a
 * pause: the caller flushes), so a value typed in one go is one step and its parameter is found
 * whole; Backspace edits the gathered text, since none of it has reached the page yet. Wheel
 * events of one gesture become one `scroll`; a <select>'s changes, its final option.
 * Pure: no timers, no page.
 */
export class InputBatcher {
  private pending: Pending | null = null;
  /**
   * Where typing will go once the engine performed the answers given so far: the element last
   * clicked. The page's own focus is behind while a click waits to be performed (a person types
   * right after clicking), so until `performed()` this is the better guess.
   */
  private focus: TargetInfo | undefined;

  push(input: PersonInput): BatchResult {
    switch (input.kind) {
      case 'click': {
        const answers = this.flush();
        this.focus = input.target;
        return { answers: [...answers, { actions: [{ type: 'click', x: point(input.x), y: point(input.y), button: input.button }], intent: clickIntent(input.target, input.button) }] };
      }
      case 'drag': {
        const answers = this.flush();
        this.focus = input.target;
        return { answers: [...answers, { actions: [{ type: 'drag', path: input.path.map((p) => ({ x: point(p.x), y: point(p.y) })) }], intent: `Drag ${named(input.target)}` }] };
      }
      case 'key':
        return this.key(input);
      case 'paste':
        if (!(this.focus ?? input.target).editable) return { answers: [], notice: 'a paste outside a text field was not recorded' };
        return { answers: this.addText(input.text, this.focus ?? input.target) };
      case 'wheel': {
        const pending = this.pending;
        if (pending?.kind === 'wheel') {
          pending.dx += input.dx;
          pending.dy += input.dy;
          return { answers: [] };
        }
        const answers = this.flush();
        this.pending = { kind: 'wheel', x: input.x, y: input.y, dx: input.dx, dy: input.dy };
        return { answers };
      }
      case 'select': {
        // A later change of the same select replaces an earlier one: its final option is the answer.
        const answers = this.pending?.kind === 'select' ? [] : this.flush();
        this.pending = { kind: 'select', x: input.x, y: input.y, label: input.label, focused: input.focused, target: input.target };
        return { answers };
      }
    }
  }

  /** The answer for what is gathered (typing, a scroll gesture, a select), if anything. */
  flush(): PersonAnswer[] {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return [];
    switch (pending.kind) {
      case 'text':
        return pending.text === '' ? [] : [{ actions: [{ type: 'type', text: pending.text }], intent: `Type into ${named(pending.target)}` }];
      case 'wheel': {
        const scrollX = Math.round(pending.dx);
        const scrollY = Math.round(pending.dy);
        if (scrollX === 0 && scrollY === 0) return [];
        return [{ actions: [{ type: 'scroll', x: point(pending.x), y: point(pending.y), scroll_x: scrollX, scroll_y: scrollY }], intent: scrollIntent(scrollX, scrollY) }];
      }
      case 'select': {
        this.focus = pending.target;
        // The select holds the focus after its own list or keys; a click first when it does not.
        const choose: Action = { type: 'type', text: pending.label };
        const actions: Action[] = pending.focused ? [choose] : [{ type: 'click', x: point(pending.x), y: point(pending.y), button: 'left' }, choose];
        return [{ actions, intent: `Choose ${JSON.stringify(pending.label)} in ${named(pending.target)}`, setsSelect: true }];
      }
    }
  }

  /** Text gathered and not yet typed, for the preview; masked where the field is a password. */
  get pendingText(): { text: string; secret: boolean } | undefined {
    return this.pending?.kind === 'text' ? { text: this.pending.text, secret: this.pending.target.secret } : undefined;
  }

  /** What is gathered and waits for a flush, if anything. */
  get pendingKind(): Pending['kind'] | undefined {
    return this.pending?.kind;
  }

  /** The gathered text is the start of one of these values, not all of it: the person is likely mid-value. */
  typingIsStartOf(values: readonly string[]): boolean {
    const typed = this.pendingText?.text;
    if (!typed) return false;
    return values.some((value) => value.length > typed.length && value.startsWith(typed));
  }

  /** The engine performed every answer given so far: the page's own focus is current again. */
  performed(): void {
    this.focus = undefined;
  }

  /** Drops what is gathered (its page went away); true if there was anything. */
  discard(): boolean {
    const had = this.pending !== null;
    this.pending = null;
    return had;
  }

  private key(input: KeyInput): BatchResult {
    const target = this.focus ?? input.target;
    const pending = this.pending;
    if (input.key === 'Backspace' && !input.ctrl && !input.alt && !input.meta && pending?.kind === 'text' && pending.text !== '') {
      pending.text = [...pending.text].slice(0, -1).join('');
      if (pending.text === '') this.pending = null;
      return { answers: [] };
    }
    if (target.editable && isPrintable(input)) return { answers: this.addText(input.key, target, input.back) };
    if (target.editable && target.multiline && input.key === 'Enter' && !input.ctrl && !input.alt && !input.meta) return { answers: this.addText('\n', target) };
    const keys = chordOf(input);
    if (!keys) return { answers: [], notice: `the key ${JSON.stringify(input.key)} is not recorded` };
    // A key such as Tab or Enter may move the focus anywhere: the page's focus tells from here on.
    this.focus = undefined;
    return { answers: [...this.flush(), { actions: [{ type: 'keypress', keys }], intent: `Press ${shownChord(keys)}${target.name !== '' ? ` in ${named(target)}` : ''}` }] };
  }

  /** Adds typed text; `back` puts it that many characters before the end (a key that arrived late). */
  private addText(text: string, target: TargetInfo, back = 0): PersonAnswer[] {
    if (this.pending?.kind === 'text') {
      const characters = [...this.pending.text];
      const at = back > 0 && back <= characters.length ? characters.length - back : characters.length;
      this.pending.text = [...characters.slice(0, at), text, ...characters.slice(at)].join('');
      return [];
    }
    const answers = this.flush();
    this.pending = { kind: 'text', text, target };
    return answers;
  }
}
