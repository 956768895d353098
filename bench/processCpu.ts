import { readdirSync, readFileSync } from 'node:fs';

/** /proc counts CPU time in USER_HZ ticks, 100 a second on Linux whatever the kernel's HZ. */
const TICKS_PER_SECOND = 100;

type ProcessStat = { ppid: number; ticks: number };

/** Every process's parent and its own CPU ticks (user + system, all its threads), from /proc. */
function processStats(): Map<number, ProcessStat> {
  const stats = new Map<number, ProcessStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command's closing parenthesis (a command may hold spaces): state, ppid, ... utime (index 11), stime.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // Ended while being read.
    }
  }
  return stats;
}

/** The whole machine's busy and total ticks (all cores) from /proc/stat; iowait counts as idle. */
function machineTicks(): { busy: number; total: number } {
  const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
}

export type CpuWindow = {
  /** CPU seconds each group's process trees used in the window. */
  groups: Record<string, number>;
  /** CPU seconds the whole machine was busy, all cores. */
  machineS: number;
  /** The machine's mean busy share over the window (1: every core busy all the time). */
  busyShare: number;
  /** Share of the samples in which every core was at least 95 % busy: the CPU was the limit. */
  saturatedShare: number;
};

/**
 * Where the CPU goes while something runs: each group is the process trees under its roots (a
 * getter, so a process started after the window opened can join), sampled every `everyMs`.
 * Each process's own time is followed from the first sample that sees it (a process born in the
 * window counts from zero) to the last, and a process keeps counting after it leaves the tree:
 * Chromium's zygotes are orphaned when the browser closes, and the time of the renderers they
 * reaped would be lost to a count of the reaped children's time (cutime) of the tree's root.
 * What a process uses after the last sample that sees it alive is missed (at most `everyMs`).
 */
export function sampleCpu(groups: Record<string, () => readonly number[]>, everyMs = 200): { stop(): CpuWindow } {
  const followed = new Map<string, Map<number, { first: number; last: number }>>(Object.keys(groups).map((name) => [name, new Map()]));
  const machine = { first: machineTicks(), last: machineTicks(), shares: [] as number[] };
  let opening = true;
  const sample = () => {
    const stats = processStats();
    const children = new Map<number, number[]>();
    for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
    for (const [name, roots] of Object.entries(groups)) {
      const pids = followed.get(name)!;
      // The trees as they are now, and every process followed before that is still alive wherever it went.
      const pending = [...roots(), ...pids.keys()];
      const seen = new Set<number>();
      for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
        const stat = stats.get(pid);
        if (!stat || seen.has(pid)) continue;
        seen.add(pid);
        const known = pids.get(pid);
        if (known) known.last = stat.ticks;
        else pids.set(pid, { first: opening ? stat.ticks : 0, last: stat.ticks });
        pending.push(...(children.get(pid) ?? []));
      }
    }
    const now = machineTicks();
    if (!opening && now.total > machine.last.total) machine.shares.push((now.busy - machine.last.busy) / (now.total - machine.last.total));
    machine.last = now;
    opening = false;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const seconds = (ticks: number) => ticks / TICKS_PER_SECOND;
      const busy = machine.last.busy - machine.first.busy;
      const total = machine.last.total - machine.first.total;
      return {
        groups: Object.fromEntries([...followed].map(([name, pids]) => [name, seconds([...pids.values()].reduce((sum, pid) => sum + pid.last - pid.first, 0))])),
        machineS: seconds(busy),
        busyShare: total > 0 ? busy / total : 0,
        saturatedShare: machine.shares.length > 0 ? machine.shares.filter((share) => share >= 0.95).length / machine.shares.length : 0,
      };
    },
  };
}
