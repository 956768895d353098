/**
 * JSON values that carry parameters: a tool call's arguments and what its checks captured. They
 * are stored, so they must be plain JSON, and their strings are templated like typed text.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Where `value` is not plain JSON (what JSON.parse(JSON.stringify(value)) would not give back),
 * as `a function at $.lookup`; undefined when it is JSON.
 */
export function jsonProblem(value: unknown, path = '$', seen = new Set<object>()): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${value} at ${path}`;
  if (typeof value !== 'object') return `${value === undefined ? 'undefined' : `a ${typeof value}`} at ${path}`;
  if (seen.has(value)) return `a circular reference at ${path}`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        const problem = jsonProblem(item, `${path}[${index}]`, seen);
        if (problem) return problem;
      }
      return undefined;
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return `a ${(value as object).constructor?.name ?? 'non-plain object'} at ${path}`;
    for (const [key, item] of Object.entries(value)) {
      const problem = jsonProblem(item, `${path}.${key}`, seen);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}

/**
 * A copy of a JSON value with every string (and, with `keys`, every object key) mapped. With
 * `numbers`, a number is mapped as its text too and becomes that string when the map changes it:
 * how a secret PIN captured as 4821 is hidden.
 */
export function mapStrings(value: JsonValue, map: (text: string) => string, options: { keys?: boolean; numbers?: boolean } = {}): JsonValue {
  if (typeof value === 'string') return map(value);
  if (typeof value === 'number' && options.numbers) {
    const mapped = map(String(value));
    return mapped === String(value) ? value : mapped;
  }
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, options));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [options.keys ? map(key) : key, mapStrings(item, map, options)]));
}

/** Every string in a JSON value (object keys aside), in order. */
export function stringsOf(value: JsonValue): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(stringsOf);
}

/** A stable text of a JSON value (object keys sorted), so equal values compare equal whatever their key order. */
export function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
