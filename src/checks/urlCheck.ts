import { BoundParams } from '../params/boundParams.js';
import { kindImpliedBy } from '../params/format.js';
import { hideSecrets, isTemplate, renderKnown, templateUses, templatize } from '../params/template.js';
import { encodeKeepingPlaceholders, nestedQuery, writeNestedQuery } from '../params/nestedQuery.js';
import { placeholderPattern } from '../params/paramName.js';
import { isIdLike } from '../params/url.js';

const PLACEHOLDER = placeholderPattern({ whole: true, formats: false });

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/**
 * The URL as recorded: path segments and query values equal to a parameter value become
 * `{{name}}`, so the same page with another record's values still matches.
 */
export function templatedUrl(url: string, params: BoundParams): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return url;
  const byValue = new Map<string, string>();
  for (const [name, value] of params.entries()) if (value.trim().length >= 2 && !byValue.has(value)) byValue.set(value, name);
  const template = (raw: string, decoded: string, depth = 0): string => {
    const name = byValue.get(decoded);
    if (name) return `{{${name}}}`;
    // A search kept inside another query value (`?_changelist_filters=q%3DFletcher`): its values
    // are templated as a query's are, whole values only.
    const nested = depth === 0 ? nestedQuery(decoded) : undefined;
    if (nested) {
      // A value not templated keeps its text, with any secret inside it hidden (encoded twice, the
      // hiding of the whole URL below would not see it).
      const inner = nested.map(([key, value]): [string, string] => {
        const templated = template(encodeURIComponent(value), value, depth + 1);
        return [key, isTemplate(templated) ? templated : hideSecrets(value, params, 'url').template];
      });
      return inner.some(([, value]) => isTemplate(value)) ? encodeKeepingPlaceholders(writeNestedQuery(inner)) : raw;
    }
    // A value the page shows in the form it was typed in (the date typed 01/15/2024 for
    // 2024/01/15) stands for it too, when that reading is sure; compareUrls renders it back.
    if (decoded.trim().length < 2) return raw;
    const read = templatize(decoded, params);
    const [use] = templateUses(read.template);
    // Only a reading a format proves (a date, a time, an amount): a case change or a word of a
    // value is chance in a URL ("/books/new" is not a condition "NEW" in lower case).
    const proved = use !== undefined && kindImpliedBy(use.formats) !== undefined && kindImpliedBy(use.formats) !== 'boolean';
    // A number format's # would start the URL's fragment: it is kept percent-encoded, as the part was.
    return proved && read.ambiguous.length === 0 && read.literal.length === 0 && /^\{\{[^{}]+\}\}$/.test(read.template) ? read.template.replace(/#/g, '%23') : raw;
  };
  const path = parsed.pathname
    .split('/')
    .map((segment) => template(segment, decode(segment)))
    .join('/');
  const query = [...parsed.searchParams.entries()].map(([key, value]) => `${encodeURIComponent(key)}=${template(encodeURIComponent(value), value)}`);
  // A secret standing anywhere in it (not only as a whole part, and plain or URL-encoded) is never kept.
  return hideSecrets(`${parsed.origin}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`, params).template;
}

function partMatches(recorded: string, current: string, params: BoundParams): boolean {
  const placeholder = PLACEHOLDER.exec(recorded);
  if (placeholder) return params.get(placeholder[1]!) === current;
  // A query kept inside a query value: compared pair by pair (order-free), as the outer query is.
  const nested = isTemplate(recorded) ? nestedQuery(recorded) : undefined;
  if (nested) {
    const live = nestedQuery(current);
    return live !== undefined && sameQuery(nested, live, params);
  }
  // A secret hidden inside a part (`?q=user+{{password}}`) stands for this run's value.
  if (isTemplate(recorded)) return renderKnown(recorded, params) === current;
  return recorded === current || (isIdLike(recorded) && isIdLike(current));
}

function splitUrl(url: string): { origin: string; path: string[]; query: [string, string][] } | undefined {
  try {
    const parsed = new URL(url);
    // Path segments are compared decoded; braces of a template come back percent-encoded.
    return { origin: parsed.origin, path: parsed.pathname.split('/').map(decode), query: [...parsed.searchParams.entries()] };
  } catch {
    return undefined;
  }
}

function sortQuery(query: readonly [string, string][]): [string, string][] {
  return [...query].sort(([k1, v1], [k2, v2]) => (k1 === k2 ? v1.localeCompare(v2) : k1.localeCompare(k2)));
}

function sameQuery(recorded: readonly [string, string][], current: readonly [string, string][], params: BoundParams): boolean {
  const qa = sortQuery(recorded);
  const qb = sortQuery(current);
  return qa.length === qb.length && qa.every(([key, value], index) => key === qb[index]![0] && partMatches(value, qb[index]![1], params));
}

/**
 * Is the page where the recorded step was taken? Origin must match exactly. Path segments and
 * query values (order-free) must be equal, render the parameter they were recorded as, or both
 * be record ids. Returns null for a match or the reason it is not one.
 */
export function compareUrls(recorded: string, current: string, params: BoundParams = BoundParams.none): string | null {
  const a = splitUrl(recorded);
  const b = splitUrl(current);
  if (!a || !b) return recorded === current ? null : `the page is at ${current}, recorded at ${recorded}`;
  if (a.origin !== b.origin) return `the page is on another origin (${b.origin}, recorded ${a.origin})`;
  const path = (parts: string[]) => parts.join('/');
  if (a.path.length !== b.path.length || a.path.some((part, index) => !partMatches(part, b.path[index]!, params))) {
    return `the page is at ${path(b.path)}, recorded at ${path(a.path)}`;
  }
  const show = (query: [string, string][]) => sortQuery(query).map(([key, value]) => `${key}=${value}`).join('&');
  if (!sameQuery(a.query, b.query, params)) return `the page's query is ?${show(b.query)}, recorded ?${show(a.query)}`;
  return null;
}

/** `http(s)://host:port` of an absolute URL, or undefined (a template, about:blank, a relative path). */
export function httpOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
