import { describe, expect, it } from 'vitest';
import { mayPass, succeeded } from './batch.js';

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
