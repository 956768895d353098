import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import type { Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import { deadlineIn } from '../progress/deadline.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { readAnsweredBefore, type ReadTarget } from './readProof.js';

/**
 * What readAnsweredBefore refuses before it asks the page anything: `ask` fails the test if the
 * page was asked. (What it asks the page is tested on real pages in e2e/cropProof.spec.ts.)
 */
let asked = 0;
const untouchable = { evaluate: async () => { asked++; return null; } } as unknown as Page;
const box = { x: 100, y: 200, width: 300, height: 24 };
const field: Target = {
  fingerprint: { role: 'textbox', name: 'Note', tag: 'input', inputType: 'text' },
  box, checked: null, hasText: false, disabled: false, showsValue: true, identity: {}, ownText: '', roleOwn: true, domNode: 42, uncovered: true, read: 'abc-7',
};
const node = (changes: Partial<TrajectoryNode> = {}, state: TrajectoryNode['state'] = { matches: 1 }): TrajectoryNode => ({
  id: 'n', taskId: 't', parentId: null, resumeAtId: null, action: { type: 'type', text: '{{note}}' }, intent: null, url: 'http://127.0.0.1/',
  fingerprint: field.fingerprint, box, cropHash: null, cropRect: null, masks: [], state, endsRun: false, lastSuccessAt: null, ...changes,
});
const before = (changes: Partial<ReadTarget> = {}): ReadTarget => ({ target: field, node: node({ action: { type: 'click', x: 110, y: 210, button: 'left' } }), step: 3, documents: 1, window: 0, ...changes });
const type: Action = { type: 'type', text: 'x' };
const now = { documents: 1, window: 0 };
/** The answer, once it is shown that the page was not asked for it. */
const ask = async (read: ReadTarget | undefined, action: Action, typing: TrajectoryNode, where = now) => {
  asked = 0;
  const answer = await readAnsweredBefore(untouchable, read, typing, action, where, deadlineIn(1000));
  expect(asked, 'the page was asked').toBe(0);
  return answer;
};

describe('readAnsweredBefore: what it refuses without asking the page', () => {
  it('a click, or no read before', async () => {
    expect(await ask(before(), { type: 'click', x: 110, y: 210, button: 'left' }, node())).toBeUndefined();
    expect(await ask(undefined, type, node())).toBeUndefined();
  });

  it('a read with no key, no node, or no cover answer (in a frame or a shadow root)', async () => {
    const { read: _read, ...unkept } = field;
    expect(await ask(before({ target: unkept }), type, node())).toBeUndefined();
    const { domNode: _node, ...unnamed } = field;
    expect(await ask(before({ target: unnamed }), type, node())).toBeUndefined();
    expect(await ask(before({ target: { ...field, uncovered: null } }), type, node())).toBeUndefined();
  });

  it('another document or window', async () => {
    expect(await ask(before(), type, node(), { documents: 2, window: 0 })).toBeUndefined();
    expect(await ask(before(), type, node(), { documents: 1, window: 1 })).toBeUndefined();
  });

  it('steps recorded on targets told apart otherwise: a name, a count, a position, an identity', async () => {
    expect(await ask(before(), type, node({ fingerprint: { ...field.fingerprint, name: 'Notes' } }))).toBeUndefined();
    expect(await ask(before(), type, node({}, { matches: 2 }))).toBeUndefined();
    const clickedByPosition = before({ node: node({ action: { type: 'click', x: 110, y: 210, button: 'left' } }, { matches: 3, position: { index: 1, of: 3 } }) });
    expect(await ask(clickedByPosition, type, node({}, { matches: 3 }))).toBeUndefined();
    const clickedInRow = before({ node: node({}, { matches: 3, identity: { rowHeader: 'Smith' } }) });
    expect(await ask(clickedInRow, type, node({}, { matches: 3, identity: { rowHeader: 'Jones' } }))).toBeUndefined();
  });
});

describe('readAnsweredBefore: steps told apart alike are looked at in the page', () => {
  it('asks the page about that very read, and takes nothing from it when the page says no', async () => {
    const asked: string[] = [];
    const page = { evaluate: async (expression: string) => { asked.push(expression); return null; } } as unknown as Page;
    expect(await readAnsweredBefore(page, before(), node(), type, now, deadlineIn(1000))).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"abc-7"');
  });
});

describe('readAnsweredBefore: only a read that counted look-alikes answers', () => {
  it("a scroll's or a move's read (any element of its kind at the point) answers nothing", async () => {
    const moved = before({ node: node({ action: { type: 'move', x: 110, y: 210 } }) });
    expect(await ask(moved, type, node())).toBeUndefined();
    const scrolled = before({ node: node({ action: { type: 'scroll', x: 110, y: 210, scroll_x: 0, scroll_y: 100 } }) });
    expect(await ask(scrolled, type, node())).toBeUndefined();
  });
});
