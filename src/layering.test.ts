import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Which folder of src/ may import which, as Chromium's DEPS files say it: a folder imports only
 * the folders below it, so the layers read bottom-up and a cycle cannot form. A new arrow is a
 * design decision: add it here, in the same change, and say why in its commit.
 * `rote` and `index` are src/rote.ts and src/index.ts.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  errors: [],
  progress: ['errors'],
  params: ['errors'],
  actions: ['errors', 'params', 'progress'],
  checks: ['errors', 'params', 'progress'],
  agent: ['errors', 'actions'],
  browser: ['errors'],
  tools: ['errors', 'actions', 'checks'],
  store: ['errors'],
  // The node model the engine, the stores' readers, recordings and the report share.
  trajectory: ['errors', 'actions', 'checks', 'params', 'store'],
  recorder: ['errors', 'actions', 'agent', 'params'],
  engine: ['errors', 'progress', 'params', 'actions', 'checks', 'agent', 'tools', 'store', 'trajectory'],
  rote: ['errors', 'params', 'checks', 'tools', 'store', 'trajectory', 'engine'],
  recordings: ['errors', 'actions', 'checks', 'params', 'store', 'trajectory'],
  report: ['errors', 'actions', 'store', 'trajectory', 'engine'],
  // The unattended runtime: it names agents but is given the table that makes them (the CLI's).
  scheduler: ['errors', 'progress', 'params', 'agent', 'browser', 'store', 'recordings', 'report', 'engine', 'rote'],
  // The OpenAI-compatible caching proxy (issue 27): conversations as trees in the store; its
  // computer-use steps (issue 28) are checked on the agent's screenshot with checks/screenshotCrop.ts.
  proxy: ['errors', 'params', 'checks', 'store', 'trajectory'],
  test: ['errors', 'actions', 'tools', 'store', 'recordings', 'engine', 'rote'],
  index: ['errors', 'progress', 'params', 'actions', 'checks', 'agent', 'browser', 'tools', 'store', 'trajectory', 'recorder', 'engine', 'rote', 'recordings', 'report'],
  demo: ['errors', 'progress', 'params', 'actions', 'checks', 'agent', 'browser', 'tools', 'store', 'trajectory', 'recorder', 'engine', 'rote', 'recordings', 'report', 'scheduler'],
  cli: ['errors', 'progress', 'params', 'actions', 'checks', 'agent', 'browser', 'tools', 'store', 'trajectory', 'recorder', 'engine', 'rote', 'recordings', 'report', 'scheduler', 'demo', 'proxy'],
};

/** Each vendor's package is imported where its adapter is, and nowhere else. */
const VENDOR_HOMES: Record<string, readonly string[]> = {
  openai: ['agent/openai/openaiClient.ts'],
  'pg-boss': ['scheduler/queue/jobQueue.ts'],
  pg: ['store/postgres/'],
  'better-sqlite3': ['store/'],
  'drizzle-orm': ['store/'],
  pixelmatch: ['checks/'],
  sharp: ['checks/'],
  croner: ['scheduler/cronSlots.ts'],
  commander: ['cli/'],
};

const SRC = dirname(fileURLToPath(import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Tests and type checks are not shipped: they may reach test support in e2e/ and any folder. */
const isShipped = (path: string) => !/\.(test|check)\.ts$/.test(path);

/** A file's folder under src/, or the name of a file at src/'s top (rote, index). */
function areaOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.(ts|js)$/, '');
}

function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*'([^']+)'|(?:^|\n)\s*import\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map((match) => (match[1] ?? match[2] ?? match[3])!);
}

function arrows(): { from: string; file: string; target: string }[] {
  return sourceFiles(SRC)
    .filter(isShipped)
    .flatMap((file) => importsOf(file).map((target) => ({ from: areaOf(file), file: relative(SRC, file), target })));
}

describe('the layering of src/', () => {
  it('names every folder of src/ in the table', () => {
    const areas = new Set(sourceFiles(SRC).filter(isShipped).map(areaOf));
    expect([...areas].filter((area) => !(area in MAY_IMPORT)).sort()).toEqual([]);
  });

  it('has no folder import one the table does not allow it (the arrows point down)', () => {
    const wrong = arrows()
      .filter(({ target }) => target.startsWith('.'))
      .map((arrow) => ({ ...arrow, to: relative(SRC, resolve(SRC, dirname(arrow.file), arrow.target)) }))
      .filter(({ to }) => !to.startsWith('..'))
      .map((arrow) => ({ ...arrow, area: areaOf(join(SRC, arrow.to)) }))
      .filter(({ from, area }) => area !== from && !MAY_IMPORT[from]?.includes(area))
      .map(({ file, target, from, area }) => `${file} imports ${target}: ${from} may not import ${area}`);
    expect(wrong).toEqual([]);
  });

  it('ships nothing that imports tests, e2e/ or bench/', () => {
    const outside = arrows()
      .filter(({ target }) => target.startsWith('.'))
      .filter(({ file, target }) => relative(SRC, resolve(SRC, dirname(file), target)).startsWith('..') || /\.test\.js$/.test(target))
      .map(({ file, target }) => `${file} imports ${target}`);
    expect(outside).toEqual([]);
  });

  it('imports each vendor package only in its adapter', () => {
    const stray = arrows()
      .filter(({ target }) => !target.startsWith('.') && !target.startsWith('node:'))
      .map((arrow) => ({ ...arrow, vendor: Object.keys(VENDOR_HOMES).find((name) => arrow.target === name || arrow.target.startsWith(`${name}/`)) }))
      .filter(({ vendor, file }) => vendor !== undefined && !VENDOR_HOMES[vendor]!.some((home) => file.split(sep).join('/').startsWith(home)))
      .map(({ file, target }) => `${file} imports ${target}`);
    expect(stray).toEqual([]);
  });
});

/** The one module that writes a node (see trajectory/nodeBuilder.ts). */
const NODE_WRITER = join('trajectory', 'nodeBuilder.ts');

/**
 * Assignments to a node's fields: its state or a key of it (set, deleted, merged into), where it
 * ends or re-joins, its action. The stores apply links to stored rows, and are not node writers.
 */
const NODE_WRITES = [/\.state(\.\w+)?\s*(=(?!=)|\+\+)/, /delete\s+[\w.]+\.state\b/, /Object\.assign\(\s*[\w.]+\.state\b/, /\b(?:node|step|holder|fresh)\.(?:endsRun|resumeAtId|action)\s*=(?!=)/];
const WRITER_AREAS = ['engine', 'trajectory', 'recordings', 'report', 'checks', 'rote'];

describe("a node's writer", () => {
  it('is trajectory/nodeBuilder.ts alone: every other module builds a node there or hands it a patch', () => {
    const writes = sourceFiles(SRC)
      .filter(isShipped)
      .filter((file) => WRITER_AREAS.includes(areaOf(file)) && relative(SRC, file) !== NODE_WRITER)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (NODE_WRITES.some((pattern) => pattern.test(line)) ? [`${relative(SRC, file)}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(writes).toEqual([]);
  });
});
