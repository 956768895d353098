import { RoteError } from '../errors/roteError.js';
import type { BoundParams } from './params.js';

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
 */
export function templatize(text: string, params: BoundParams): Templatized {
  const byValue = new Map<string, string[]>();
  for (const [name, value] of Object.entries(params)) {
    if (value.trim() === '') continue;
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
