/**
 * Drizzle cannot define a table once for two dialects, so the PostgreSQL schema repeats the SQLite
 * one. This test is what keeps them one schema: a column, key or index added to one and not the
 * other fails here, before a migration for only one dialect is generated.
 */
import { getTableConfig as pgTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { is } from 'drizzle-orm';
import { PgTable as PgTableClass } from 'drizzle-orm/pg-core';
import { SQLiteTable as SqliteTableClass } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as pgSchema from './postgres/schema.js';
import * as sqliteSchema from './schema.js';

type Shape = {
  columns: { name: string; notNull: boolean; primary: boolean; hasDefault: boolean; enumValues: readonly string[] | undefined; kind: string }[];
  indexes: { name: string; unique: boolean; on: string[] }[];
  foreignKeys: { columns: string[]; references: string; foreignColumns: string[]; onDelete: string | undefined }[];
  unique: string[][];
};

/** Column kinds that mean the same thing in both dialects: JSON (a custom text type) is not plain text. */
function kindOf(column: { columnType: string; dataType: string; getSQLType(): string }): string {
  const sqlType = column.getSQLType().toLowerCase();
  if (sqlType === 'blob' || sqlType === 'bytea') return 'bytes';
  if (column.dataType === 'boolean') return 'boolean';
  if (/int/.test(sqlType)) return 'number';
  if (sqlType === 'text') return column.columnType.includes('Custom') ? 'json' : 'text';
  return sqlType;
}

function sqliteShape(table: SQLiteTable): Shape {
  const config = sqliteTableConfig(table);
  return {
    columns: config.columns.map((column) => ({ name: column.name, notNull: column.notNull, primary: column.primary, hasDefault: column.hasDefault, enumValues: column.enumValues, kind: kindOf(column) })),
    indexes: config.indexes.map((index) => ({ name: index.config.name, unique: index.config.unique, on: index.config.columns.map((column) => (column as { name: string }).name) })).sort((a, b) => a.name.localeCompare(b.name)),
    foreignKeys: config.foreignKeys.map((key) => {
      const ref = key.reference();
      return { columns: ref.columns.map((column) => column.name), references: sqliteTableConfig(ref.foreignTable).name, foreignColumns: ref.foreignColumns.map((column) => column.name), onDelete: key.onDelete };
    }),
    unique: config.columns.filter((column) => column.isUnique).map((column) => [column.name]),
  };
}

function pgShape(table: PgTable): Shape {
  const config = pgTableConfig(table);
  return {
    columns: config.columns.map((column) => ({ name: column.name, notNull: column.notNull, primary: column.primary, hasDefault: column.hasDefault || (column as { generatedIdentity?: unknown }).generatedIdentity !== undefined, enumValues: column.enumValues, kind: kindOf(column) })),
    indexes: config.indexes.map((index) => ({ name: index.config.name!, unique: index.config.unique, on: index.config.columns.map((column) => (column as { name: string }).name) })).sort((a, b) => a.name.localeCompare(b.name)),
    foreignKeys: config.foreignKeys.map((key) => {
      const ref = key.reference();
      return { columns: ref.columns.map((column) => column.name), references: pgTableConfig(ref.foreignTable).name, foreignColumns: ref.foreignColumns.map((column) => column.name), onDelete: key.onDelete === 'no action' ? undefined : key.onDelete };
    }),
    unique: config.columns.filter((column) => column.isUnique).map((column) => [column.name]),
  };
}

const sqliteTables = Object.fromEntries(Object.values(sqliteSchema).filter((value) => is(value, SqliteTableClass)).map((table) => [sqliteTableConfig(table as SQLiteTable).name, table as SQLiteTable]));
const pgTables = Object.fromEntries(Object.values(pgSchema).filter((value) => is(value, PgTableClass)).map((table) => [pgTableConfig(table as PgTable).name, table as PgTable]));

describe('the PostgreSQL schema matches the SQLite schema', () => {
  it('has the same tables', () => {
    expect(Object.keys(pgTables).sort()).toEqual(Object.keys(sqliteTables).sort());
    expect(Object.keys(sqliteTables).length).toBeGreaterThanOrEqual(7);
  });

  it.each(Object.keys(sqliteTables))('%s: same columns, keys, defaults, enums, indexes and foreign keys', (name) => {
    const sqlite = sqliteShape(sqliteTables[name]!);
    const pg = pgShape(pgTables[name]!);
    expect(pg).toEqual({ ...sqlite, foreignKeys: sqlite.foreignKeys.map((key) => ({ ...key, onDelete: key.onDelete === 'no action' ? undefined : key.onDelete })) });
  });
});
