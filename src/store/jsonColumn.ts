import { customType } from 'drizzle-orm/sqlite-core';

/**
 * JSON in a text column. Not drizzle's `text({ mode: 'json' })`: that one stringifies a null bound
 * through a prepared-statement placeholder into the text 'null', where we want SQL NULL.
 */
export function json<T>(name: string) {
  return customType<{ data: T; driverData: string | null }>({
    dataType: () => 'text',
    toDriver: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
    fromDriver: (value) => (value === null ? null : JSON.parse(value)) as T,
  })(name);
}
