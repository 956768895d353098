import { describe, expect, it } from 'vitest';
import { parseOnFailure } from '../scheduler/notify.js';
import { specFrom } from './jobArgs.js';

describe('specFrom: the job options of rote run and rote schedule add', () => {
  it('builds the job with defaults', () => {
    expect(specFrom('task', { param: ['a=1', 'b=x=y'], secret: ['pw=env:PORTAL_PW'], concurrency: 3, retry: 2 }, 'w')).toEqual({
      task: 'task',
      params: { a: '1', b: 'x=y' },
      secrets: { pw: 'PORTAL_PW' },
      agent: 'none',
      mode: 'auto',
      concurrency: 3,
      retry: { attempts: 2, backoffMs: 2000 },
      headed: false,
    });
  });

  it('refuses what would be ignored or mistaken, naming the option', () => {
    expect(() => specFrom('t', { backoff: 500 }, 'w')).toThrow('w: --backoff sets the wait between attempts; give --retry N (N > 1) too');
    expect(() => specFrom('t', { model: 'gpt-x' }, 'w')).toThrow('w: --model names the model of --agent openai; give --agent openai too');
    expect(() => specFrom('t', { secret: ['pw=hunter2'] }, 'w')).toThrow('--secret "pw=hunter2": expected name=env:VARIABLE');
    expect(() => specFrom('t', { param: ['a=1', 'a=2'] }, 'w')).toThrow('w: --param a is given twice');
    expect(() => specFrom('t', { url: 'ftp://x' }, 'w')).toThrow('w: --url must be an http(s) URL');
    expect(() => specFrom('t', { concurrency: 99 }, 'w')).toThrow('w: --concurrency');
  });
});

describe('parseOnFailure', () => {
  it('takes an http(s) URL that parses, or else a command', () => {
    expect(parseOnFailure('https://hooks.example/rote')).toEqual({ ok: true, value: { url: 'https://hooks.example/rote' } });
    expect(parseOnFailure('mail -s failed ops@example')).toEqual({ ok: true, value: { command: 'mail -s failed ops@example' } });
    expect(parseOnFailure('https://')).toMatchObject({ ok: false, reason: expect.stringContaining('--on-failure "https://" is not a valid http(s) URL') });
    expect(parseOnFailure('http://exa mple.com')).toMatchObject({ ok: false, reason: expect.stringContaining('is not a valid http(s) URL') });
  });
});
