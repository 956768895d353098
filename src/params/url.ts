import { BoundParams } from './boundParams.js';
import { nestedQuery, writeNestedQuery } from './nestedQuery.js';
import { hideSecrets } from './template.js';

/**
 * A path segment or query value that names a record rather than a page: a number, a UUID, a long
 * hex string. Two URLs that differ only in such parts are the same page for another record.
 */
export function isIdLike(part: string): boolean {
  return /^\d+$/.test(part) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(part) || /^[0-9a-f]{12,}$/i.test(part);
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function sortPairs(pairs: [string, string][]): [string, string][] {
  return pairs.sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
}

/**
 * The start URL as part of a cache key: origin, path and query sorted by name, with record ids
 * as `:id` and parameter values as `{{name}}`, so the same page for another record is the same
 * task. The fragment is dropped; non-http URLs stay as they are.
 */
export function normalizeUrl(url: string, params: BoundParams = BoundParams.none): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return parsed.href.replace(/#.*$/, '');
  const byValue = new Map(params.entries().filter(([, value]) => value.trim().length >= 2).map(([name, value]) => [value, name]));
  const single = (part: string) => (byValue.has(part) ? `{{${byValue.get(part)}}}` : isIdLike(part) ? ':id' : part);
  // A search kept inside a query value (a list's filters in the edit page's address) too.
  const general = (part: string) => {
    const nested = byValue.has(part) ? undefined : nestedQuery(part);
    return nested ? writeNestedQuery(sortPairs(nested.map(([key, value]): [string, string] => [key, single(value)]))) : single(part);
  };
  const path = parsed.pathname
    .split('/')
    .map((segment) => general(safeDecode(segment)))
    .join('/');
  const query = sortPairs([...parsed.searchParams.entries()].map(([key, value]): [string, string] => [key, general(value)]));
  const search = query.length > 0 ? `?${query.map(([key, value]) => `${key}=${value}`).join('&')}` : '';
  // A secret standing anywhere in it, plain or URL-encoded, is never part of the key (it is stored).
  return hideSecrets(`${parsed.origin}${path}${search}`, params).template;
}

/**
 * The params a goto URL template is rendered with: a secret stands in a URL percent-encoded, as
 * it was hidden from the recorded URL in any encoding, so a value holding `&`, `#`, `+` or `%`
 * keeps its meaning. A template that is one placeholder (the whole URL) is rendered as it is.
 */
export function urlRenderingParams(template: string, params: BoundParams): BoundParams {
  if (!params.hasSecrets || /^\{\{[^{}]*\}\}$/.test(template.trim())) return params;
  return params.mapValues((value, name) => (params.isSecret(name) ? encodeURIComponent(value) : value));
}
