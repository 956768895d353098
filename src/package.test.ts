import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The package a project installs: `npm pack` of this repository (its `files` and `exports`, the
 * build already made by `npm test`), installed by npm into a new TypeScript project in a temporary
 * folder, then a file that imports `rote` and `rote/test` type-checked with strict settings and
 * `skipLibCheck: false` (so every declared type the package exports is checked, with only the
 * dependencies the package declares) and run.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
const work = mkdtempSync(join(tmpdir(), 'rote-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_nodedir: '/usr', npm_config_update_notifier: 'false' } });
}

describe('the packed package', () => {
  let tarball = '';
  let files: string[] = [];

  it('holds the library, the CLI, the fixture and the migrations, and nothing else', () => {
    expect(existsSync(join(ROOT, 'dist/src/index.js')), 'dist/ is missing: npm run build first (npm test does)').toBe(true);
    const [packed] = JSON.parse(sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT)) as { filename: string; files: { path: string }[] }[];
    tarball = join(work, packed!.filename);
    files = packed!.files.map((file) => file.path);
    for (const needed of ['package.json', 'README.md', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/src/test/index.js', 'dist/src/test/index.d.ts', 'drizzle/meta/_journal.json', 'drizzle/postgres/meta/_journal.json']) {
      expect(files, needed).toContain(needed);
    }
    const unwanted = files.filter((path) => /(^|\/)(e2e|bench|docs)\//.test(path) || /\.test\.|\.spec\.|\.map$|[Hh]arness|TestRows|folderFiles|demoRecording/.test(path) || !/^(dist\/src\/|drizzle\/|package\.json$|README\.md$|LICENSE)/.test(path));
    expect(unwanted).toEqual([]);
  });

  it('installs into a new TypeScript project, type-checks strictly and runs', () => {
    expect(tarball, 'the pack above must have passed').not.toBe('');
    const project = join(work, 'project');
    cpSync(join(ROOT, 'e2e/support/packageProject'), project, { recursive: true });
    // What a TypeScript project of its own has: typescript and Node's types, at this repository's versions.
    const devDependencies = { typescript: manifest.devDependencies.typescript!, '@types/node': manifest.devDependencies['@types/node']!, '@playwright/test': manifest.devDependencies['@playwright/test']! };
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-rote', private: true, type: 'module', devDependencies }, null, 2));
    // From npm's cache where it can (npm ci filled it); better-sqlite3's native build is copied in
    // rather than compiled again (about 90 s here), so the scripts of the install are skipped.
    sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project);
    cpSync(join(ROOT, 'node_modules/better-sqlite3/build'), join(project, 'node_modules/better-sqlite3/build'), { recursive: true });

    const installed = JSON.parse(readFileSync(join(project, 'node_modules/rote/package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe(manifest.version);
    try {
      sh(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
    } catch (error) {
      throw new Error(`tsc found errors in the installed package or the file that uses it:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
    }
    const output = sh(process.execPath, ['dist/usesRote.js'], project);
    expect(output).toContain('rote: opened and closed an in-memory store');
    expect(sh(process.execPath, [join(project, 'node_modules/rote/dist/src/cli/main.js'), '--version'], project).trim()).toBe(manifest.version);
  }, 300_000);
});
