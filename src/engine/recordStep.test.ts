import { describe, expect, it } from 'vitest';
import { bindParams } from '../params/params.js';
import { secret } from '../params/secret.js';
import { literalGuards, SECRET_GUARD, valueHashesOf } from './paramBindings.js';
import { templatedAction } from './recordStep.js';

describe('templatedAction and secrets inside a longer text', () => {
  const params = bindParams({ pin: secret('1990'), user: 'ada' }, 'w');

  it('hides a secret found by its value inside other text, and guards it: nothing proves it stood there', () => {
    const typed = { type: 'type', text: '1990-04-01' } as const;
    const stored = templatedAction(typed, params);
    expect(stored.action).toEqual({ type: 'type', text: '{{pin}}-04-01' });
    expect(stored.literal).toEqual(['pin']);
  });

  it('trusts a secret the agent typed by name, and one that is the whole text', () => {
    const asGiven = { type: 'type', text: 'PIN {{pin}} for {{user}}' } as const;
    const stored = templatedAction({ type: 'type', text: 'PIN 1990 for ada' }, params, asGiven);
    expect(stored.action).toEqual({ type: 'type', text: 'PIN {{pin}} for {{user}}' });
    expect(stored.literal).toEqual([]);
    expect(templatedAction({ type: 'type', text: '1990' }, params).literal).toEqual([]);
    // A word of its own, or a whole part of a URL, stands for the secret however it came.
    expect(templatedAction({ type: 'type', text: 'PIN 1990 please' }, params).literal).toEqual([]);
    const url = templatedAction({ type: 'goto', url: 'http://a.test/unlock/1990?code=1990&u=ada' }, params);
    expect(url.action).toEqual({ type: 'goto', url: 'http://a.test/unlock/{{pin}}?code={{pin}}&u={{user}}' });
    expect(url.literal).toEqual([]);
    expect(templatedAction({ type: 'goto', url: 'http://a.test/day/1990-04-01' }, params).literal).toEqual(['pin']);
  });

  it('lets a secret typed by name vouch only for as many places as it was typed', () => {
    const asGiven = { type: 'type', text: 'PIN {{pin}}, valid from 1990-04-01' } as const;
    const stored = templatedAction({ type: 'type', text: 'PIN 1990, valid from 1990-04-01' }, params, asGiven);
    expect(stored.action).toEqual({ type: 'type', text: 'PIN {{pin}}, valid from {{pin}}-04-01' });
    expect(stored.literal).toEqual(['pin']);
  });

  it('guards a secret in literal text with a mark no run matches, never its hash', () => {
    const guards = literalGuards(['pin', 'user', 'missing'], params, 'salt');
    expect(guards?.pin).toBe(SECRET_GUARD);
    expect(guards?.user).toMatch(/^[0-9a-f]{20}$/);
    expect(Object.keys(guards ?? {})).toEqual(['pin', 'user']);
    const hashes = valueHashesOf(params, 'salt');
    expect(hashes.pin).toBeUndefined();
    expect(Object.values(hashes)).not.toContain(SECRET_GUARD);
  });
});
