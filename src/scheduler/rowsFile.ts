import { readFileSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { messageOf } from '../errors/messageOf.js';
import { problemList } from '../errors/problemList.js';
import { RoteError } from '../errors/roteError.js';

/** One row of parameters, as the file gave them: column -> text. `line` is where it starts, for messages. */
export type ParamRow = { index: number; line: number; values: Record<string, string> };

export type RowsFile = { path: string; columns: string[]; rows: ParamRow[] };

/** The formats a rows file may have, by extension. */
export const ROWS_FORMATS = ['.csv', '.json', '.jsonl'] as const;
export type RowsFormat = (typeof ROWS_FORMATS)[number];

/** The format a path's extension names, if it is one of ROWS_FORMATS. */
export function rowsFormatOf(path: string): RowsFormat | undefined {
  const format = extname(path).toLowerCase();
  return (ROWS_FORMATS as readonly string[]).includes(format) ? (format as RowsFormat) : undefined;
}

/**
 * Reads a file of parameter rows: a CSV with a header line (parsed by csv-parse: quoted fields,
 * commas and line breaks inside quotes, a BOM), a JSON array of objects, or JSON Lines (one
 * object a line). Values are text; a JSON number or boolean is its text. Every problem names the
 * file and the row, and nothing is run from a file that has one.
 */
export function readRowsFile(path: string, where: string): RowsFile {
  const format = rowsFormatOf(path);
  if (!format) throw new RoteError('invalid-argument', `${where}: rows file "${path}" must end in ${ROWS_FORMATS.join(', ')}, got "${extname(path) || 'no extension'}"`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RoteError('invalid-argument', `${where}: cannot read rows file "${path}": ${(error as NodeJS.ErrnoException).code ?? messageOf(error)}`, { cause: error });
  }
  switch (format) {
    case '.csv':
      return csvRows(path, text, where);
    case '.json':
      return objectRows(path, jsonArray(path, text, where), where);
    case '.jsonl':
      return objectRows(path, jsonLines(path, text, where), where);
  }
}

/** Writes rows in the format `path`'s extension names (see rowsFormatOf), columns in first-seen order. */
export function writeRowsFile(path: string, format: RowsFormat, records: readonly Readonly<Record<string, string>>[]): void {
  switch (format) {
    case '.json':
      writeFileSync(path, `${JSON.stringify(records, null, 2)}\n`);
      return;
    case '.jsonl':
      writeFileSync(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
      return;
    case '.csv': {
      const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
      writeFileSync(path, [columns, ...records.map((record) => columns.map((column) => record[column] ?? ''))].map(csvLine).join(''));
      return;
    }
  }
}

/** One CSV line: a field with a comma, a quote, a line break or edge spaces is quoted. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map((cell) => (/[",\r\n]|^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')}\n`;
}

function csvRows(path: string, text: string, where: string): RowsFile {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // Values as given (a leading space may matter); only the header's names are trimmed ("a, b").
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    throw new RoteError('invalid-argument', `${where}: rows file "${path}" is not valid CSV: ${messageOf(error)}`, { cause: error });
  }
  const [header, ...body] = records;
  if (!header) throw new RoteError('invalid-argument', `${where}: rows file "${path}" is empty; expected a header line of parameter names, then a row per run`);
  const columns = header.record.map((column) => column.trim());
  const problems: string[] = [];
  const blank = columns.findIndex((column) => column === '');
  if (blank >= 0) problems.push(`column ${blank + 1} of the header has no name`);
  const repeated = columns.filter((column, index) => columns.indexOf(column) !== index);
  if (repeated.length > 0) problems.push(`the header names ${[...new Set(repeated)].map((column) => JSON.stringify(column)).join(', ')} twice`);
  const rows = body.map(({ record, info }, index): ParamRow => {
    if (record.length !== columns.length) problems.push(`row ${index + 1} (line ${info.lines}) has ${record.length} fields, the header ${columns.length}`);
    return { index: index + 1, line: info.lines, values: Object.fromEntries(columns.map((column, at) => [column, record[at] ?? ''])) };
  });
  if (problems.length > 0) throw new RoteError('invalid-argument', problemList(`${where}: rows file "${path}"`, problems));
  if (rows.length === 0) throw new RoteError('invalid-argument', `${where}: rows file "${path}" has a header but no rows`);
  return { path, columns, rows };
}

function jsonArray(path: string, text: string, where: string): { value: unknown; line: number }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RoteError('invalid-argument', `${where}: rows file "${path}" is not valid JSON: ${messageOf(error)}`, { cause: error });
  }
  if (!Array.isArray(parsed)) throw new RoteError('invalid-argument', `${where}: rows file "${path}" must hold a JSON array of objects (one per run), got ${describe(parsed)}`);
  return parsed.map((value) => ({ value, line: 0 }));
}

function jsonLines(path: string, text: string, where: string): { value: unknown; line: number }[] {
  const values: { value: unknown; line: number }[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    try {
      values.push({ value: JSON.parse(line), line: index + 1 });
    } catch (error) {
      throw new RoteError('invalid-argument', `${where}: rows file "${path}" line ${index + 1} is not valid JSON: ${messageOf(error)}`, { cause: error });
    }
  }
  return values;
}

function objectRows(path: string, values: { value: unknown; line: number }[], where: string): RowsFile {
  const problems: string[] = [];
  const columns = new Set<string>();
  const rows: ParamRow[] = [];
  for (const [index, { value, line }] of values.entries()) {
    const at = `row ${index + 1}${line ? ` (line ${line})` : ''}`;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`${at} must be an object of parameter name -> value, got ${describe(value)}`);
      continue;
    }
    const row: Record<string, string> = {};
    for (const [name, cell] of Object.entries(value)) {
      columns.add(name);
      if (typeof cell === 'string') row[name] = cell;
      else if ((typeof cell === 'number' && Number.isFinite(cell)) || typeof cell === 'boolean') row[name] = String(cell);
      else if (cell !== null) problems.push(`${at}: ${name} must be a string, number or boolean, got ${describe(cell)}`);
    }
    rows.push({ index: index + 1, line, values: row });
  }
  if (problems.length > 0) throw new RoteError('invalid-argument', problemList(`${where}: rows file "${path}"`, problems));
  if (rows.length === 0) throw new RoteError('invalid-argument', `${where}: rows file "${path}" has no rows`);
  return { path, columns: [...columns], rows };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
