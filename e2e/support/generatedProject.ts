/**
 * A folder of generated Playwright Test files (config, specs) inside the repo, run by the real
 * test runner in a child process: how Playwright tests its own fixtures. Inside the repo so the
 * files resolve @playwright/test and the demo app as any file here does; `rote/test` resolves
 * through a generated tsconfig.json `paths` entry to src/test/index.ts, so the specs read as a
 * user's do and run the current source (no build needed, and the same module the e2e suite uses).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** Git-ignored; not test-results/, which a concurrent run of the runner empties at its start. */
const GENERATED = join(REPO, '.generated-tests');

export type RunnerOutcome = { exitCode: number | null; output: string };

export class GeneratedProject {
  readonly dir: string;

  constructor(name: string) {
    this.dir = join(GENERATED, `${name}-${randomUUID().slice(0, 8)}`);
    mkdirSync(this.dir, { recursive: true });
    this.write('tsconfig.json', JSON.stringify({ extends: relative(this.dir, join(REPO, 'tsconfig.json')), compilerOptions: { paths: { 'rote/test': [join(REPO, 'src/test/index.ts')] } } }, null, 2));
  }

  /** A path from this folder to a file of the repo, for imports and config paths. */
  repoPath(path: string): string {
    const from = relative(this.dir, join(REPO, path));
    return from.startsWith('.') ? from : `./${from}`;
  }

  write(file: string, text: string): void {
    mkdirSync(dirname(join(this.dir, file)), { recursive: true });
    writeFileSync(join(this.dir, file), text);
  }

  read(file: string): string {
    return readFileSync(join(this.dir, file), 'utf8');
  }

  /** `npx playwright test` on this folder's config; the parent runner's worker variables are not passed on. */
  async run(env: Record<string, string | undefined> = {}): Promise<RunnerOutcome> {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(PLAYWRIGHT_|PW_|TEST_WORKER_INDEX|TEST_PARALLEL_INDEX|FORCE_COLOR|DEBUG_COLORS|CI$)/.test(key)));
    const child = spawn('npx', ['playwright', 'test', '-c', join(this.dir, 'playwright.config.ts')], {
      cwd: REPO,
      env: { ...inherited, ...env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { exitCode, output };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The shared part of a generated config: the e2e suite's browser and viewport, one worker, no retries. */
export function configHead(project: GeneratedProject): string {
  return `import { defineConfig } from '@playwright/test';
import type { RoteTestOptions } from 'rote/test';
import { CHROMIUM_ARGS } from '${project.repoPath('src/browser/launch.js')}';
import { findChromium } from '${project.repoPath('src/browser/findChromium.js')}';

const browser = { viewport: { width: 1280, height: 800 }, launchOptions: { executablePath: findChromium().path, args: CHROMIUM_ARGS } };
`;
}
