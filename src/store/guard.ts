import { messageOf } from '../errors/messageOf.js';
import { RoteError } from '../errors/roteError.js';

/** Turns driver and integrity errors into a RoteError naming the store and the operation, the original as cause. */
export function guardStore<T>(path: string, operation: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (RoteError.isInstance(error)) throw error;
    throw new RoteError('store', `rote: store at "${path}": could not ${operation}: ${messageOf(error)}`, { cause: error });
  }
}

/** `guardStore` for a query that returns a promise. */
export async function guardStoreAsync<T>(location: string, operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (RoteError.isInstance(error)) throw error;
    const server = serverError(error);
    throw new RoteError('store', `rote: store at "${location}": could not ${operation}: ${messageOf(server)}`, { cause: server });
  }
}

/**
 * The server's own error under drizzle's "Failed query: <sql> params: <values>" wrapper: the
 * values are a row's contents, which no message may carry (a log or a report would keep them).
 */
export function serverError(error: unknown): unknown {
  return error instanceof Error && error.message.startsWith('Failed query:') && error.cause instanceof Error ? error.cause : error;
}
