import { describe, expect, it } from 'vitest';
import { canonical, describeAction, kindOf, pointOf, readAction, renderAction, templateAction } from './computerActions.js';

const values = new Map([
  ['first', 'Ada'],
  ['email', 'ada@example.com'],
]);

describe('computer actions as the proxy keys and serves them', () => {
  it('knows the tools action kinds and no others', () => {
    expect(kindOf({ type: 'click', x: 1, y: 2 })).toBe('pointed');
    expect(kindOf({ type: 'keypress', keys: ['ENTER'] })).toBe('keyed');
    expect(kindOf({ type: 'screenshot' })).toBe('harmless');
    expect(kindOf({ type: 'toString' })).toBeUndefined();
    expect(readAction({ type: 'click' })).toEqual({ ok: false, reason: 'a click with no point' });
    expect(readAction({ type: 'launch_missiles' })).toMatchObject({ ok: false });
    expect(pointOf({ type: 'drag', path: [{ x: 3, y: 4 }, { x: 9, y: 9 }] })).toEqual({ x: 3, y: 4 });
  });

  it('templates typed text with the declared values and renders it with another run', () => {
    const templated = templateAction({ type: 'type', text: 'Ada' }, values);
    expect(templated.ok && templated.value.level).not.toContain('Ada');
    const rendered = templated.ok ? renderAction(templated.value.template, new Map([['first', 'Joan']])) : undefined;
    expect(rendered).toEqual({ ok: true, value: { type: 'type', text: 'Joan' } });
  });

  it('never serves typed text that no declared value accounts for', () => {
    // Typed as recorded, "Lovelace" would be the last run's data.
    const templated = templateAction({ type: 'type', text: 'Ada Lovelace' }, values);
    expect(templated.ok && renderAction(templated.value.template, values)).toMatchObject({ ok: false, reason: 'the stored step types text that no declared value accounts for' });
    const bare = templateAction({ type: 'type', text: 'yes' }, values);
    expect(bare.ok && renderAction(bare.value.template, values)).toMatchObject({ ok: false });
    // A value the request does not declare is a miss, never an empty text.
    const email = templateAction({ type: 'type', text: 'ada@example.com' }, values);
    expect(email.ok && renderAction(email.value.template, new Map([['first', 'Jo']]))).toMatchObject({ ok: false });
  });

  it('keys an action the same whatever order its fields came in', () => {
    expect(canonical({ y: 2, type: 'click', x: 1 })).toBe(canonical({ type: 'click', x: 1, y: 2 }));
    expect(describeAction({ type: 'keypress', keys: ['CTRL', 'A'] })).toBe('pressed CTRL+A');
  });
});
