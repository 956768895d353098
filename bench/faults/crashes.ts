import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import type { IntakeApp } from '../../src/demo/app/server.js';
import { INTAKE_TASK } from '../../src/demo/patients.js';
import { Rote } from '../../src/rote.js';
import { CRASH_PATIENTS, wrongSubmissions } from './crashPatients.js';
import type { FaultOutcome } from './faultOutcome.js';
import { storeProblems } from './storeProblems.js';
import { within } from './within.js';

export type CrashKind = 'record' | 'replay' | 'takeover' | 'daemon';

export type CrashEnvironment = {
  app: IntakeApp;
  browser: Browser;
  storePath: string;
  /** The built package's root (dist/ holds the child scripts and the CLI). */
  root: string;
  /** A folder for the daemon's rows file. */
  dir: string;
  random: () => number;
  log: (line: string) => void;
};

/** A child that has not reached the moment to kill within this long is hung. */
const START_LIMIT_MS = 45_000;
/** After SIGKILL, the child and its browser are gone within this long, or it is a hang. */
const EXIT_LIMIT_MS = 10_000;
/** The kill comes this long at most into the run (a replayed intake run takes about 1.5 s, a recorded one 2 to 3 s). */
const KILL_WINDOW_MS = { record: 3000, replay: 1800, takeover: 3000, daemon: 3000 } as const;

/**
 * Crashes, one or two at once: the work of `kind` is started in child processes on the same store
 * (each in its own process group, so its browser dies with it), and each is SIGKILLed at a random
 * moment of a run; then the next process opens the store as they left it, and the same task is
 * replayed with new values once per crash. Clean: the store is consistent (see storeProblems), the
 * next run replays every step from the cache, nothing was submitted with values no run was given,
 * and no child hung before the kill nor after. Two at once because a crash mostly waits (for a
 * child to start, for its moment): a pair saves the suite's time, and each kill lands while
 * another process writes the store.
 */
export async function injectCrashes(kind: CrashKind, env: CrashEnvironment, indexes: readonly number[]): Promise<FaultOutcome[]> {
  const { app } = env;
  const submittedBefore = app.submissions.length;
  app.setPerturbations({ sessionPopup: kind === 'takeover' });
  const kills = await Promise.all(indexes.map(() => killOne(kind, env)));
  app.setPerturbations({ sessionPopup: false });
  const wrong = wrongSubmissions(app.submissions.slice(submittedBefore));
  const outcomes: FaultOutcome[] = [];
  for (const [at, kill] of kills.entries()) {
    const index = indexes[at]!;
    const problems = await storeProblems(env.storePath);
    const next = problems.length === 0 ? await replayOnce(env, index) : 'not tried: the store is not consistent';
    const notes = [...problems, ...(next === 'replayed' ? [] : [`the next run: ${next}`]), ...(kill.reached ? [] : ['the child never reached the moment to kill']), ...(kill.gone ? [] : ['the child outlived SIGKILL'])];
    // Submissions are the pair's: a wrong one is counted once, on the first.
    const own = at === 0 ? wrong : 0;
    env.log(`crash ${kind} #${index}: killed ${kill.delay} ms into ${kind === 'daemon' ? 'a slot' : `run ${kill.runsBeforeKill}`}; ${notes.length === 0 && own === 0 ? 'clean' : [...notes, ...(own > 0 ? [`${own} wrong submission(s)`] : [])].join('; ')}`);
    outcomes.push({ kind: `crash: ${kind}`, clean: notes.length === 0 && own === 0, lost: problems.length > 0, wrong: own, hang: !kill.reached || !kill.gone, notes });
  }
  return outcomes;
}

/** One child started and SIGKILLed at a random moment of a run (of a slot, for the daemon). */
async function killOne(kind: CrashKind, env: CrashEnvironment): Promise<{ reached: boolean; gone: boolean; delay: number; runsBeforeKill: number }> {
  const child = kind === 'daemon' ? startDaemon(env) : startChild(env, kind);
  // Mostly the first run (a process killed in its first run is the common crash, and it keeps the suite short), sometimes the second.
  const runsBeforeKill = env.random() < 0.25 ? 1 : 0;
  const delay = Math.round(env.random() * KILL_WINDOW_MS[kind]);
  const reached = await waitForOutput(child, kind === 'daemon' ? /slot \S+ started/ : new RegExp(`^run ${runsBeforeKill}$`, 'm'), START_LIMIT_MS);
  if (reached) await new Promise((resolve) => setTimeout(resolve, delay));
  const exited = killGroup(child);
  const gone = await within(exited.then(() => true), EXIT_LIMIT_MS, false);
  return { reached, gone, delay, runsBeforeKill };
}

function startChild(env: CrashEnvironment, kind: Exclude<CrashKind, 'daemon'>): ChildProcess {
  const script = join(env.root, 'dist', 'bench', 'faults', 'crashChild.js');
  return spawn(process.execPath, [script, env.storePath, env.app.url, kind], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The daemon with a schedule by the second over six rows, two at once, with the demo agent. */
function startDaemon(env: CrashEnvironment): ChildProcess {
  const cli = join(env.root, 'dist', 'src', 'cli', 'main.js');
  return spawn(process.execPath, [cli, 'daemon', '--store', env.storePath, '--catch-up', 'latest'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Adds the daemon's schedule (once per store): every 2 seconds, six rows, two at once. */
export async function addCrashSchedule(env: CrashEnvironment): Promise<void> {
  const rows = join(env.dir, 'rows.csv');
  const header = 'firstName,lastName,dob,state,plan,reminders,notes';
  const lines = CRASH_PATIENTS.slice(4, 10).map((p) => [p.firstName, p.lastName, p.dob, p.state, p.plan, String(p.reminders), p.notes].join(','));
  writeFileSync(rows, `${[header, ...lines].join('\n')}\n`);
  const cli = join(env.root, 'dist', 'src', 'cli', 'main.js');
  const args = ['schedule', 'add', 'crash-batch', INTAKE_TASK, '--cron', '*/2 * * * * *', '--url', env.app.url, '--rows', rows, '--concurrency', '2', '--agent', 'demo', '--store', env.storePath];
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`faults: rote schedule add failed (${code}): ${stderr}`);
}

function waitForOutput(child: ChildProcess, pattern: RegExp, limitMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = '';
    const timer = setTimeout(() => resolve(false), limitMs);
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve(true);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(pattern.test(seen));
    });
  });
}

/** SIGKILL to the child's whole process group: Node and every Chromium process it started. */
function killGroup(child: ChildProcess): Promise<void> {
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
  return exited;
}

/** The next run after the crash: the same task with values of its own, replay-only, on a page with no popup. */
async function replayOnce(env: CrashEnvironment, index: number): Promise<string> {
  const rote = await Rote.open({ store: env.storePath });
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(env.app.url);
    const params = CRASH_PATIENTS[(index + 3) % CRASH_PATIENTS.length]!;
    const result = await rote.run(page, { task: INTAKE_TASK, params, mode: 'replay-only' });
    return result.status === 'replayed' ? 'replayed' : `${result.status}: ${(result.error ?? '').split('\n')[0]}`;
  } finally {
    await page.close();
    await rote.close();
  }
}
