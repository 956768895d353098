import { describe, expect, it } from 'vitest';
import { resolveTestConfig } from './testOptions.js';

describe('resolveTestConfig', () => {
  it('defaults: a fresh in-memory store, auto mode without CI, recordings/ next to the config', () => {
    expect(resolveTestConfig({}, '/repo', {})).toEqual({ store: ':memory:', mode: 'auto', recordings: '/repo/recordings' });
    expect(resolveTestConfig(undefined, '/repo', {})).toEqual({ store: ':memory:', mode: 'auto', recordings: '/repo/recordings' });
  });

  it('is replay-only in CI unless the config says otherwise', () => {
    expect(resolveTestConfig({}, '/repo', { CI: '1' }).mode).toBe('replay-only');
    expect(resolveTestConfig({ mode: 'auto' }, '/repo', { CI: 'true' }).mode).toBe('auto');
    expect(resolveTestConfig({}, '/repo', { CI: '' }).mode).toBe('auto');
  });

  it('takes relative paths from the config file folder and keeps absolute ones', () => {
    expect(resolveTestConfig({ store: '.rote/test.db', recordings: '/abs/recs' }, '/repo', {})).toEqual({ store: '/repo/.rote/test.db', mode: 'auto', recordings: '/abs/recs' });
  });

  it('names the option, the value and what was expected', () => {
    expect(() => resolveTestConfig({ mode: 'fast' }, '/repo', {})).toThrow(`rote/test: use.rote.mode must be "auto", "replay-only" or "record", got "fast"`);
    expect(() => resolveTestConfig({ store: '' }, '/repo', {})).toThrow('rote/test: use.rote.store must be a file path or ":memory:", got ""');
    expect(() => resolveTestConfig({ recording: 'intake' }, '/repo', {})).toThrow('rote/test: use.rote.recording is not an option (expected store, mode or recordings)');
    expect(() => resolveTestConfig('memory', '/repo', {})).toThrow('rote/test: use.rote must be an object { store?, mode?, recordings? }, got "memory"');
  });
});
