import cliProgress from 'cli-progress';
import { succeeded, type RowOutcome } from '../scheduler/batch.js';

/** What a progress display is told; a silent one ignores it. */
export type BatchProgress = { rowEnded(outcome: RowOutcome, retrying: boolean): void; stop(): void };

/**
 * A progress bar on the terminal (cli-progress, on stderr): rows done of all, replayed / handed
 * over / failed so far, time elapsed and an estimate of what is left. Silent with --json or when
 * stderr is not a terminal (a log file, CI, a pipe), where redrawn lines would be noise.
 */
export function batchProgress(total: number, options: { json: boolean; stream?: NodeJS.WriteStream }): BatchProgress {
  const stream = options.stream ?? process.stderr;
  if (options.json || !stream.isTTY || total < 2) return { rowEnded: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'rows {value}/{total} [{bar}] replayed {replayed} | handed over {handed} | failed {failed} | {duration_formatted} elapsed, {left}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  const counts = { replayed: 0, handed: 0, failed: 0, left: 'estimating the time left' };
  const started = Date.now();
  let done = 0;
  bar.start(total, 0, counts);
  return {
    rowEnded(outcome, retrying) {
      if (retrying) return;
      if (outcome.status === 'replayed') counts.replayed++;
      else if (succeeded(outcome)) counts.handed++;
      else counts.failed++;
      done++;
      // From the rows done so far: the time per row at this concurrency, times the rows left.
      const seconds = Math.round((((Date.now() - started) / done) * (total - done)) / 1000);
      counts.left = done === total ? 'done' : `about ${seconds >= 90 ? `${Math.round(seconds / 60)} min` : `${seconds} s`} left`;
      bar.increment(1, counts);
    },
    stop() {
      bar.stop();
    },
  };
}
