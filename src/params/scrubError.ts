import { redactValues } from './secret.js';

/** How deep into properties, causes and nested errors a scrub goes. */
const MAX_DEPTH = 8;

type Change = { key: PropertyKey; descriptor: PropertyDescriptor | undefined; value: unknown };

/**
 * What was thrown, with every one of `values` (plain or URL-encoded) shown as the mask: an
 * error's message and stack, its other text properties (a query, a call log), its `cause` chain
 * and an AggregateError's `errors`. An error keeps its class, `code` and identity, since it is
 * scrubbed in place; one that cannot be changed (frozen) is copied onto the same prototype. A
 * thrown string is scrubbed too.
 */
export function scrubError<T>(thrown: T, values: Iterable<string>): T {
  const secrets = [...new Set(values)].filter((value) => value !== '').sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return thrown;
  return scrub(thrown, secrets, new Map(), 0) as T;
}

function scrub(value: unknown, secrets: readonly string[], done: Map<object, unknown>, depth: number): unknown {
  if (typeof value === 'string') return redactValues(value, secrets);
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (done.has(value)) return done.get(value);
  done.set(value, value);
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => scrub(item, secrets, done, depth + 1));
    if (items.every((item, index) => item === value[index])) return value;
    if (Object.isFrozen(value)) return items;
    items.forEach((item, index) => (value[index] = item));
    return value;
  }
  // Only data the thrower put there: errors and plain objects (a Buffer or a Page is left alone).
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (!(value instanceof Error) && prototype !== Object.prototype && prototype !== null) return value;

  const changes: Change[] = [];
  const keys = Reflect.ownKeys(value);
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    // An error's stack may be an accessor: read through it.
    const readable = 'value' in descriptor || (value instanceof Error && (key === 'stack' || key === 'message'));
    if (!readable) continue;
    const current: unknown = 'value' in descriptor ? descriptor.value : (value as unknown as Record<PropertyKey, unknown>)[key];
    const scrubbed = scrub(current, secrets, done, depth + 1);
    if (scrubbed !== current) changes.push({ key, descriptor, value: scrubbed });
  }
  if (value instanceof Error) {
    // A message or stack that is not an own property (a getter on the class) is shadowed by a scrubbed one.
    for (const key of ['message', 'stack'] as const) {
      const text = value[key];
      if (keys.includes(key) || typeof text !== 'string') continue;
      const scrubbed = redactValues(text, secrets);
      if (scrubbed !== text) changes.push({ key, descriptor: undefined, value: scrubbed });
    }
  }
  if (changes.length === 0) return value;
  const inPlace = Object.isExtensible(value) && changes.every(({ descriptor }) => !descriptor || descriptor.configurable || ('value' in descriptor && descriptor.writable));
  const target = inPlace ? value : copyOf(value);
  done.set(value, target);
  for (const change of changes) put(target, change);
  return target;
}

/** A changeable copy on the same prototype, so `instanceof`, `name` and `code` still hold. */
function copyOf(value: object): object {
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as object;
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    Object.defineProperty(copy, key, 'value' in descriptor ? { ...descriptor, writable: true, configurable: true } : { ...descriptor, configurable: true });
  }
  return copy;
}

function put(target: object, { key, descriptor, value }: Change): void {
  const own = Object.getOwnPropertyDescriptor(target, key);
  if (own && 'value' in own && descriptor && 'value' in descriptor) Object.defineProperty(target, key, { value });
  else Object.defineProperty(target, key, { value, writable: true, enumerable: descriptor?.enumerable ?? false, configurable: true });
}
