import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { RunMode } from '../engine/runResult.js';
import { RoteError } from '../errors/roteError.js';

/** What `use: { rote: { ... } }` in playwright.config.ts may set. */
export type RoteTestConfig = {
  /**
   * A SQLite file, relative to the config file's folder, or ':memory:'. Default ':memory:': every
   * test starts from an empty cache. A file shares what was learned across tests and runs.
   */
  store?: string;
  /** Default 'replay-only' when the `CI` environment variable is set, else 'auto'. */
  mode?: RunMode;
  /** The folder where `rote.run({ recording: 'name' })` looks, relative to the config file's folder. Default 'recordings'. */
  recordings?: string;
};

/** For `defineConfig<RoteTestOptions>({ use: { rote: { ... } } })`, which types the option. */
export type RoteTestOptions = { rote: RoteTestConfig };

export type ResolvedTestConfig = { store: string; mode: RunMode; recordings: string };

const STORE = 'must be a file path or ":memory:"';
const FOLDER = 'must be a folder path';
const configSchema = z.strictObject({
  store: z.string({ error: STORE }).trim().min(1, STORE).optional(),
  mode: z.enum(['auto', 'replay-only', 'record'], { error: 'must be "auto", "replay-only" or "record"' }).optional(),
  recordings: z.string({ error: FOLDER }).trim().min(1, FOLDER).optional(),
});

/** Validates `use.rote` and applies the defaults; relative paths are taken from `baseDir` (the config file's folder). */
export function resolveTestConfig(input: unknown, baseDir: string, env: NodeJS.ProcessEnv = process.env): ResolvedTestConfig {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new RoteError('invalid-argument', `rote/test: use.rote must be an object { store?, mode?, recordings? }, got ${JSON.stringify(input)}`);
  }
  const parsed = configSchema.safeParse(input ?? {});
  if (!parsed.success) throw new RoteError('invalid-argument', `rote/test: ${describeIssue(parsed.error.issues[0]!, input as Record<string, unknown>)}`);
  const config = parsed.data;
  const store = config.store ?? ':memory:';
  return {
    store: store === ':memory:' ? store : absolute(store, baseDir),
    mode: config.mode ?? (env.CI ? 'replay-only' : 'auto'),
    recordings: absolute(config.recordings ?? 'recordings', baseDir),
  };
}

function absolute(path: string, baseDir: string): string {
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

function describeIssue(issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  if (issue.code === 'unrecognized_keys') return `use.rote.${issue.keys[0]} is not an option (expected store, mode or recordings)`;
  const key = String(issue.path[0]);
  return `use.rote.${key} ${issue.message}, got ${JSON.stringify(input[key]) ?? String(input[key])}`;
}
