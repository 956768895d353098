import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secret } from '../src/params/secret.js';
import { Rote } from '../src/rote.js';
import { openStore } from '../src/store/store.js';
import { cli, startCli } from './support/cliProcess.js';
import { expect, test } from './fixtures.js';
import { loginAgent, startLoginApp } from './support/loginApp.js';

/**
 * Every byte rote writes, swept for the secret values it was given: the store and its WAL (also as
 * a killed process leaves them), what the CLI prints (runs, failures, JSON), an export, a report,
 * and the output of a run killed after it typed the secret. In every encoding a value could take.
 */

const SECRETS = ['hunter2-Sweep-one', 'Zq9-sweep-two-pw', 'x7-sweep-three-pw', 'K4-sweep-four-pw'] as const;

function forms(value: string): Buffer[] {
  return [Buffer.from(value, 'utf8'), Buffer.from(value, 'utf16le'), Buffer.from(Buffer.from(value).toString('base64')), Buffer.from(encodeURIComponent(value)), Buffer.from(JSON.stringify(value).slice(1, -1))];
}

/** Every file under `dir`, with its path. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, bytes: readFileSync(path) }];
  });
}

function leaks(where: { path: string; bytes: Buffer }[]): string[] {
  return where.flatMap(({ path, bytes }) => SECRETS.flatMap((value) => (forms(value).some((form) => bytes.includes(form)) ? [`${path} holds ${value}`] : [])));
}

test('no secret value is in any byte rote writes: store, WAL, CLI output, export, report, a killed run', async ({ context }) => {
  test.setTimeout(180_000);
  // The sweep finds a value where one is, in each of its forms.
  for (const form of forms(SECRETS[2])) expect(leaks([{ path: 'probe', bytes: Buffer.concat([Buffer.from('<'), form, Buffer.from('>')]) }])).toEqual([`probe holds ${SECRETS[2]}`]);
  const app = await startLoginApp();
  const dir = mkdtempSync(join(tmpdir(), 'rote-sweep-'));
  const store = join(dir, 'rote.db');
  const printed: { path: string; bytes: Buffer }[] = [];
  const said = (what: string, result: { stdout: string; stderr: string }) => printed.push({ path: `${what} (stdout)`, bytes: Buffer.from(result.stdout) }, { path: `${what} (stderr)`, bytes: Buffer.from(result.stderr) });
  try {
    // Recorded through the library by an agent that types the placeholder.
    const rote = await Rote.open({ store });
    const page = await context.newPage();
    await page.goto(app.url);
    const recorded = await rote.run(page, { task: 'Log in as {{user}}', params: { user: 'ada', password: secret(SECRETS[0]) }, agent: loginAgent() });
    expect(recorded.status, recorded.error).toBe('agent');
    await page.close();
    await rote.close();
    const key = recorded.taskKey;
    const run = (value: string, extra: string[] = []) => cli(['run', key, '--param', 'user=ada', '--secret', 'password=env:SWEEP_PW', '--store', store, ...extra], { env: { SWEEP_PW: value } });

    // Replayed from the CLI, with a report.
    const replayed = await run(SECRETS[1], ['--report', join(dir, 'report')]);
    said('rote run', replayed);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(app.logins.at(-1)).toEqual({ user: 'ada', password: SECRETS[1] });

    // Diverged after typing the secret (the button was renamed), as JSON: the failure is printed.
    app.buttonLabel = 'Sign in';
    const diverged = await run(SECRETS[2], ['--agent', 'none', '--json', '--report', join(dir, 'report-failed')]);
    said('rote run (diverged)', diverged);
    expect(diverged.code).toBe(1);
    expect(diverged.stdout).toContain('diverged');
    app.buttonLabel = 'Log in';

    // Killed after it typed the secret and submitted, while the app takes its time to answer.
    // 30 s: far longer than the test takes to see the login and kill the run, however busy the machine.
    app.answerDelayMs = 30_000;
    const killed = startCli(['run', key, '--param', 'user=ada', '--secret', 'password=env:SWEEP_PW', '--store', store], { env: { SWEEP_PW: SECRETS[3] } });
    await expect.poll(() => app.logins.length, { timeout: 60_000, intervals: [50] }).toBe(3);
    killed.child.kill('SIGKILL');
    await killed.exited();
    printed.push({ path: 'rote run (killed)', bytes: Buffer.from(killed.output) });
    expect(app.logins.at(-1)!.password).toBe(SECRETS[3]);
    // The store as the killed process left it, its WAL included.
    expect(readdirSync(dir)).toContain('rote.db-wal');
    expect(leaks(filesUnder(dir))).toEqual([]);

    // What the next process makes of it, and every reader's output.
    await (await openStore(store)).close();
    for (const args of [['runs', '--json'], ['runs'], ['stats'], ['tasks'], ['export', key, '--out', join(dir, 'export')], ['report', '--out', join(dir, 'report-all')]]) {
      const result = await cli([...args, '--store', store]);
      said(`rote ${args.join(' ')}`, result);
      expect(result.code, `rote ${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    expect(readdirSync(join(dir, 'export'))).toContain('recording.json');
    expect(readdirSync(join(dir, 'report-all'))).toContain('index.html');
    expect(leaks([...filesUnder(dir), ...printed])).toEqual([]);
    // The sweep can see: the values were typed, and the logins show them.
    expect(app.logins.map((login) => login.password)).toEqual([SECRETS[0], SECRETS[1], SECRETS[3]]);
  } finally {
    await app.close();
  }
});
