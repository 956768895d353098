import { describe, expect, it } from 'vitest';
import type { TaskRow } from '../store/rows.js';
import { rowsForTask } from './rowParams.js';

const task: TaskRow = {
  id: 'k',
  taskTemplate: 'Register {{first}} {{last}}',
  tags: [],
  startUrl: 'http://a.test/form',
  paramNames: ['first', 'last', 'dob', 'vip'],
  paramSchema: { dob: { type: 'date', optional: true, inferred: true, given: 'date:MM/DD/YYYY' }, vip: { type: 'boolean' } },
  createdAt: 0,
  updatedAt: 0,
};
const row = (index: number, values: Record<string, string>) => ({ index, line: index + 1, values });
const none = { plain: {}, secrets: {} };

describe('rowsForTask', () => {
  it('gives every row the shared values and wraps secrets', () => {
    const withPin: TaskRow = { ...task, paramNames: [...task.paramNames, 'pin'] };
    const rows = rowsForTask(withPin, ['first', 'last', 'dob'], [row(1, { first: 'Ada', last: 'L', dob: '12/10/1815' })], { plain: { vip: 'yes' }, secrets: { pin: '1234' } }, 'w');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.params.vip).toBe('yes');
    expect(String(rows[0]!.params.pin)).toBe('********');
    expect(rows[0]!.values).toEqual({ first: 'Ada', last: 'L', dob: '12/10/1815' });
  });

  it('names every unknown and missing column, and every bad row, in one error before any run', () => {
    expect(() => rowsForTask(task, ['first', 'shoe'], [row(1, { first: 'A', shoe: '9' })], none, 'w')).toThrow(
      'w: 4 problems:\n  - unknown column "shoe": the task uses "first", "last", "dob", "vip"\n  - missing column "last": the recorded task types or chooses {{last}}\n  - missing column "dob": the recorded task types or chooses {{dob}}\n  - missing column "vip": the recorded task types or chooses {{vip}}',
    );
    const columns = ['first', 'last', 'dob', 'vip'];
    expect(() =>
      rowsForTask(task, columns, [row(1, { first: 'A', last: 'B', dob: '12/10/1815', vip: 'no' }), row(7, { first: 'A', last: 'B', dob: 'soon', vip: 'maybe' })], none, 'w'),
    ).toThrow(/row 7 \(line 8\): 2 problems with params:\n\s+- params.dob must be a date as MM\/DD\/YYYY.*got "soon"\n\s+- params.vip must be a boolean.*got "maybe"/);
    expect(() => rowsForTask(task, columns, [row(1, { first: 'A', last: 'B', dob: '12/10/1815', vip: 'no' })], { plain: { vip: 'yes' }, secrets: {} }, 'w')).toThrow('column "vip" is also given by --param or --secret; give it once');
  });

  it('refuses a shared value the task does not know, and a secret parameter given as a plain value', () => {
    const withSecret: TaskRow = { ...task, paramSchema: { ...task.paramSchema, pin: { type: 'secret' } }, paramNames: [...task.paramNames, 'pin'] };
    const columns = ['first', 'last', 'dob', 'vip'];
    const one = [row(1, { first: 'A', last: 'B', dob: '12/10/1815', vip: 'no' })];
    expect(() => rowsForTask(task, columns, one, { plain: { shoeSize: '9' }, secrets: {} }, 'w')).toThrow('w: unknown parameter "shoeSize" (--param, --params or --secret): the task uses');
    expect(() => rowsForTask(withSecret, columns, one, { plain: { pin: '1234' }, secrets: {} }, 'w')).toThrow('"pin" is a secret parameter: give it with --secret pin=env:VARIABLE, not as a value');
    expect(rowsForTask(withSecret, columns, one, { plain: {}, secrets: { pin: '1234' } }, 'w')).toHaveLength(1);
  });
});
