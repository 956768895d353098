import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRowsFile } from './rowsFile.js';

const dir = mkdtempSync(join(tmpdir(), 'rote-rows-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('readRowsFile', () => {
  it('reads a CSV with a BOM, quoted fields holding commas, quotes and line breaks, and blank lines', () => {
    const rows = readRowsFile(file('a.csv', '\uFEFFname,notes\nAda,"Allergic, to ""penicillin"""\n\n"Alan","line one\nline two"\n'), 'w');
    expect(rows.columns).toEqual(['name', 'notes']);
    expect(rows.rows).toEqual([
      { index: 1, line: 2, values: { name: 'Ada', notes: 'Allergic, to "penicillin"' } },
      { index: 2, line: 5, values: { name: 'Alan', notes: 'line one\nline two' } },
    ]);
  });

  it('reads JSON arrays and JSON Lines, numbers and booleans as their text', () => {
    expect(readRowsFile(file('b.json', '[{"a":"x","n":3,"b":true}]'), 'w').rows[0]!.values).toEqual({ a: 'x', n: '3', b: 'true' });
    const lines = readRowsFile(file('c.jsonl', '{"a":"1"}\n\n{"a":"2","b":"y"}\n'), 'w');
    expect(lines.columns).toEqual(['a', 'b']);
    expect(lines.rows.map((row) => [row.index, row.line])).toEqual([
      [1, 1],
      [2, 3],
    ]);
  });

  it('names the file and the row of every problem', () => {
    expect(() => readRowsFile(file('d.csv', 'a,b\n1,2,3\n4\n'), 'w')).toThrow(`w: rows file "${join(dir, 'd.csv')}": 2 problems:\n  - row 1 (line 2) has 3 fields, the header 2\n  - row 2 (line 3) has 1 fields, the header 2`);
    expect(() => readRowsFile(file('e.csv', 'a,a\n1,2\n'), 'w')).toThrow('the header names "a" twice');
    expect(() => readRowsFile(file('f.json', '{"a":1}'), 'w')).toThrow('must hold a JSON array of objects (one per run), got an object');
    expect(() => readRowsFile(file('g.jsonl', '{"a":1}\n{oops\n'), 'w')).toThrow(/line 2 is not valid JSON/);
    expect(() => readRowsFile(file('h.json', '[{"a":{"b":1}}]'), 'w')).toThrow('row 1: a must be a string, number or boolean, got an object');
    expect(() => readRowsFile(file('i.txt', 'a\n1'), 'w')).toThrow('must end in .csv, .json, .jsonl, got ".txt"');
    expect(() => readRowsFile(join(dir, 'missing.csv'), 'w')).toThrow(`cannot read rows file "${join(dir, 'missing.csv')}": ENOENT`);
    expect(() => readRowsFile(file('j.csv', 'a,b\n'), 'w')).toThrow('has a header but no rows');
  });
});
