const marker = Symbol.for('rote.error');

export type RoteErrorCode =
  | 'invalid-argument'
  | 'browser-not-found'
  | 'store'
  | 'page-closed'
  | 'agent'
  /** A custom tool's function (or its check's capture while recording) threw. */
  | 'tool'
  | 'timeout'
  /** The page went, or an action would go or type a secret, where the run may not (see allowedOrigins). */
  | 'origin-not-allowed'
  | 'aborted'
  /** A native prompt the agent's step opened got no decision from the agent, asked twice: it was dismissed. */
  | 'dialog-unanswered'
  | 'internal';

/**
 * The one error class rote throws. `code` says what kind of failure it is; `cause` keeps
 * the original error. `RoteError.isInstance` works across copies of the package.
 */
export class RoteError extends Error {
  readonly [marker] = true;
  readonly code: RoteErrorCode;

  constructor(code: RoteErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RoteError';
    this.code = code;
  }

  static isInstance(error: unknown): error is RoteError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
