import { RoteError } from '../errors/roteError.js';
import { withinDeadline, type Deadline } from '../progress/deadline.js';

/** How long past the run's deadline work may take to fail by itself, before the run stops waiting for it. */
const BOUNDED_GRACE_MS = 250;

/**
 * What flows through every operation of one run: the deadline, the caller's abort signal and
 * the call log that error messages end with (Playwright's Progress, in small). It is itself the
 * run's Deadline, which every wait below the engine is bounded by.
 */
export class RunContext implements Deadline {
  readonly startedAt = Date.now();
  /** Epoch ms by which the run must be over. */
  readonly deadline: number;
  private readonly lines: string[] = [];

  constructor(
    readonly apiName: string,
    timeoutMs: number,
    readonly signal?: AbortSignal,
    /** Asks the run to end before its next step; the step in progress finishes. */
    readonly stop?: AbortSignal,
    /** Applied to every logged line: hides the run's secret values. */
    readonly redact: (line: string) => string = (line) => line,
  ) {
    this.deadline = this.startedAt + timeoutMs;
  }

  get at(): number {
    return this.deadline;
  }

  get timeoutMs(): number {
    return this.deadline - this.startedAt;
  }

  log(line: string): void {
    this.lines.push(`  - ${this.redact(line)}`);
  }

  get callLog(): string {
    return this.lines.join('\n');
  }

  /** Throws when the run must stop: aborted by the caller or past its deadline. */
  throwIfStopped(): void {
    if (this.signal?.aborted) throw new RoteError('aborted', `${this.apiName}: aborted`, { cause: this.signal.reason });
    if (Date.now() > this.deadline) throw this.timeoutError();
  }

  /** Between steps: throws when the run must stop, a clean stop requested included. */
  throwIfStopRequested(): void {
    if (this.stop?.aborted) throw new RoteError('aborted', `${this.apiName}: stopped before its next step (${String(this.stop.reason ?? 'stop requested')})`, { cause: this.stop.reason });
    this.throwIfStopped();
  }

  timeoutError(detail?: string): RoteError {
    return new RoteError('timeout', `${this.apiName}: timeout of ${this.timeoutMs}ms exceeded${detail ? ` ${detail}` : ''}`);
  }

  /** A deadline for one wait: `ms` from now, never past the run's own. */
  within(ms: number): number {
    return Math.min(this.deadline, Date.now() + ms);
  }

  /**
   * `work` (an agent's answer, a tool's call) bounded by the run: the run ends at its deadline or
   * abort either way. Work that knows the deadline (a model request) gets a moment past it to fail
   * with its own, more precise message.
   */
  async bounded<T>(work: Promise<T>, what: string, options: { stoppable?: boolean } = {}): Promise<T> {
    // Waiting on an agent is no step in progress: a clean stop does not wait for its answer.
    const signals = [this.signal, options.stoppable ? this.stop : undefined].filter((signal): signal is AbortSignal => signal !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    try {
      return await withinDeadline({ at: this.deadline + BOUNDED_GRACE_MS, signal }, work, `${this.apiName}: ${what}`);
    } catch (error) {
      if (RoteError.isInstance(error) && error.code === 'timeout' && Date.now() >= this.deadline) throw this.timeoutError(`while ${what}`);
      throw error;
    }
  }
}
