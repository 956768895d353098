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
