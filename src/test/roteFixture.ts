import type { Page, TestInfo } from '@playwright/test';
import type { RunOptions } from '../engine/runOptions.js';
import type { RunMode, RunResult } from '../engine/runResult.js';
import { RoteError } from '../errors/roteError.js';
import type { Rote } from '../rote.js';
import type { ToolFunction, ToolOptions } from '../tools/toolRegistry.js';
import { importRecordingFolder, recordingFolder, type ImportedRecording } from './recordingSource.js';
import { describeOutcome, runReport } from './runSummary.js';
import { assertedResults } from './toBeReplayed.js';
import type { ResolvedTestConfig } from './testOptions.js';

/** `rote.run`'s options in a test: the page is the test's own, and a recording can stand for the task. */
export type RoteTestRunOptions = Omit<RunOptions, 'task'> & {
  /** Required unless `recording` is given; then the recording's task is the default. */
  task?: string;
  /**
   * A recording folder (see `rote export`): a name under the `recordings` option, or a path. It is
   * imported into the test's store with its URLs moved onto the origin the page is on now, so
   * navigate to the app's start page first.
   */
  recording?: string;
};

/** The `rote` fixture: rote bound to the test's page, store and report. */
export type RoteFixture = {
  /**
   * Does the task on the test's page. In replay-only mode (the default when `CI` is set), a run
   * that does not replay attaches the expected crop, the actual crop, their diff and a summary to
   * the test's report; `expect(result).toBeReplayed()` then fails with the step and the reason.
   */
  run(options: RoteTestRunOptions): Promise<RunResult>;
  /** Registers a custom tool, as `Rote.tool` does. */
  tool<Pre = unknown, Post = unknown>(name: string, fn: ToolFunction, options?: ToolOptions<Pre, Post>): RoteFixture;
};

export class TestRote implements RoteFixture {
  private readonly imported = new Map<string, ImportedRecording>();
  private readonly unreplayed: RunResult[] = [];
  private runs = 0;

  constructor(
    private readonly rote: Rote,
    private readonly page: Page,
    private readonly testInfo: TestInfo,
    private readonly config: ResolvedTestConfig,
    private readonly baseDir: string,
  ) {}

  async run(options: RoteTestRunOptions): Promise<RunResult> {
    if (typeof options !== 'object' || options === null) throw new RoteError('invalid-argument', `rote.run: expected an options object { task?, recording?, params?, agent?, mode? }, got ${String(options)}`);
    const { recording, ...rest } = options;
    let task = rest.task;
    let tags = rest.tags;
    const source = recording === undefined ? undefined : await this.importRecording(recording);
    task ??= source?.task;
    tags ??= source?.tags;
    if (task === undefined) throw new RoteError('invalid-argument', 'rote.run: options.task is required unless options.recording names a recording to take it from');
    const mode = rest.mode ?? this.config.mode;
    const startedAt = withoutQuery(this.page.url());
    const result = await this.rote.run(this.page, { ...rest, task, ...(tags ? { tags } : {}), mode });
    if (source && result.taskKey !== source.taskKey) explainMiss(result, source, recording!, startedAt);
    this.runs++;
    // A damaged stored step is news even when an agent covered for it: in the report, not only in the result.
    for (const warning of result.warnings ?? []) this.testInfo.annotations.push({ type: 'rote warning', description: warning });
    if (shouldAttach(result, mode)) await this.attachEvidence(result);
    if (mode === 'replay-only' && result.status !== 'replayed') this.unreplayed.push(result);
    return result;
  }

  /**
   * Called when the test is over: a replay-only run that did not replay fails the test even if the
   * test never asserted on it (a regression must not pass silently). One the test checked with
   * `toBeReplayed()` was already judged there, so it is not reported twice.
   */
  verdict(): Error | undefined {
    const silent = this.unreplayed.filter((result) => !assertedResults.has(result));
    if (silent.length === 0) return undefined;
    return new Error(silent.map((result) => `rote.run(${JSON.stringify(result.task)}) was not replayed from the cache: ${describeOutcome(result)}`).join('\n'));
  }

  tool<Pre = unknown, Post = unknown>(name: string, fn: ToolFunction, options?: ToolOptions<Pre, Post>): this {
    this.rote.tool(name, fn, options);
    return this;
  }

  private async importRecording(recording: unknown): Promise<ImportedRecording> {
    if (typeof recording !== 'string' || recording.trim() === '') throw new RoteError('invalid-argument', `rote.run: options.recording must be a recording's folder name or path, got ${JSON.stringify(recording)}`);
    const folder = recordingFolder(recording, this.config.recordings, this.baseDir);
    const origin = pageOrigin(this.page.url());
    if (!origin) throw new RoteError('invalid-argument', `rote.run: to run recording ${JSON.stringify(recording)}, first open the app's start page (the page is at ${this.page.url()}); the recording's URLs are moved onto that page's origin`);
    const key = `${origin} ${folder}`;
    const known = this.imported.get(key);
    if (known) return known;
    const imported = await importRecordingFolder(this.rote.store, folder, origin);
    this.imported.set(key, imported);
    return imported;
  }

  /** The three images of each divergence that has them, and the summary, under names that say which step. */
  private async attachEvidence(result: RunResult): Promise<void> {
    const prefix = this.runs > 1 ? `run-${this.runs}-` : '';
    for (const divergence of result.divergences) {
      for (const kind of ['expected', 'actual', 'diff'] as const) {
        const body = divergence[kind];
        if (body) await this.testInfo.attach(`${prefix}step-${divergence.step + 1}-${kind}.png`, { body, contentType: 'image/png' });
      }
    }
    await this.testInfo.attach(`${prefix}rote-summary.txt`, { body: runReport(result), contentType: 'text/plain' });
  }
}

/**
 * The run did not look the recording up at all (another start page, task or tags): say so where
 * the reason is read, rather than leave "no recorded trajectory" next to a recording just imported.
 */
function explainMiss(result: RunResult, source: ImportedRecording, recording: string, startedAt: string): void {
  const note = `; recording ${JSON.stringify(recording)} is the task ${JSON.stringify(source.task)} from ${source.startUrl}, and this run was ${JSON.stringify(result.task)} from ${startedAt}`;
  const last = result.divergences.at(-1);
  if (last && last.step === 0 && result.steps.length === 0) last.reason += note;
  if (result.error) result.error = result.error.replace(/\n|$/, `${note}$&`);
}

/** A run that should have replayed and did not: replay-only mode, or any run that ended at a divergence. */
function shouldAttach(result: RunResult, mode: RunMode): boolean {
  if (result.status === 'replayed') return false;
  return mode === 'replay-only' || result.status === 'diverged';
}

/** Where the run started, for a message: a query may carry values, so it is left out. */
function withoutQuery(url: string): string {
  return url.replace(/[?#].*$/, '');
}

function pageOrigin(url: string): string | undefined {
  try {
    const { origin, protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? origin : undefined;
  } catch {
    return undefined;
  }
}
