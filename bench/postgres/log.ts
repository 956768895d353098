/** A progress line on stderr, with the time of day: stdout is kept for the table (and `--json`). */
export const log = (line: string) => void process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
