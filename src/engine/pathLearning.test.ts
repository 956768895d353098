import { describe, expect, it } from 'vitest';
import type { Action } from '../actions/action.js';
import { bindParams } from '../params/params.js';
import { secret } from '../params/secret.js';
import { SECRET_GUARD, valueHashesOf } from './paramBindings.js';
import { learnFromPath as lessonsOf, type PathRun, type PathStep } from './pathLearning.js';
import { withPatch } from '../trajectory/nodeBuilder.js';
import { patchedState } from '../store/statePatch.js';
import type { NodeState, TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { arrivalsOf, endKeysOf, misfit } from '../trajectory/valueKeys.js';

/** Learning changes no node of the run: each test reads a node as the commit stores it (its patch applied). */
const stored = new Map<string, TrajectoryNode>();
function learnFromPath(run: PathRun) {
  const before = run.steps.map((step) => JSON.stringify(step.node));
  const { patches, links } = lessonsOf(run);
  expect(run.steps.map((step) => JSON.stringify(step.node))).toEqual(before);
  for (const step of run.steps) stored.set(step.node.id, withPatch(step.node, patches.get(step.node.id)));
  return links;
}
/** A node of the last run learned from, as stored. */
const as = (n: TrajectoryNode) => stored.get(n.id) ?? n;

let next = 0;
function node(action: Action, options: { role?: string; name?: string; state?: NodeState; parentId?: string | null } = {}): TrajectoryNode {
  return {
    id: `n${next++}`,
    taskId: 't',
    parentId: options.parentId ?? null,
    resumeAtId: null,
    action,
    intent: null,
    url: 'http://app.test/',
    fingerprint: { role: options.role ?? 'button', name: options.name ?? 'More', tag: 'button', inputType: null },
    box: null,
    cropHash: null,
    cropRect: null,
    masks: [],
    state: options.state ?? {},
    endsRun: false,
    lastSuccessAt: null,
  };
}

const click: Action = { type: 'click', x: 10, y: 10, button: 'left' };
const agentStep = (n: TrajectoryNode, before: string[], after: string[]): PathStep => ({ node: n, isNew: true, byAgent: true, shownBefore: before, shownAfter: after });
const salt = 'salt';
const noForks = { steps: new Set<string>(), ends: new Set<string>() };

describe('learnFromPath: clicks that set a value', () => {
  const params = bindParams({ quantity: '3', note: 'rush' }, 'w');
  const hashes = valueHashesOf(params, salt);
  const run = (steps: PathStep[]) => learnFromPath({ steps, params, valueHashes: hashes, endedByAgent: true, newEnd: false, forks: noForks });

  it("binds the click after which the value first shows, and the clicks on the same widget before it, to the value's hash", () => {
    const typed = node({ type: 'type', text: '{{note}}' }, { role: 'textbox', name: 'Note' });
    const plus = [node(click), node(click), node(click)];
    const save = node(click, { name: 'Save' });
    run([agentStep(typed, [], ['note']), agentStep(plus[0]!, ['note'], ['note']), agentStep(plus[1]!, ['note'], ['note']), agentStep(plus[2]!, ['note'], ['note', 'quantity']), agentStep(save, ['note', 'quantity'], ['note', 'quantity'])]);
    for (const step of plus) expect(as(step).state.setsValue).toEqual([{ param: 'quantity', hash: hashes.quantity }]);
    // Typing stops the walk back; the step after the value showed sets nothing.
    expect(as(typed).state.setsValue).toBeUndefined();
    expect(as(save).state.setsValue).toBeUndefined();
    // The steps before the setting ones carry the value ahead (the binding checks it); the save keys on it.
    expect(as(typed).state.ahead).toContain('quantity');
    expect(as(save).state.valueHashes).toMatchObject({ quantity: hashes.quantity });
  });

  it('binds nothing for a value the page showed before the agent acted, nor one no step made show', () => {
    const first = node(click);
    const other = node(click);
    run([agentStep(first, ['quantity'], ['quantity']), agentStep(other, ['quantity'], ['quantity'])]);
    expect(as(first).state.setsValue).toBeUndefined();
    const none = node(click);
    run([agentStep(none, [], [])]);
    expect(as(none).state.setsValue).toBeUndefined();
  });

  it('stops at a checkbox, a step that made another value show, or a cached step', () => {
    const box = node(click, { role: 'checkbox', name: 'Gift wrap' });
    const arrow = node(click);
    run([agentStep(box, [], []), agentStep(arrow, [], ['quantity'])]);
    expect(as(box).state.setsValue).toBeUndefined();
    expect(as(arrow).state.setsValue).toHaveLength(1);
    const cached = node(click);
    const after = node(click);
    run([{ node: cached, isNew: false, byAgent: false }, agentStep(after, [], ['quantity'])]);
    expect(as(cached).state.setsValue).toBeUndefined();
  });

  it('binds a secret set by clicks (a PIN pad) with a mark no run matches', () => {
    const pinParams = bindParams({ pin: secret('4711') }, 'w');
    const digit = node(click, { name: '7' });
    learnFromPath({ steps: [agentStep(digit, [], ['pin'])], params: pinParams, valueHashes: valueHashesOf(pinParams, salt), endedByAgent: true, newEnd: false, forks: noForks });
    expect(as(digit).state.setsValue).toEqual([{ param: 'pin', hash: SECRET_GUARD }]);
  });

  it('adds the value to a stored step that set another before, as a link', () => {
    const storedNode = node(click, { state: { ahead: ['quantity'], valueHashes: { note: hashes.note! }, setsValue: [{ param: 'quantity', hash: 'other' }] } });
    const links = learnFromPath({ steps: [{ ...agentStep(storedNode, [], ['quantity']), isNew: false }], params, valueHashes: hashes, endedByAgent: false, newEnd: false, forks: noForks });
    expect(links).toEqual([{ id: storedNode.id, state: { add: { setsValue: [{ param: 'quantity', hash: hashes.quantity }] } } }]);
  });
});

describe('learnFromPath: the values a path and an end were learned under', () => {
  const params = bindParams({ times: 'three' }, 'w');
  const hashes = valueHashesOf(params, salt);
  const other = valueHashesOf(bindParams({ times: 'two' }, 'w'), salt);

  it('keys new steps and their end by the value no step showed', () => {
    const a = node(click);
    const b = node(click, { parentId: a.id });
    b.endsRun = true;
    const links = learnFromPath({ steps: [agentStep(a, [], []), agentStep(b, [], [])], params, valueHashes: hashes, endedByAgent: true, newEnd: false, forks: noForks });
    expect(links).toEqual([]);
    expect(as(a).state).toMatchObject({ ahead: [], valueHashes: { times: hashes.times } });
    expect(as(b).state.endsUnder).toEqual([{ ahead: [], valueHashes: { times: hashes.times } }]);
  });

  it("adds the run's key to a stored step it went through that no learned path fitted, and its end beside the old one", () => {
    const storedNode = node(click, { state: { ahead: [], valueHashes: { times: other.times! } } });
    storedNode.endsRun = true;
    const links = learnFromPath({ steps: [{ node: storedNode, isNew: false, byAgent: true, shownBefore: [], shownAfter: [] }], params, valueHashes: hashes, endedByAgent: true, newEnd: false, forks: noForks });
    const key = { ahead: [], valueHashes: { times: hashes.times } };
    // The end kept before ends had keys stands for the recording's value, and stays.
    expect(links).toEqual([{ id: storedNode.id, state: { add: { alsoUnder: [key], endsUnder: [{ ahead: [], valueHashes: { times: other.times } }, key] } } }]);
    const learned = { ...storedNode, state: patchedState(storedNode.state, links[0]!) as NodeState };
    expect(arrivalsOf(learned.state).map((arrival) => misfit(arrival, { names: ['times'], valueHashes: hashes, usedSoFar: new Set() }))).toEqual(['times', undefined]);
    expect(endKeysOf(learned)).toHaveLength(2);
  });

  it('adds nothing where a learned path already fitted, unless the step settled a fork', () => {
    const fitting = node(click, { state: { ahead: [], valueHashes: { times: hashes.times! } } });
    const step = { node: fitting, isNew: false, byAgent: true };
    expect(learnFromPath({ steps: [step], params, valueHashes: hashes, endedByAgent: false, newEnd: false, forks: noForks })).toEqual([]);
    // At a fork the agent's choice is learned under the run's exact values, even where a path fitted (a value typed before decided it).
    const typedBefore = node(click, { state: { ahead: [], valueHashes: {} } });
    expect(learnFromPath({ steps: [{ node: typedBefore, isNew: false, byAgent: true }], params, valueHashes: hashes, endedByAgent: false, newEnd: false, forks: { steps: new Set([typedBefore.id]), ends: new Set<string>() } })).toEqual([
      { id: typedBefore.id, state: { add: { alsoUnder: [{ ahead: [], valueHashes: { times: hashes.times } }] } } },
    ]);
  });
});
