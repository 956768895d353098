import { placeholderPattern } from './paramName.js';

/**
 * `a=1&b=x%20y`: keys and values, nothing else (no bare words, no spaces in a key). A value may
 * hold spaces: the outer value was decoded once already (`q%3DJohn%20Fletcher` is `q=John Fletcher`).
 */
const QUERY_SHAPE = /^[^=&\s]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/;

/**
 * A query value that is itself a query string (`_changelist_filters=q%3DFletcher%26o%3D2`, a list's
 * search kept in the edit page's address so "back to the list" returns to it): its pairs, decoded.
 * Undefined when the value is not shaped as one.
 */
export function nestedQuery(decoded: string): [string, string][] | undefined {
  if (!QUERY_SHAPE.test(decoded)) return undefined;
  try {
    return [...new URLSearchParams(decoded).entries()];
  } catch {
    return undefined;
  }
}

/**
 * The pairs written back as a query string, each key and value percent-encoded except the
 * `{{name}}` placeholders in them, which stay readable (a URL's parser leaves braces in a query).
 */
export function writeNestedQuery(pairs: readonly [string, string][]): string {
  return pairs.map(([key, value]) => `${encodeKeepingPlaceholders(key)}=${encodeKeepingPlaceholders(value)}`).join('&');
}

/** Percent-encodes `text` for a query, leaving its placeholders as they are. */
export function encodeKeepingPlaceholders(text: string): string {
  // Split keeps each placeholder (the pattern's one group) at the odd indexes.
  return text
    .split(placeholderPattern({ capture: false }))
    .map((part, index) => (index % 2 === 1 ? part : encodeURIComponent(part)))
    .join('');
}
