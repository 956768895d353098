import { describe, expect, it } from 'vitest';
import { RoteError } from '../errors/roteError.js';
import { mayPass, setupFailureCode, succeeded } from './batch.js';

describe('which rows end well and which may pass on another attempt', () => {
  it('retries a crash, a timeout or a model error, never a divergence, a refused value or a stop', () => {
    expect(succeeded({ status: 'mixed' })).toBe(true);
    expect(succeeded({ status: 'interrupted' })).toBe(false);
    for (const errorCode of ['page-closed', 'timeout', 'agent'] as const) expect(mayPass({ status: 'failed', errorCode })).toBe(true);
    for (const errorCode of ['invalid-argument', 'aborted', 'tool', 'origin-not-allowed', undefined] as const) expect(mayPass({ status: 'failed', errorCode })).toBe(false);
    expect(mayPass({ status: 'diverged' })).toBe(false);
    expect(mayPass({ status: 'interrupted', errorCode: 'aborted' })).toBe(false);
  });
});

describe('a failure before the run began', () => {
  const named = (name: string) => Object.assign(new Error('x'), { name });
  const connected = { isConnected: () => true };

  it('is page-closed only when the browser or page went away, not for every error it does not know', () => {
    expect(setupFailureCode(new Error('browserContext.newPage: Target page, context or browser has been closed'), connected)).toBe('page-closed');
    expect(setupFailureCode(new Error('net::ERR_CONNECTION_REFUSED'), { isConnected: () => false })).toBe('page-closed');
    expect(setupFailureCode(named('TimeoutError'), connected)).toBe('timeout');
    expect(setupFailureCode(new Error('page.goto: net::ERR_CONNECTION_REFUSED'), connected)).toBe('internal');
    expect(setupFailureCode(new TypeError('a bug'), undefined)).toBe('internal');
    expect(setupFailureCode(new RoteError('invalid-argument', 'bad row'), connected)).toBe('invalid-argument');
  });
});
