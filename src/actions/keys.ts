/**
 * Key names in the OpenAI computer-use convention (case-insensitive: CTRL, ENTER, ARROWDOWN)
 * mapped to Playwright's, in this one place.
 */
const KEY_NAMES: Record<string, string> = {
  CTRL: 'Control', CONTROL: 'Control', CMD: 'Meta', COMMAND: 'Meta', META: 'Meta', SUPER: 'Meta', WIN: 'Meta',
  ALT: 'Alt', OPTION: 'Alt', SHIFT: 'Shift',
  ENTER: 'Enter', RETURN: 'Enter', TAB: 'Tab', ESC: 'Escape', ESCAPE: 'Escape', SPACE: ' ',
  BACKSPACE: 'Backspace', DELETE: 'Delete', DEL: 'Delete', INSERT: 'Insert',
  HOME: 'Home', END: 'End', PAGEUP: 'PageUp', PAGEDOWN: 'PageDown', PGUP: 'PageUp', PGDN: 'PageDown',
  UP: 'ArrowUp', DOWN: 'ArrowDown', LEFT: 'ArrowLeft', RIGHT: 'ArrowRight',
  ARROWUP: 'ArrowUp', ARROWDOWN: 'ArrowDown', ARROWLEFT: 'ArrowLeft', ARROWRIGHT: 'ArrowRight',
  CAPSLOCK: 'CapsLock', NUMLOCK: 'NumLock', SCROLLLOCK: 'ScrollLock', PRINTSCREEN: 'PrintScreen', PAUSE: 'Pause',
};

/** One key name, Playwright style; undefined when it is not a key rote knows. */
export function playwrightKey(name: string): string | undefined {
  const upper = name.trim().toUpperCase();
  const known = KEY_NAMES[upper];
  if (known) return known;
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(upper)) return upper;
  // A single printable character; lower case, so Ctrl+A is not read as Ctrl+Shift+A.
  if ([...name].length === 1) return name.toLowerCase();
  return undefined;
}

/** Keys pressed together, as one Playwright chord: ["CTRL","A"] -> "Control+a". */
export function playwrightChord(keys: readonly string[]): string {
  const mapped = keys.map((key) => {
    const name = playwrightKey(key);
    if (name === undefined) throw new Error(`unknown key ${JSON.stringify(key)} (expected a name such as ENTER, TAB, CTRL, ARROWDOWN, F5 or one character)`);
    return name === ' ' ? 'Space' : name;
  });
  return mapped.join('+');
}
