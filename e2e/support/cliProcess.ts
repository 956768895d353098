import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the CLI runs from its sources (tsx), as a user's `npx rote` would from the build. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts')];

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs `rote ...args` to its end. */
export function cli(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

/** A `rote` process left running (the daemon, a long batch): its output so far, a wait for a line, a signal. */
export type RunningCli = {
  child: ChildProcess;
  /** stdout and stderr as they came. */
  readonly output: string;
  readonly stdout: string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited(): Promise<number | null>;
};

export function startCli(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): RunningCli {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    listeners.forEach((listener) => listener());
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    append(chunk);
  });
  child.stderr!.on('data', append);
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    get output() {
      return output;
    },
    get stdout() {
      return stdout;
    },
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (!match) return;
          cleanup();
          resolve(match[0]);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} in ${timeoutMs} ms; output so far:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    exited: () => exit,
  };
}

/** The processes a process started (a CLI's Chromium, say), by `ps`. */
export function childPids(pid: number): Promise<{ pid: number; command: string }[]> {
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], (_error, stdout) =>
      resolve(
        stdout
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .map((line) => {
            const [id, ...command] = line.split(/\s+/);
            return { pid: Number(id), command: command.join(' ') };
          }),
      ),
    );
  });
}
