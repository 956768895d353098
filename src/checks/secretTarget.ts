import type { BoundParams } from '../params/boundParams.js';
import { fold } from '../params/fold.js';
import { redactValues } from '../params/secret.js';
import { hideSecrets } from '../params/template.js';
import type { Fingerprint } from './fingerprint.js';
import type { ShownValue } from './shownValues.js';
import { placeholderPattern } from '../params/paramName.js';

const PLACEHOLDER = placeholderPattern({ global: true, formats: false });

/**
 * A target's fingerprint as stored: a secret its accessible name shows (a "Log in as hunter2"
 * button, an option or a label echoing it) as `{{name}}`. A replay renders it back with its own
 * values (recordedName), so the target is still checked by its full name.
 */
export function storedFingerprint(fingerprint: Fingerprint, params: BoundParams): Fingerprint {
  if (!params.hasSecrets) return fingerprint;
  for (const name of params.secretNames) {
    const value = params.get(name) ?? '';
    // A name that is the secret case and punctuation aside (semantic targets match so) goes whole.
    if (fold(value) !== '' && fold(value) === fold(fingerprint.name)) return { ...fingerprint, name: `{{${name}}}` };
  }
  return { ...fingerprint, name: hideSecrets(fingerprint.name, params).template };
}

/**
 * A page text as stored: secrets as `{{name}}`; and when the text was cut short (`cut`), the first
 * characters of a secret it may end in go too.
 */
export function hideSecretsInCut(text: string, cut: boolean, params: BoundParams): string {
  let hidden = hideSecrets(text, params).template;
  if (!cut) return hidden;
  for (const name of params.secretNames) {
    const value = params.get(name) ?? '';
    for (let length = value.length - 1; length > 0; length--) {
      if (!hidden.endsWith(value.slice(0, length))) continue;
      hidden = `${hidden.slice(0, -length)}{{${name}}}`;
      break;
    }
  }
  return hidden;
}

/**
 * A watched control as stored: no secret in its selector (rendered back on use) nor in its label,
 * which is only shown, and folded (lower case, punctuation as spaces), so a secret may stand
 * there folded too.
 */
export function storedWatch(watch: ShownValue, params: BoundParams): ShownValue {
  if (!params.hasSecrets) return watch;
  const values = params.secretValues();
  const label = redactValues(watch.label, [...values, ...values.map(fold).filter((folded) => folded !== '')]);
  return { ...watch, label, selector: hideSecrets(watch.selector, params).template };
}

/** A stored name, context or selector with this run's secret values in place of their `{{name}}`. */
export function renderSecrets(text: string, params: BoundParams): string {
  if (!params.hasSecrets || !text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => (params.isSecret(name) ? params.get(name)! : whole));
}

/** The name the recorded target would have with this run's secrets, as the page computes names. */
export function recordedName(fingerprint: Fingerprint, params: BoundParams): string {
  const rendered = renderSecrets(fingerprint.name, params);
  return rendered === fingerprint.name ? rendered : rendered.replace(/\s+/g, ' ').trim();
}
