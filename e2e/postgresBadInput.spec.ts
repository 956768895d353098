import { writeFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { startIntakeApp } from '../src/demo/app/server.js';
import { Rote } from '../src/rote.js';
import { cli } from './support/cliProcess.js';
import { pgTest as test } from './support/postgresTest.js';
import { patients, patientsCsv } from './support/unattended.js';

/**
 * A PostgreSQL store that cannot be used is one clear error, before any run: which server (never
 * its password), what is wrong, and what to do. The app behind the task never sees a request.
 */

const recording = 'recordings/intake';

test('an unreachable server, a bad URL, a wrong password, a missing database: one clear error each, and nothing runs', async ({ postgres }) => {
  const app = await startIntakeApp();
  try {
    const cases: [string, RegExp][] = [
      ['postgres://rote:secret-pw@127.0.0.1:1/rote', /^rote: cannot open the store at postgres:\/\/rote@127\.0\.0\.1:1\/rote: nothing answers there \(connect ECONNREFUSED 127\.0\.0\.1:1\); is the server running, and are the host and port right\?$/],
      ['postgres://', /^rote: the store URL postgres:\/\/ names no host; expected postgres:\/\/USER:PASSWORD@HOST:PORT\/DATABASE$/],
      [`postgres://rote:secret-pw@127.0.0.1:${postgres.port}`, /names no database; expected postgres:\/\/USER:PASSWORD@HOST:PORT\/DATABASE$/],
      [`postgres://rote:secret-pw@127.0.0.1:${postgres.port}/rote`, /^rote: cannot open the store at postgres:\/\/rote@127\.0\.0\.1:\d+\/rote: the server refused the login \(password authentication failed for user "rote"\); check the user and password in the URL$/],
      [postgres.adminUrl('no_such_db'), /^rote: cannot open the store at postgres:\/\/rote@127\.0\.0\.1:\d+\/no_such_db: database "no_such_db" does not exist; create it \(createdb\) or name an existing database in the URL$/],
    ];
    for (const [store, message] of cases) {
      const error = await Rote.open({ store }).then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      expect(error?.message, store).toMatch(message);
      expect(String(error?.stack) + JSON.stringify(error)).not.toContain('secret-pw');
    }
    // The same through the CLI, as a user meets it: the message on stderr, exit 1, no run.
    const result = await cli(['run', recording, '--url', app.url, '--store', 'postgres://rote:secret-pw@127.0.0.1:1/rote']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^rote: cannot open the store at postgres:\/\/rote@127\.0\.0\.1:1\/rote: nothing answers there/);
    expect(result.stderr + result.stdout).not.toContain('secret-pw');
    expect(app.submissions).toEqual([]);
  } finally {
    await app.close();
  }
});

test('a role that may not create the tables is told so; once an owner made them, the same role uses the store', async ({ postgres }) => {
  await postgres.createRole('clerk', 'clerk-pw');
  const url = await postgres.createDatabase('clerk_store');
  const asClerk = postgres.roleUrl('clerk', 'clerk_store');
  const refused = await cli(['tasks', '--store', asClerk]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^rote: cannot create or update the store's tables at postgres:\/\/clerk@127\.0\.0\.1:\d+\/clerk_store: the role may not create the store's tables \(permission denied for .*\); grant it CREATE on the schema \(GRANT CREATE ON SCHEMA public TO \.\.\.\), or have an owner open the store once so the tables exist\n$/);
  // The owner opens it once (the tables are made); the clerk, with rights on the tables only, then works.
  expect((await cli(['import', recording, '--store', url])).code).toBe(0);
  await postgres.query('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO clerk; GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO clerk', 'clerk_store');
  const listed = await cli(['tasks', '--json', '--store', asClerk]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(JSON.parse(listed.stdout)).toHaveLength(1);
});

test('a job queue of another pg-boss version: rote worker and rote run --rows refuse it before any run', async ({ postgres, pgStore }, testInfo) => {
  const app = await startIntakeApp();
  try {
    expect((await cli(['import', recording, '--store', pgStore])).code).toBe(0);
    const database = new URL(pgStore).pathname.slice(1);
    const rows = testInfo.outputPath('rows.csv');
    writeFileSync(rows, patientsCsv(patients(3)));
    for (const [version, advice] of [
      [25, 'a newer rote made it: upgrade rote on this machine'],
      [20, 'an older rote made it: let its workers finish the queue, then drop it (DROP SCHEMA rote_queue CASCADE)'],
    ] as const) {
      await postgres.query(`DROP SCHEMA IF EXISTS rote_queue CASCADE; CREATE SCHEMA rote_queue; CREATE TABLE rote_queue.version (version int PRIMARY KEY); INSERT INTO rote_queue.version VALUES (${version})`, database);
      const expected = `the job queue at ${pgStore.replace(/:[^:@/]*@/, '@')} (schema rote_queue) is pg-boss schema version ${version}, and this rote runs version 24: ${advice}`;
      const worker = await cli(['worker', '--store', pgStore], { timeoutMs: 30_000 });
      expect(worker.code).toBe(1);
      expect(worker.stderr).toContain(expected);
      const run = await cli(['run', recording, '--url', app.url, '--rows', rows, '--store', pgStore]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(expected);
      expect(run.stdout).not.toContain('Queued');
    }
    expect(app.submissions).toEqual([]);
  } finally {
    await app.close();
  }
});
