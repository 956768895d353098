import { describe, expect, it } from 'vitest';
import { secret } from '../../params/secret.js';
import { jobSpecSchema } from '../jobSpec.js';
import type { PreparedJob } from '../prepareJob.js';
import { rowJobSchema, rowJobsOf } from './rowJob.js';

const task = { id: 'key-1', taskTemplate: 'Log in as {{user}}', tags: [], startUrl: 'http://127.0.0.1:1/login', paramNames: ['user', 'password'], paramSchema: null, createdAt: 1, updatedAt: 1 };

function prepared(overrides: Partial<PreparedJob> = {}): PreparedJob {
  const spec = jobSpecSchema.parse({ task: 'key-1', secrets: { password: 'PORTAL_PW' }, params: { site: 'north' }, retry: { attempts: 3, backoffMs: 1500 }, timeout: 20_000 });
  return {
    spec,
    task,
    url: 'http://127.0.0.1:1/login',
    rows: [
      { index: 1, params: { site: 'north', password: secret('hunter2'), user: 'ada' }, values: { user: 'ada' } },
      { index: 2, params: { site: 'north', password: secret('hunter2'), user: 'bob' }, values: { user: 'bob' } },
    ],
    agent: { name: 'none', description: 'none', create: undefined },
    fromFolder: false,
    ...overrides,
  };
}

describe('rowJobsOf', () => {
  it('makes one job per row with its plain values; a secret travels only as the name of its variable', () => {
    const jobs = rowJobsOf(prepared(), 'batch-1');
    expect(jobs).toEqual([
      { v: 1, batch: 'batch-1', row: 1, taskKey: 'key-1', url: 'http://127.0.0.1:1/login', values: { site: 'north', user: 'ada' }, secrets: { password: 'PORTAL_PW' }, mode: 'auto', agent: 'none', timeout: 20_000, attempts: 3, backoffMs: 1500, headed: false },
      expect.objectContaining({ row: 2, values: { site: 'north', user: 'bob' } }),
    ]);
    expect(JSON.stringify(jobs)).not.toContain('hunter2');
    for (const job of jobs) expect(rowJobSchema.parse(job)).toEqual(job);
  });

  it("gives each run the engine's default deadline when the job sets none, so a job's expiry is always known", () => {
    const spec = { ...prepared().spec, timeout: undefined };
    expect(rowJobsOf(prepared({ spec }), 'b').map((job) => job.timeout)).toEqual([300_000, 300_000]);
  });

  it('refuses a secret value that is not declared as a secret rather than queue it', () => {
    const rows = [{ index: 1, params: { user: 'ada', token: secret('s3cr3t') }, values: { user: 'ada' } }];
    expect(() => rowJobsOf(prepared({ rows }), 'b')).toThrowError(/row parameter token is not a plain value/);
  });
});
