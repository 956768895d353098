import { readdirSync, readFileSync } from 'node:fs';

/**
 * The memory of a process and all its descendants (Chromium's browser, GPU, utility and renderer
 * processes under this Node process), read from /proc: what a batch really costs the machine, not
 * just the Node heap. Proportional (PSS, from smaps_rollup): pages Chromium's processes share are
 * counted once among them, where summing RSS would count them in every process. Bytes.
 */
export function treeMemory(root: number = process.pid): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1] ?? -1));
    } catch {
      // A process that ended while being read.
    }
  }
  const under = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 0; at = parents.get(at)) if (at === root) return true;
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) {
    if (!under(pid)) continue;
    try {
      total += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // Ended meanwhile.
    }
  }
  return total;
}

/** Samples treeMemory every `everyMs` until stopped; the peak seen. */
export function sampleTreeMemory(everyMs = 500): { stop(): number } {
  let peak = treeMemory();
  const timer = setInterval(() => {
    peak = Math.max(peak, treeMemory());
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeMemory());
    },
  };
}
