/**
 * Renderings of parameter values: how a typed text ("04/01/1990") relates to the bound value
 * ("1990-04-01"), stored as a spec (`date:MM/DD/YYYY`) and replayed with new values.
 * The union is closed; every format kind lives in its own file under ./formats/.
 */

import type { ParamKind } from './paramType.js';

export type { ParamKind };

export type Format =
  | { kind: 'date'; pattern: string }
  | { kind: 'time'; pattern: string }
  /** A date and a time given as one value, as a datetime-local field holds them (see formats/datetime.ts). */
  | { kind: 'datetime'; pattern: string }
  | { kind: 'case'; to: 'upper' | 'lower' | 'title' }
  | { kind: 'number'; pattern: string }
  | { kind: 'money'; pattern: string }
  | { kind: 'phone'; pattern: string }
  | { kind: 'word'; index: number }
  /**
   * Reads the value as the user gave it (10/11/2011 as MM/DD/YYYY) into its canonical form, which
   * the formats after it render; a canonical value passes as it is. Always first in a chain.
   */
  | { kind: 'from'; given: Extract<Format, { kind: 'date' | 'time' | 'number' }> }
  /** A yes/no value (Yes, true, on, 1; No, false, off, 0) as the words a field shows for it. */
  | { kind: 'bool'; yes: string; no: string };

export type Inference =
  | { kind: 'match'; formats: Format[] }
  | { kind: 'ambiguous'; readings: Format[][] }
  | { kind: 'none' };

export { formatSpec, parseFormatSpec } from './formats/spec.js';
export { applyFormats } from './formats/apply.js';
export { inferFormat, renderingsOf } from './formats/infer.js';

/** Which kind a format chain implies for its parameter; case and word formats imply none. */
export function kindImpliedBy(formats: readonly Format[]): ParamKind | undefined {
  for (const format of formats) {
    switch (format.kind) {
      case 'date':
      case 'time':
      case 'number':
      case 'money':
      case 'phone':
        return format.kind;
      case 'from':
        return format.given.kind;
      case 'bool':
        return 'boolean';
      // No parameter type holds a date with a time: the value is checked when the step renders it.
      case 'datetime':
      case 'case':
      case 'word':
        break;
    }
  }
  return undefined;
}
