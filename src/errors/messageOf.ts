/** The message of anything thrown: an Error's message, else the value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first line of a thrown value's message (Playwright's messages go on with a call log). */
export function firstLineOf(error: unknown): string {
  return messageOf(error).split('\n')[0]!;
}
