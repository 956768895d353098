import { RoteError } from '../errors/roteError.js';

/** The exit code of a usage error: a bad option or argument, found before anything ran. */
export const USAGE_EXIT = 2;

/**
 * Runs a command; a usage problem it finds (RoteError 'invalid-argument', thrown before anything
 * ran) is printed as its one message and exits 2. Anything else goes on up.
 */
export async function exitOnUsage(err: (text: string) => void, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (RoteError.isInstance(error) && error.code === 'invalid-argument') {
      err(`${error.message}\n`);
      return USAGE_EXIT;
    }
    throw error;
  }
}
