// `rote` CLI processes the batches start (`rote run --rows`, `rote worker`), their output kept.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI, from this file's place (dist/bench/postgres -> dist/src/cli/main.js), as `npx rote` runs it. */
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'main.js');

export type RoteProcess = { child: ChildProcess; stdout(): string; output(): string; waitFor(pattern: RegExp, timeoutMs: number): Promise<void>; exited: Promise<number | null> };

/** `node dist/src/cli/main.js ...args`, its output kept. */
export function startRote(args: readonly string[]): RoteProcess {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let output = '';
  const listeners = new Set<() => void>();
  const append = (text: string) => {
    output += text;
    listeners.forEach((listener) => listener());
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    append(chunk.toString('utf8'));
  });
  child.stderr!.on('data', (chunk: Buffer) => append(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${pattern} from rote ${args[0]} in ${timeoutMs} ms; its output:\n${output}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then(() => {
        if (!listeners.has(check)) return;
        done();
        reject(new Error(`rote ${args[0]} exited before ${pattern}; its output:\n${output}`));
      });
      check();
    });
  return { child, stdout: () => stdout, output: () => output, waitFor, exited };
}
