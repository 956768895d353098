import { describe, expect, it } from 'vitest';
import { learnedSchema } from './learnedSchema.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

const node = (over: Partial<TrajectoryNode>): TrajectoryNode => ({
  id: 'n',
  taskId: 't',
  parentId: null,
  resumeAtId: null,
  action: { type: 'type', text: '' },
  intent: null,
  url: 'http://127.0.0.1/',
  fingerprint: null,
  box: null,
  cropHash: null,
  cropRect: null,
  masks: [],
  state: {},
  endsRun: false,
  lastSuccessAt: null,
  ...over,
});

describe('learnedSchema', () => {
  it('infers a type from the format a value was typed in, and from a native date input', () => {
    const nodes = [
      node({ action: { type: 'type', text: 'Born {{dob|date:MM/DD/YYYY}} at {{at|time:h:mm A}}' } }),
      node({ action: { type: 'type', text: '{{start}}' }, state: { typeMode: 'value' }, fingerprint: { role: 'textbox', name: 'Start', tag: 'input', inputType: 'date' } }),
      node({ action: { type: 'type', text: '{{name|word:1}}' } }),
    ];
    expect(learnedSchema({}, nodes)).toEqual({
      dob: { type: 'date', optional: true, inferred: true },
      at: { type: 'time', optional: true, inferred: true },
      start: { type: 'date', optional: true, inferred: true },
    });
  });
  it('keeps the reading a value was given in, so later values are read the same way', () => {
    const nodes = [
      node({ action: { type: 'type', text: '{{date|from:date:MM/DD/YYYY}}' }, state: { typeMode: 'value' }, fingerprint: { role: 'textbox', name: 'Date', tag: 'input', inputType: 'date' } }),
      node({ action: { type: 'type', text: '{{at|from:time:h:mm A|time:HH:mm}}' } }),
      node({ action: { type: 'type', text: '{{amount|from:number:#,##0.##}}' } }),
      node({ action: { type: 'type', text: '{{agree|bool:Yes/No}}' }, state: { typeMode: 'select' } }),
    ];
    expect(learnedSchema({}, nodes)).toEqual({
      date: { type: 'date', optional: true, inferred: true, given: 'date:MM/DD/YYYY' },
      at: { type: 'time', optional: true, inferred: true, given: 'time:h:mm A' },
      amount: { type: 'number', optional: true, inferred: true, given: 'number:#,##0.##' },
      agree: { type: 'boolean', optional: true, inferred: true },
    });
  });
  it('keeps what the caller declared over what it would infer, and stores nothing when there is nothing', () => {
    const nodes = [node({ action: { type: 'type', text: '{{dob|date:MM/DD/YYYY}}' } })];
    expect(learnedSchema({ dob: { type: 'string' } }, nodes)).toEqual({ dob: { type: 'string' } });
    expect(learnedSchema({}, [node({ action: { type: 'type', text: 'plain' } })])).toBeNull();
  });
});

describe('learnedSchema and values that are not the whole of a date input', () => {
  it('learns no type from a date input that holds a value with other text, nor for a secret', () => {
    const dateInput = { role: 'textbox', name: 'Valid from', tag: 'input', inputType: 'date' } as const;
    const nodes = [
      node({ action: { type: 'type', text: '{{pin}}-06-01' }, state: { typeMode: 'value' }, fingerprint: dateInput }),
      node({ action: { type: 'type', text: '{{code}}' }, state: { typeMode: 'value' }, fingerprint: dateInput }),
    ];
    expect(learnedSchema({}, nodes, new Set(['code']))).toBeNull();
  });
});
