/**
 * Several problems as one message: `where: the problem` for one, else `where: N problems:` and a
 * line each (a problem's own lines indented under it). Every problem is said at once, so a user
 * fixes them all before the next try.
 */
export function problemList(where: string, problems: readonly string[], what?: string): string {
  if (problems.length === 1) return `${where}: ${problems[0]}`;
  return `${where}: ${problems.length} problems${what ? ` with ${what}` : ''}:\n${problems.map((problem) => `  - ${problem.replace(/\n/g, '\n    ')}`).join('\n')}`;
}
