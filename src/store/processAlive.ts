/**
 * Whether a process with this pid exists. Signal 0 checks without delivering anything:
 * ESRCH means no such process; EPERM means it exists but belongs to someone else.
 */
export function isProcessAlive(pid: number): boolean {
  // pid 0 and negative pids address process groups, not a process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
