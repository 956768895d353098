import { describe, expect, it } from 'vitest';
import { learnedSchema } from './learnedSchema.js';
import type { TrajectoryNode } from './trajectoryNode.js';

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
  it('keeps what the caller declared over what it would infer, and stores nothing when there is nothing', () => {
    const nodes = [node({ action: { type: 'type', text: '{{dob|date:MM/DD/YYYY}}' } })];
    expect(learnedSchema({ dob: { type: 'string' } }, nodes)).toEqual({ dob: { type: 'string' } });
    expect(learnedSchema({}, [node({ action: { type: 'type', text: 'plain' } })])).toBeNull();
  });
});
