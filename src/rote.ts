import type { Page } from 'playwright';
import { RunContext } from './engine/runContext.js';
import { RunLoop } from './engine/runLoop.js';
import { validateRunOptions, type RunOptions } from './engine/runOptions.js';
import type { RunResult } from './engine/runResult.js';
import { RoteError } from './errors/roteError.js';
import { bindParams } from './params/params.js';
import { taskIdentity } from './params/taskKey.js';
import { Store } from './store/store.js';

export const DEFAULT_STORE = '.rote/rote.db';

export type RoteOptions = {
  /** A SQLite file path, or ':memory:'. Default `.rote/rote.db` in the working directory. */
  store?: string;
};

/** Muscle memory for browser agents: record a task once, replay it with new values, hand over only where the page differs. */
export class Rote {
  private closed = false;

  private constructor(readonly store: Store) {}

  static async open(options: RoteOptions = {}): Promise<Rote> {
    if (typeof options !== 'object' || options === null) throw new RoteError('invalid-argument', `Rote.open: expected { store?: string }, got ${String(options)}`);
    const path = options.store ?? DEFAULT_STORE;
    if (typeof path !== 'string' || path.trim() === '') throw new RoteError('invalid-argument', `Rote.open: options.store must be a file path or ":memory:", got ${JSON.stringify(path)}`);
    return new Rote(Store.open(path));
  }

  /** Does `task` on `page`: from the cache where every check passes, with the agent elsewhere. */
  async run(page: Page, options: RunOptions): Promise<RunResult> {
    const valid = validateRunOptions(options);
    const where = `rote.run(${JSON.stringify(valid.task)})`;
    if (this.closed) throw new RoteError('invalid-argument', `${where}: this Rote is closed`);
    if (!isPage(page)) throw new RoteError('invalid-argument', `${where}: expected a Playwright Page as the first argument, got ${describe(page)}`);
    if (page.isClosed()) throw new RoteError('page-closed', `${where}: the page is closed; open a new page before running`);
    const params = bindParams(valid.params, where);
    const identity = taskIdentity(valid.task, params, valid.tags, page.url(), where);
    const stored = this.store.getTask(identity.key);
    const missing = (stored?.paramNames ?? []).filter((name) => !(name in params));
    if (missing.length > 0) {
      throw new RoteError(
        'invalid-argument',
        `${where}: the recorded trajectory uses ${missing.map((name) => `{{${name}}}`).join(', ')}, but params has no ${missing.join(', ')} (given: ${Object.keys(params).join(', ') || 'none'})`,
      );
    }
    const context = new RunContext(where, valid.timeout, valid.signal);
    const loop = new RunLoop({
      page,
      store: this.store,
      identity,
      task: valid.task,
      params,
      agent: valid.agent,
      mode: valid.mode,
      limits: { checkTimeoutMs: valid.checkTimeout, maxAgentCalls: valid.maxAgentCalls, maxSteps: valid.maxSteps },
      context,
    });
    return loop.execute();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.store.close();
  }
}

function isPage(value: unknown): value is Page {
  return typeof value === 'object' && value !== null && typeof (value as Page).isClosed === 'function' && typeof (value as Page).mouse === 'object';
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return typeof value === 'object' ? `an object without Page methods` : `${typeof value} ${JSON.stringify(value)}`;
}
