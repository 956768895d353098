import { randomUUID } from 'node:crypto';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import type { Rote } from '../rote.js';
import type { ScheduleRow } from '../store/scheduleStore.js';
import type { AgentCatalog } from './agentCatalog.js';
import type { BrowserSupply } from './browserSupply.js';
import { countSlots, lastSlotBefore, slotsBetween } from './cronSlots.js';
import { iso, runSlot, type SlotEnded } from './slotRunner.js';
import { sleepUnlessStopped } from './sleep.js';

export type { SlotEnded };
import { readSchedule, type CatchUpPolicy, type Schedule } from './scheduleSpec.js';

/** How often the daemon looks for due slots: fine enough for schedules by the second. */
const TICK_MS = 200;
/** Slots looked at in one tick; more only after a long pause of the process, and those are skipped anyway. */
const MAX_DUE = 1_000;
/** `--catch-up all` runs at most this many missed slots; the rest are recorded missed. */
const MAX_CAUGHT_UP = 100;
/** A missed stretch is counted up to this many slots ("more than ..."). */
const MAX_COUNTED = 1_000;

export type DaemonOptions = {
  rote: Rote;
  env: NodeJS.ProcessEnv;
  agents: AgentCatalog;
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
        await this.tick(Date.now());
      } catch (error) {
        this.options.log(`could not read the schedules: ${firstLineOf(messageOf(error))}`);
      }
      await sleepUnlessStopped(tickMs, this.stopping.signal);
    }
    await Promise.all([...this.states.values()].map((state) => state.running));
  }

  private async tick(now: number): Promise<void> {
    for (const row of await this.options.rote.store.schedules.list()) {
      // One schedule's trouble (a stored row that no longer reads) never holds up the others.
      try {
        await this.tickSchedule(row, now);
      } catch (error) {
        this.options.log(`${row.name}: ${firstLineOf(messageOf(error))}`);
      }
    }
  }

  private async tickSchedule(row: ScheduleRow, now: number): Promise<void> {
    const schedule = this.read(row);
    if (!schedule) return;
    const state = await this.stateOf(row);
    if (!schedule.enabled) {
      // Paused: no slot is due, and none is owed when it resumes; slots waiting their turn are recorded skipped.
      for (const slot of state.queue.splice(0)) await this.pass(row, slot, 'skipped', 'the schedule was paused');
      state.handledUntil = now;
      return;
    }
    if (state.handledUntil < this.startedAt - 1) await this.catchUp(schedule, row, state);
    const due = slotsBetween(schedule.cron, schedule.timezone, state.handledUntil, now, MAX_DUE);
    if (due.length > 0) state.handledUntil = due.at(-1)!;
    const busy = state.running !== undefined || state.queue.length > 0;
    for (const [index, slot] of due.entries()) {
      const latest = index === due.length - 1;
      if (busy) await this.pass(row, slot, 'skipped', state.running ? 'the slot before it was still running' : 'the slots being caught up were still running');
      // Several at once (the daemon was late, the clock jumped): the latest runs, the others are recorded.
      else if (!latest) await this.pass(row, slot, 'skipped', 'a later slot was due at the same time');
      else state.queue.push(slot);
    }
    this.startNext(schedule, row, state);
  }

  /**
   * Slots that fell while no daemon ran, from the last one recorded up to this daemon's start:
   * run by the policy (the latest once, each in turn, or none), the others recorded as one missed
   * stretch at its last slot. Found without walking every slot of a long outage.
   */
  private async catchUp(schedule: Schedule, row: ScheduleRow, state: ScheduleState): Promise<void> {
    const { cron, timezone } = schedule;
    const until = this.startedAt - 1;
    const last = lastSlotBefore(cron, timezone, this.startedAt);
    const first = slotsBetween(cron, timezone, state.handledUntil, until, 1)[0];
    state.handledUntil = until;
    if (first === undefined || last === undefined) return;
    // Slots are (after, to] ranges: the ones run, and the stretch recorded as missed.
    const policy = this.options.catchUp;
    let run: number[];
    let stretch: { after: number; to: number } | undefined;
    switch (policy) {
      case 'none':
        run = [];
        stretch = { after: first - 1, to: last };
        break;
      case 'latest':
        run = [last];
        stretch = first < last ? { after: first - 1, to: last - 1 } : undefined;
        break;
      case 'all':
        run = slotsBetween(cron, timezone, first - 1, until, MAX_CAUGHT_UP);
        stretch = run.at(-1)! < last ? { after: run.at(-1)!, to: last } : undefined;
        break;
    }
    if (stretch) {
      const counted = countSlots(cron, timezone, stretch.after, stretch.to, MAX_COUNTED);
      const firstPassed = slotsBetween(cron, timezone, stretch.after, stretch.to, 1)[0]!;
      const lastPassed = lastSlotBefore(cron, timezone, stretch.to + 1)!;
      const howMany = counted.capped ? `more than ${MAX_COUNTED.toLocaleString('en')} slots` : `${counted.count} slot${counted.count === 1 ? '' : 's'}`;
      await this.pass(row, lastPassed, 'missed', `${howMany} from ${iso(firstPassed)} to ${iso(lastPassed)} fell while no daemon ran (catch-up ${policy})`);
    }
    state.queue.push(...run);
  }

  private async pass(row: ScheduleRow, slotAt: number, status: 'skipped' | 'missed', reason: string): Promise<void> {
    await this.options.rote.store.schedules.passSlot({ id: randomUUID(), scheduleId: row.id, slotAt, status, reason });
    this.options.log(status === 'missed' ? `${row.name}: ${reason}` : `${row.name}: slot ${iso(slotAt)} skipped: ${reason}`);
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
    const { rote, env, agents, browsers, log } = this.options;
    try {
      const ended = await runSlot({ rote, env, agents, browsers, log, stop: this.stopping.signal }, schedule, row, slotAt);
      if (ended) this.options.onSlotEnd?.(ended);
    } catch (error) {
      // The store refused a write (busy past its timeout, a full disk): said, never a crash of the daemon.
      log(`${row.name}: slot ${iso(slotAt)} could not be recorded: ${firstLineOf(messageOf(error))}`);
    }
  }

  private read(row: ScheduleRow): Schedule | undefined {
    const read = readSchedule(row);
    if (read.ok) return read.value;
    if (!this.warned.has(row.id)) {
      this.warned.add(row.id);
      this.options.log(`${row.name}: not run: ${read.reason}; remove it (rote schedule rm) and add it again`);
    }
    return undefined;
  }

  private async stateOf(row: ScheduleRow): Promise<ScheduleState> {
    let state = this.states.get(row.id);
    if (!state) {
      const last = await this.options.rote.store.schedules.lastSlotAt(row.id);
      // Slots owed: after the last one recorded, and never from before the schedule was added or resumed.
      state = { handledUntil: Math.max(last ?? Number.NEGATIVE_INFINITY, row.updatedAt), queue: [], running: undefined };
      this.states.set(row.id, state);
    }
    return state;
  }
}
