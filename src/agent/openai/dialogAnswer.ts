import type { Action } from '../../actions/action.js';
import type { DialogAnswer } from '../agent.js';

/**
 * A model answers a native prompt as a person would, with the computer actions it knows: type the
 * text (it replaces what the box holds), then Enter for OK or Escape for Cancel. Enter alone sends
 * the text the prompt offers. Anything else it does after typing (a click on where it thinks OK
 * is) answers OK with what was typed, and is done once the prompt is closed, as are the actions
 * after Enter or Escape. Typing alone decides nothing yet (`decided` false): a model that acts one
 * action per call types first and presses Enter on its next call. `typedBefore` is what it typed so far.
 */
export function dialogAnswerFrom(actions: readonly Action[], typedBefore?: string): { dialog: DialogAnswer; rest: Action[]; decided: boolean; typed: string | undefined } {
  let text = typedBefore;
  const ok = (): DialogAnswer => (text === undefined ? { accept: true } : { accept: true, text });
  for (const [index, action] of actions.entries()) {
    switch (action.type) {
      case 'type':
        text = (text ?? '') + action.text;
        continue;
      case 'keypress': {
        const keys = action.keys.map((key) => key.toUpperCase());
        if (keys.includes('ESCAPE') || keys.includes('ESC')) return { dialog: { accept: false }, rest: actions.slice(index + 1), decided: true, typed: text };
        if (keys.includes('ENTER') || keys.includes('RETURN')) return { dialog: ok(), rest: actions.slice(index + 1), decided: true, typed: text };
        // Select-all or Backspace before typing: the typed text replaces the box anyway.
        continue;
      }
      case 'wait':
        continue;
      case 'click':
      case 'double_click':
      case 'scroll':
      case 'drag':
      case 'move':
      case 'goto':
      case 'tool':
        return { dialog: ok(), rest: actions.slice(index), decided: true, typed: text };
    }
  }
  return { dialog: ok(), rest: [], decided: false, typed: text };
}
