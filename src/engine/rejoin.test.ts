import { describe, expect, it } from 'vitest';
import type { Action } from '../actions/action.js';
import { typedByDetour } from './rejoin.js';
import type { NodeState, TrajectoryNode } from '../trajectory/trajectoryNode.js';

let next = 0;
function typing(text: string, field: { name: string; y: number; role?: string; inputType?: string | null }, state: NodeState = {}): TrajectoryNode {
  const action: Action = { type: 'type', text };
  return {
    id: `n${next++}`, taskId: 't', parentId: null, resumeAtId: null, action, intent: null, url: 'http://app.test/apply',
    fingerprint: { role: field.role ?? 'textbox', name: field.name, tag: 'input', inputType: field.inputType === undefined ? 'text' : field.inputType },
    box: { x: 200, y: field.y, width: 240, height: 22 }, cropHash: null, cropRect: null, masks: [], state, endsRun: false, lastSuccessAt: null,
  };
}

describe('a recorded typing step the detour covered', () => {
  const birth = { name: 'Date of birth', y: 300, role: 'Date', inputType: 'date' };
  const cached = typing('1990-05-05', birth, { typeMode: 'value', literalOf: { birthDate: 'h1' } });

  it('is the same field filled with this run’s value, in whatever form', () => {
    expect(typedByDetour(cached, [typing('{{birthDate|from:date:MM/DD/YYYY}}', birth, { typeMode: 'value' })])).toBe(true);
  });
  it('is not covered by the value typed into another field', () => {
    expect(typedByDetour(cached, [typing('{{birthDate|from:date:MM/DD/YYYY}}', { name: 'Start date', y: 340, role: 'Date', inputType: 'date' }, { typeMode: 'value' })])).toBe(false);
  });
  it('is not covered by typing that left a native field empty, or by other parameters', () => {
    expect(typedByDetour(cached, [typing('{{birthDate}}', birth, { typeMode: 'keys' })])).toBe(false);
    expect(typedByDetour(cached, [typing('{{startDate|from:date:MM/DD/YYYY}}', birth, { typeMode: 'value' })])).toBe(false);
  });
  it('is covered where a renamed field stands in the same place, and not in another window', () => {
    const first = typing('{{firstName}}', { name: 'First name', y: 120 });
    expect(typedByDetour(first, [typing('{{firstName}}', { name: 'Given name', y: 121 })])).toBe(true);
    expect(typedByDetour(first, [typing('{{firstName}}', { name: 'Given name', y: 160 })])).toBe(false);
    expect(typedByDetour(first, [typing('{{firstName}}', { name: 'First name', y: 120 }, { window: 1 })])).toBe(false);
  });
});
