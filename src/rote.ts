import type { Page } from 'playwright';
import { runTask } from './engine/runTask.js';
import { planRun } from './engine/runPlan.js';
import { validateRunOptions, type RunOptions } from './engine/runOptions.js';
import type { RunResult } from './engine/runResult.js';
import { RoteError } from './errors/roteError.js';
import { scrubError } from './params/scrubError.js';
import { secretsPassed } from './params/secret.js';
import { openStore, type Store } from './store/store.js';
import { ToolRegistry, type ToolFunction, type ToolOptions } from './tools/toolRegistry.js';

export const DEFAULT_STORE = '.rote/rote.db';

export type RoteOptions = {
  /**
   * A SQLite file path, ':memory:', or a postgres:// URL of a PostgreSQL server that many machines
   * share. Default `.rote/rote.db` in the working directory.
   */
  store?: string;
};

/** Muscle memory for browser agents: record a task once, replay it with new values, hand over only where the page differs. */
export class Rote {
  private closed = false;
  private readonly tools = new ToolRegistry();

  private constructor(readonly store: Store) {}

  static async open(options: RoteOptions = {}): Promise<Rote> {
    if (typeof options !== 'object' || options === null) throw new RoteError('invalid-argument', `Rote.open: expected { store?: string }, got ${String(options)}`);
    const path = options.store ?? DEFAULT_STORE;
    if (typeof path !== 'string' || path.trim() === '') throw new RoteError('invalid-argument', `Rote.open: options.store must be a file path, ":memory:" or a postgres:// URL, got ${JSON.stringify(path)}`);
    return new Rote(await openStore(path));
  }

  /**
   * Registers a custom tool the agent may call (`{ type: 'tool', name, args }`). A call is
   * recorded like an action and replayed with this run's values; `preCheck` decides before the
   * replayed call whether the situation is the recorded one (a failure hands over to the agent, or
   * ends a replay-only run as `diverged`), `postCheck` after it. Returns this Rote, for chaining.
   */
  tool<Pre = unknown, Post = unknown>(name: string, fn: ToolFunction, options?: ToolOptions<Pre, Post>): this {
    if (this.closed) throw new RoteError('invalid-argument', `rote.tool(${JSON.stringify(name)}): this Rote is closed`);
    this.tools.register(name, fn, options);
    return this;
  }

  /** Does `task` on `page`: from the cache where every check passes, with the agent elsewhere. */
  async run(page: Page, options: RunOptions): Promise<RunResult> {
    return this.runFor(page, options, undefined);
  }

  /** `run` for a queue worker: the run's record names the job, so a retry of the job can close it out. */
  async runJob(page: Page, options: RunOptions, jobId: string): Promise<RunResult> {
    return this.runFor(page, options, jobId);
  }

  private async runFor(page: Page, options: RunOptions, jobId: string | undefined): Promise<RunResult> {
    // Nothing thrown out of a run shows a secret value: not its message, its stack, nor its causes.
    const secrets = new Set(secretsPassed((options as { params?: unknown } | undefined)?.params));
    try {
      return await this.runUnscrubbed(page, options, secrets, jobId);
    } catch (error) {
      throw scrubError(error, secrets);
    }
  }

  /** `run` itself; `secrets` collects the values of the params bound as secret (a schema may make one so). */
  private async runUnscrubbed(page: Page, options: RunOptions, secrets: Set<string>, jobId: string | undefined): Promise<RunResult> {
    const valid = validateRunOptions(options);
    const where = `rote.run(${JSON.stringify(valid.task)})`;
    if (this.closed) throw new RoteError('invalid-argument', `${where}: this Rote is closed`);
    if (!isPage(page)) throw new RoteError('invalid-argument', `${where}: expected a Playwright Page as the first argument, got ${describe(page)}`);
    if (page.isClosed()) throw new RoteError('page-closed', `${where}: the page is closed; open a new page before running`);
    return runTask(await planRun({ page, store: this.store, tools: this.tools, options: valid, where, jobId, secrets }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.store.close();
  }
}

function isPage(value: unknown): value is Page {
  return typeof value === 'object' && value !== null && typeof (value as Page).isClosed === 'function' && typeof (value as Page).mouse === 'object';
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return typeof value === 'object' ? `an object without Page methods` : `${typeof value} ${JSON.stringify(value)}`;
}
