import { describe, expect, it } from 'vitest';
import { UnreadableColumn } from '../store/rows.js';
import { nodeFromRow, storedState } from './trajectoryNode.js';

const row = {
  id: 'n1',
  taskId: 't',
  parentId: null,
  resumeAtId: null,
  action: { type: 'click', x: 60, y: 32, button: 'left' } as unknown,
  intent: 'Fill "Name"',
  url: 'http://127.0.0.1:4010/intake',
  fingerprint: { role: 'textbox', name: 'Name', tag: 'input', inputType: 'text' } as unknown,
  box: { x: 10, y: 20, width: 100, height: 24 } as unknown,
  cropHash: null,
  cropRect: { x: -6, y: -6, width: 112, height: 36 } as unknown,
  masks: [{ x: 9, y: 9, width: 94, height: 18 }] as unknown,
  state: { matches: 1, ahead: ['name'], typeMode: 'replace' } as unknown,
  endsRun: false,
  endUrl: null as string | null,
  lastSuccessAt: null,
};

const NONSENSE: unknown[] = [0, -1, '', 'x', true, [], {}, [1], { type: 'teleport' }, { x: 'a' }, new UnreadableColumn('action', 'Unexpected end of JSON input')];
const COLUMNS = ['action', 'fingerprint', 'box', 'cropRect', 'masks', 'state', 'url'] as const;

describe('nodeFromRow', () => {
  it('reads a good row', () => {
    expect(nodeFromRow(row)).toMatchObject({ ok: true, value: { id: 'n1', action: { type: 'click' }, masks: [{ x: 9 }] } });
  });

  it("reads the end URL from its column, or from the state of a node stored before the column", () => {
    const read = (over: Partial<typeof row>) => {
      const result = nodeFromRow({ ...row, ...over });
      return result.ok ? result.value.state.endUrl : result.reason;
    };
    expect(read({ endUrl: 'http://127.0.0.1:4010/done' })).toBe('http://127.0.0.1:4010/done');
    expect(read({ state: { endUrl: 'http://127.0.0.1:4010/old' } })).toBe('http://127.0.0.1:4010/old');
    expect(read({ state: { endUrl: 'http://127.0.0.1:4010/old' }, endUrl: 'http://127.0.0.1:4010/new' })).toBe('http://127.0.0.1:4010/new');
    expect(read({})).toBeUndefined();
    expect(storedState({ endUrl: 'http://127.0.0.1:4010/done', ahead: ['name'] })).toEqual({ state: { ahead: ['name'] }, endUrl: 'http://127.0.0.1:4010/done' });
  });

  it('never throws on a damaged column: it names the column, and gives no node', () => {
    for (const column of COLUMNS) {
      for (const value of NONSENSE) {
        const read = nodeFromRow({ ...row, [column]: value } as typeof row);
        if (read.ok) continue; // Some values still fit (an empty mask list, a state with no fields).
        const named = value instanceof UnreadableColumn ? value.column : column === 'cropRect' ? 'crop_rect' : column;
        expect(read.reason, `${column} = ${JSON.stringify(value)}`).toContain(`its ${named} `);
      }
    }
    expect(nodeFromRow({ ...row, action: new UnreadableColumn('action', 'Unexpected token') })).toEqual({ ok: false, reason: 'its action is not JSON (Unexpected token)' });
    expect(nodeFromRow({ ...row, fingerprint: { role: 7 } })).toMatchObject({ ok: false, reason: expect.stringMatching(/^its fingerprint does not fit: role: /) });
  });
});
