import { RoteError } from '../errors/roteError.js';

/**
 * What flows through every operation of one run: the deadline, the caller's abort signal and
 * the call log that error messages end with (Playwright's Progress, in small).
 */
export class RunContext {
  readonly startedAt = Date.now();
  readonly deadline: number;
  private readonly lines: string[] = [];
  /** Applied to every logged line: the run sets it to hide secret values. */
  redact: (line: string) => string = (line) => line;

  constructor(
    readonly apiName: string,
    timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.deadline = this.startedAt + timeoutMs;
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
    if (Date.now() > this.deadline) throw new RoteError('timeout', `${this.apiName}: timeout of ${this.deadline - this.startedAt}ms exceeded`);
  }

  /** A deadline for one wait: `ms` from now, never past the run's own. */
  within(ms: number): number {
    return Math.min(this.deadline, Date.now() + ms);
  }
}
