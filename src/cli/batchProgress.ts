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
      format: 'rows {value}/{total} [{bar}] replayed {replayed} | handed over {handed} | failed {failed} | {duration_formatted} elapsed, about {eta_formatted} left',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  const counts = { replayed: 0, handed: 0, failed: 0 };
  bar.start(total, 0, counts);
  return {
    rowEnded(outcome, retrying) {
      if (retrying) return;
      if (outcome.status === 'replayed') counts.replayed++;
      else if (succeeded(outcome)) counts.handed++;
      else counts.failed++;
      bar.increment(1, counts);
    },
    stop() {
      bar.stop();
    },
  };
}
