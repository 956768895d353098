import { renderingsOf } from './format.js';
import { paramKind, type BoundParams } from './params.js';
import { secretNames } from './secret.js';

/**
 * Every text a page may show for the (non-secret) parameter values: each value as given and its
 * sure renderings (1990-04-01 shown as 04/01/1990 or April 1, 1990; 20:04 as 8:04 PM). The visual
 * check masks where these stand, so a new value in any of its forms is not a false divergence.
 */
export function shownForms(params: BoundParams): string[] {
  // Asked on every visual check of a run with the same bound params: computed once per run.
  const known = formsByParams.get(params);
  if (known) return known;
  const forms = formsOf(params);
  formsByParams.set(params, forms);
  return forms;
}

const formsByParams = new WeakMap<BoundParams, string[]>();

function formsOf(params: BoundParams): string[] {
  const secrets = secretNames(params);
  const forms = new Set<string>();
  for (const [name, value] of Object.entries(params)) {
    if (secrets.has(name) || value.trim() === '') continue;
    forms.add(value);
    for (const rendering of renderingsOf(value, paramKind(params, name))) {
      if (rendering.inference.kind !== 'none') forms.add(rendering.text);
    }
  }
  return [...forms];
}
