import { RoteError } from '../errors/roteError.js';
import type { ReportFilter } from '../report/reportModel.js';
import { findTask } from '../store/findTask.js';
import type { Store } from '../store/store.js';

export type ReportFilterOptions = { run?: string[]; since?: string; schedule?: string; task?: string };

/**
 * The runs `rote report` and `rote stats` read, checked before anything is written: every run id
 * (or unique prefix) known, the schedule and task existing, the date readable.
 */
export async function reportFilterOf(store: Store, options: ReportFilterOptions, command: string): Promise<ReportFilter> {
  const filter: ReportFilter = {};
  if (options.since !== undefined) filter.since = parseSince(options.since, command);
  if (options.schedule !== undefined) {
    if (!(await store.schedules.byName(options.schedule))) {
      const names = (await store.schedules.list()).map((row) => row.name);
      throw new RoteError('invalid-argument', `rote ${command}: --schedule ${JSON.stringify(options.schedule)}: no such schedule (${names.length > 0 ? `known: ${names.join(', ')}` : 'the store has none'})`);
    }
    filter.scheduleName = options.schedule;
  }
  if (options.task !== undefined) filter.taskIds = [findTask(await store.listTasks(), options.task, `rote ${command} --task`).id];
  if (options.run && options.run.length > 0) {
    const problems: string[] = [];
    const ids: string[] = [];
    for (const reference of options.run) {
      const matches = await store.runIdsStartingWith(reference, 2);
      if (matches.length === 1) ids.push(...matches);
      else problems.push(matches.length === 0 ? `${JSON.stringify(reference)} matches no run` : `${JSON.stringify(reference)} matches several runs; give more of the id`);
    }
    if (problems.length > 0) throw new RoteError('invalid-argument', `rote ${command} --run: ${problems.join('; ')} (rote runs lists run ids)`);
    filter.runIds = [...new Set(ids)];
  }
  return filter;
}

const RELATIVE = /^(\d+)\s*(m|h|d|w)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** A date (2026-11-01, read as UTC midnight), a date and time (2026-11-01T08:00, UTC unless it names a zone), or a span back from now (90m, 12h, 7d, 2w). */
export function parseSince(value: string, command: string, now = Date.now()): number {
  const relative = RELATIVE.exec(value.trim());
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS];
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(value.trim());
  const at = iso ? Date.parse(iso[1] ? value.trim().replace(' ', 'T') : `${value.trim().replace(' ', 'T')}${value.trim().length === 10 ? 'T00:00' : ''}Z`) : Number.NaN;
  // Date.parse rolls 2026-02-30 over to March: a day that is not in its month is refused.
  const [year, month, day] = value.trim().slice(0, 10).split('-').map(Number) as [number, number, number];
  const real = new Date(Date.UTC(year, month - 1, day));
  if (Number.isNaN(at) || real.getUTCMonth() !== month - 1 || real.getUTCDate() !== day) {
    throw new RoteError('invalid-argument', `rote ${command}: --since ${JSON.stringify(value)} is not a date; expected 2026-11-01, 2026-11-01T08:00 (UTC unless a zone is given) or a span back from now such as 12h or 7d`);
  }
  return at;
}
