import { RoteError } from '../errors/roteError.js';
import type { BoundParams } from './params.js';
import { SECRET_MASK, secretNames } from './secret.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Parameter names a template refers to, in order of first use. */
export function templateNames(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) names.add(match[1]!);
  return [...names];
}

export function isTemplate(text: string): boolean {
  return templateNames(text).length > 0;
}

/** Names a template uses that `params` lacks. */
export function missingNames(template: string, params: BoundParams): string[] {
  return templateNames(template).filter((name) => !(name in params));
}

/** Renders `{{name}}` placeholders; every name must be bound (checked up front by the caller). */
export function renderTemplate(template: string, params: BoundParams): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new RoteError('invalid-argument', `template ${JSON.stringify(template)} names {{${name}}}, but no such parameter was given`);
    return value;
  });
}

/** Renders a template for logs and results: secret parameters shown as the mask, unknown names left as they are. */
export function renderForDisplay(template: string, params: BoundParams): string {
  const secrets = secretNames(params);
  return template.replace(PLACEHOLDER, (whole, name: string) => (secrets.has(name) ? SECRET_MASK : params[name] ?? whole));
}

/**
 * Renders only the placeholders of known parameters; any other `{{...}}` stays literal text.
 * How an agent's typed text is bound: it may type `{{password}}` for a secret it cannot see.
 */
export function renderKnown(text: string, params: BoundParams): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => params[name] ?? whole);
}

/**
 * Replaces every occurrence of a secret value in `text` by its `{{name}}`, whatever its length
 * and wherever it stands (inside a word too), leaving existing placeholders alone.
 */
export function hideSecrets(text: string, params: BoundParams): { template: string; ambiguous: string[][] } {
  const byValue = new Map<string, string[]>();
  for (const name of secretNames(params)) {
    const value = params[name];
    if (value === undefined || value === '') continue;
    byValue.set(value, [...(byValue.get(value) ?? []), name]);
  }
  const ambiguous: string[][] = [];
  let template = text;
  for (const value of [...byValue.keys()].sort((a, b) => b.length - a.length)) {
    const names = byValue.get(value)!;
    // Split on placeholders (kept by the capture group at odd indexes) and replace only between them.
    const parts = template.split(/(\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\})/);
    let found = false;
    for (let i = 0; i < parts.length; i += 2) {
      if (!parts[i]!.includes(value)) continue;
      found = true;
      parts[i] = parts[i]!.split(value).join(`{{${names[0]}}}`);
    }
    if (!found) continue;
    if (names.length > 1) ambiguous.push(names);
    template = parts.join('');
  }
  return { template, ambiguous };
}

export type Templatized = {
  template: string;
  /** Parameters whose values were equal, so the text could stand for any of them. */
  ambiguous: string[][];
};

/**
 * Replaces parameter values in recorded text by their names.
 * Text equal to a value becomes `{{name}}`; otherwise a value standing in the text as a
 * whole word or a quoted string is replaced (values under 3 characters only when whole),
 * longest first, so "John Smith" becomes "{{first}} {{last}}". Several parameters with the
 * same value are kept as an ambiguity, which a replay resolves only when their new values agree.
 * Secret values are replaced wherever they stand, whatever their length (see hideSecrets).
 */
export function templatize(text: string, params: BoundParams): Templatized {
  // Secrets first, anywhere in the text: a secret value is never kept, however short.
  const hidden = hideSecrets(text, params);
  if (hidden.template !== text) {
    const rest = templatizePlain(hidden.template, params);
    return { template: rest.template, ambiguous: [...hidden.ambiguous, ...rest.ambiguous] };
  }
  return templatizePlain(text, params);
}

function templatizePlain(text: string, params: BoundParams): Templatized {
  const secrets = secretNames(params);
  const byValue = new Map<string, string[]>();
  for (const [name, value] of Object.entries(params)) {
    if (value.trim() === '' || secrets.has(name)) continue;
    byValue.set(value, [...(byValue.get(value) ?? []), name]);
  }
  const ambiguous: string[][] = [];
  const exact = byValue.get(text);
  if (exact) {
    if (exact.length > 1) ambiguous.push(exact);
    return { template: `{{${exact[0]}}}`, ambiguous };
  }
  let template = text;
  const values = [...byValue.keys()].filter((value) => value.length >= 3).sort((a, b) => b.length - a.length);
  for (const value of values) {
    const names = byValue.get(value)!;
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_{])${escapeRegExp(value)}(?![\\p{L}\\p{N}_}])`, 'gu');
    if (!pattern.test(template)) continue;
    if (names.length > 1) ambiguous.push(names);
    template = template.replace(pattern, `{{${names[0]}}}`);
  }
  return { template, ambiguous };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
