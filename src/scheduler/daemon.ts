import { randomUUID } from 'node:crypto';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
export type { SlotEnded } from './slotRunner.js';
import type { Rote } from '../rote.js';
import type { ScheduleRow } from '../store/scheduleStore.js';
import type { BrowserSupply } from './batch.js';
import { slotsBetween } from './cronSlots.js';
import { iso, runSlot, type SlotEnded } from './slotRunner.js';
import { readSchedule, type CatchUpPolicy, type Schedule } from './scheduleSpec.js';

/** How often the daemon looks for due slots: fine enough for schedules by the second. */
const TICK_MS = 200;

export type DaemonOptions = {
  rote: Rote;
  env: NodeJS.ProcessEnv;
  catchUp: CatchUpPolicy;
  browsers: BrowserSupply;
  log: (line: string) => void;
  onSlotEnd?: (event: SlotEnded) => void;
  tickMs?: number;
};

type ScheduleState = { handledUntil: number; queue: number[]; running: Promise<void> | undefined };

/**
 * Runs what is due, for every enabled schedule in the store: never two slots of one schedule at
 * once (a slot that comes while the last still runs is skipped, and recorded so); the slots
 * missed while no daemon ran are caught up by the policy (none, the latest once, or all in turn)
 * and the rest recorded as missed; every slot that runs is recorded before it starts and when it
 * ends, with its job's summary; a failure is retried as its job says, then told to `onFailure`.
 * `stop()` ends it cleanly: no new slot or row starts, runs under way end before their next step
 * (recorded interrupted), and nothing is lost.
 */
export class Daemon {
  readonly startedAt = Date.now();
  private readonly states = new Map<string, ScheduleState>();
  private readonly stopping = new AbortController();
  private readonly warned = new Set<string>();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: DaemonOptions) {}

  /** Runs until `stop()`; resolves when every slot under way has ended. */
  run(): Promise<void> {
    this.loop ??= this.ticks();
    return this.loop;
  }

  async stop(reason: string): Promise<void> {
    if (!this.stopping.signal.aborted) {
      this.options.log(`stopping (${reason}): no new slot starts; runs under way end after their current step`);
      this.stopping.abort(reason);
    }
    await this.loop;
  }

  private async ticks(): Promise<void> {
    const tickMs = this.options.tickMs ?? TICK_MS;
    while (!this.stopping.signal.aborted) {
      try {
        this.tick(Date.now());
      } catch (error) {
        this.options.log(`could not read the schedules: ${firstLineOf(messageOf(error))}`);
      }
      await sleep(tickMs, this.stopping.signal);
    }
    await Promise.all([...this.states.values()].map((state) => state.running));
  }

  private tick(now: number): void {
    const { store } = this.options.rote;
    for (const row of store.schedules.list()) {
      const schedule = this.read(row);
      if (!schedule) continue;
      const state = this.stateOf(row);
      if (!schedule.enabled) {
        // Paused: no slot is due, and none is owed when it resumes.
        state.handledUntil = now;
        state.queue = [];
        continue;
      }
      const due = slotsBetween(schedule.cron, schedule.timezone, state.handledUntil, now, 100_000);
      if (due.length === 0) {
        this.startNext(schedule, row, state);
        continue;
      }
      state.handledUntil = due.at(-1)!;
      const missed = due.filter((slot) => slot < this.startedAt);
      const fresh = due.filter((slot) => slot >= this.startedAt);
      this.catchUp(row, state, missed);
      for (const slot of fresh) {
        if (state.running || state.queue.length > 0) {
          store.schedules.passSlot({ id: randomUUID(), scheduleId: row.id, slotAt: slot, status: 'skipped', reason: `the slot before it was still running` });
          this.options.log(`${row.name}: slot ${iso(slot)} skipped: the slot before it was still running`);
        } else {
          state.queue.push(slot);
        }
      }
      this.startNext(schedule, row, state);
    }
  }

  /** Slots that fell while no daemon ran: run by the policy, the rest recorded as missed (one row per stretch). */
  private catchUp(row: ScheduleRow, state: ScheduleState, missed: readonly number[]): void {
    if (missed.length === 0) return;
    const policy = this.options.catchUp;
    const run = policy === 'all' ? missed : policy === 'latest' ? missed.slice(-1) : [];
    const passed = missed.slice(0, missed.length - run.length);
    if (passed.length > 0) {
      const reason = `${passed.length} slot${passed.length === 1 ? '' : 's'} from ${iso(passed[0]!)} to ${iso(passed.at(-1)!)} fell while no daemon ran (catch-up ${policy})`;
      this.options.rote.store.schedules.passSlot({ id: randomUUID(), scheduleId: row.id, slotAt: passed[0]!, status: 'missed', reason });
      this.options.log(`${row.name}: ${reason}`);
    }
    state.queue.push(...run);
  }

  private startNext(schedule: Schedule, row: ScheduleRow, state: ScheduleState): void {
    if (state.running || this.stopping.signal.aborted) return;
    const slot = state.queue.shift();
    if (slot === undefined) return;
    state.running = this.runSlot(schedule, row, slot).finally(() => {
      state.running = undefined;
    });
  }

  private async runSlot(schedule: Schedule, row: ScheduleRow, slotAt: number): Promise<void> {
    const { rote, env, browsers, log } = this.options;
    const ended = await runSlot({ rote, env, browsers, log, stop: this.stopping.signal }, schedule, row, slotAt);
    if (ended) this.options.onSlotEnd?.(ended);
  }

  private read(row: ScheduleRow): Schedule | undefined {
    const read = readSchedule(row);
    if ('schedule' in read) return read.schedule;
    if (!this.warned.has(row.id)) {
      this.warned.add(row.id);
      this.options.log(`${row.name}: not run: ${read.problem}; remove it (rote schedule rm) and add it again`);
    }
    return undefined;
  }

  private stateOf(row: ScheduleRow): ScheduleState {
    let state = this.states.get(row.id);
    if (!state) {
      const last = this.options.rote.store.schedules.lastSlotAt(row.id);
      // Slots owed: after the last one recorded, and never from before the schedule was added or resumed.
      state = { handledUntil: Math.max(last ?? Number.NEGATIVE_INFINITY, row.updatedAt), queue: [], running: undefined };
      this.states.set(row.id, state);
    }
    return state;
  }
}


function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
