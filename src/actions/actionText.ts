import { mapStrings, stringsOf, type JsonValue } from '../params/jsonValues.js';
import type { Action } from './action.js';

/**
 * Where an action holds text that a person, an agent or a parameter wrote: typed text, a URL
 * to open, a tool's arguments. Templates, binding and redaction all apply to exactly these, so
 * they are named in one place.
 */
export type ActionTextField = 'text' | 'url' | 'arg';

export type MapTextOptions = {
  /**
   * Also map a tool's object keys and numbers (a number becomes the mapped string when the map
   * changes it): how a secret standing as a key or a PIN captured as 4821 is hidden.
   */
  keysAndNumbers?: boolean;
};

/** A copy of the action with every text it holds mapped; actions without text are returned as they are. */
export function mapActionText(action: Action, map: (text: string, field: ActionTextField) => string, options: MapTextOptions = {}): Action {
  switch (action.type) {
    case 'type':
      return { ...action, text: map(action.text, 'text') };
    case 'goto':
      return { ...action, url: map(action.url, 'url') };
    case 'tool': {
      const strings = options.keysAndNumbers ? { keys: true, numbers: true } : {};
      return { ...action, args: mapStrings(action.args, (text) => map(text, 'arg'), strings) as Record<string, JsonValue> };
    }
    case 'click':
    case 'double_click':
    case 'keypress':
    case 'scroll':
    case 'drag':
    case 'move':
    case 'wait':
      return action;
  }
}

/** Every text an action holds (object keys aside), in order. */
export function actionTexts(action: Action): string[] {
  switch (action.type) {
    case 'type':
      return [action.text];
    case 'goto':
      return [action.url];
    case 'tool':
      return stringsOf(action.args);
    case 'click':
    case 'double_click':
    case 'keypress':
    case 'scroll':
    case 'drag':
    case 'move':
    case 'wait':
      return [];
  }
}
