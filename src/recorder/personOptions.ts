import { RoteError } from '../errors/roteError.js';

export type PersonAgentOptions = {
  /** Typing becomes a step when the person does something else, or pauses this long (ms). Default 1000. */
  typingPauseMs?: number;
  /** The pause while the typed text is the start of a parameter's value: the person is mid-value. Default 4000. */
  midValuePauseMs?: number;
  /** A wheel gesture or a select's changes become one step after resting this long (ms). Default 300. */
  gesturePauseMs?: number;
  /** Told when some input could not be recorded, in words for the person. */
  onNotice?: (message: string) => void;
};

/** The pauses that end a step, with their defaults. */
export function pausesOf(options: PersonAgentOptions): { typingPauseMs: number; midValuePauseMs: number; gesturePauseMs: number } {
  return { typingPauseMs: options.typingPauseMs ?? 1000, midValuePauseMs: options.midValuePauseMs ?? 4000, gesturePauseMs: options.gesturePauseMs ?? 300 };
}

/** A pause given must be a whole number of milliseconds from 1 up: said before anything is attached. */
export function checkPauses(options: PersonAgentOptions): void {
  for (const name of ['typingPauseMs', 'midValuePauseMs', 'gesturePauseMs'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new RoteError('invalid-argument', `PersonAgent.attach: options.${name} must be a whole number of milliseconds from 1 up, got ${JSON.stringify(value)}`);
    }
  }
}
