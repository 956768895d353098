import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { secret } from '../src/params/secret.js';
import { Rote } from '../src/rote.js';
import { cli, startCli } from './support/cliProcess.js';
import { loginAgent, startLoginApp } from './support/loginApp.js';
import { pgTest as test } from './support/postgresTest.js';

/**
 * On a PostgreSQL store the secrets of queued rows stay on the machines that run them: the queue
 * holds the names of their environment variables, never a value. Swept on the server's disk
 * itself (every file of its data directory, the write-ahead log included, after a checkpoint) and
 * in everything the CLI and the workers print.
 */

const SECRETS = ['pg-Sweep-one-pw', 'pg-sweep-TWO-pw'] as const;

function forms(value: string): Buffer[] {
  return [Buffer.from(value, 'utf8'), Buffer.from(value, 'utf16le'), Buffer.from(Buffer.from(value).toString('base64')), Buffer.from(encodeURIComponent(value)), Buffer.from(JSON.stringify(value).slice(1, -1))];
}

function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return [];
    return stat.isDirectory() ? filesUnder(path) : [{ path, bytes: readFileSync(path) }];
  });
}

function leaks(where: { path: string; bytes: Buffer }[]): string[] {
  return where.flatMap(({ path, bytes }) => SECRETS.flatMap((value) => (forms(value).some((form) => bytes.includes(form)) ? [`${path} holds ${value}`] : [])));
}

test('queued rows with a secret: no value on the server (data files, WAL, dump) nor in any output', async ({ postgres, pgStore, browser }, testInfo) => {
  test.setTimeout(180_000);
  for (const form of forms(SECRETS[1])) expect(leaks([{ path: 'probe', bytes: Buffer.concat([Buffer.from('<'), form, Buffer.from('>')]) }])).toEqual([`probe holds ${SECRETS[1]}`]);
  const app = await startLoginApp();
  const env = { SWEEP_PW: SECRETS[1] };
  const worker = startCli(['worker', '--store', pgStore, '--concurrency', '1'], { env });
  try {
    const rote = await Rote.open({ store: pgStore });
    const page = await browser.newPage();
    await page.goto(app.url);
    const recorded = await rote.run(page, { task: 'Log in as {{user}}', params: { user: 'ada', password: secret(SECRETS[0]) }, agent: loginAgent() });
    await page.close();
    await rote.close();
    expect(recorded.status, recorded.error).toBe('agent');

    const rows = testInfo.outputPath('rows.csv');
    writeFileSync(rows, 'user\nada\nada\n');
    await worker.waitFor(/rote worker \(process \d+\)/, 60_000);
    const run = await cli(['run', recorded.taskKey, '--url', app.url, '--rows', rows, '--secret', 'password=env:SWEEP_PW', '--json', '--store', pgStore], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(app.logins.slice(-2)).toEqual([
      { user: 'ada', password: SECRETS[1] },
      { user: 'ada', password: SECRETS[1] },
    ]);

    const database = new URL(pgStore).pathname.slice(1);
    await postgres.query('CHECKPOINT', database);
    const dump = execFileSync('/usr/lib/postgresql/15/bin/pg_dump', ['--dbname', postgres.adminUrl(database)], { maxBuffer: 256 * 1024 * 1024 });
    // The queue's jobs are in the dump: what would hold a value if one were queued.
    expect(dump.toString('utf8')).toContain('SWEEP_PW');
    // The sweep reads the server's own files: the queue's rows are in them, with the variable's name.
    const serverFiles = filesUnder(postgres.dataDir);
    expect(serverFiles.some((file) => file.bytes.includes(Buffer.from('SWEEP_PW')))).toBe(true);
    worker.child.kill('SIGTERM');
    expect(await worker.exited()).toBe(0);
    expect(
      leaks([
        ...serverFiles,
        { path: 'pg_dump', bytes: dump },
        { path: 'rote run', bytes: Buffer.from(run.stdout + run.stderr) },
        { path: 'rote worker', bytes: Buffer.from(worker.output) },
      ]),
    ).toEqual([]);
  } finally {
    if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await app.close();
  }
});
