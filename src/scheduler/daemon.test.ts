import { spawnSync } from 'node:child_process';
import { agentByName } from '../cli/agentByName.js';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Rote } from '../rote.js';
import type { BrowserSupply } from './browserSupply.js';
import { Daemon, type SlotEnded } from './daemon.js';
import { DaemonLock } from './daemonLock.js';
import { notifyFailure } from './notify.js';
import type { CatchUpPolicy } from './scheduleSpec.js';

/** No browser is ever needed here: every job names a task the store does not have, so it fails before one starts. */
const noBrowsers: BrowserSupply = { get: () => Promise.reject(new Error('no browser in this test')), discard: () => undefined, close: async () => undefined };

const opened: Rote[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((rote) => rote.close()));
});

/** A store whose one schedule, every second, was added `ago` ms before the daemon starts and never ran. */
async function storeWithOverdueSchedule(ago: number) {
  const rote = await Rote.open({ store: ':memory:' });
  opened.push(rote);
  const added = Date.now() - ago;
  await rote.store.schedules.add({ id: 's1', name: 'every-second', cron: '* * * * * *', timezone: 'UTC', job: { task: 'no such task', url: 'http://127.0.0.1:9/x' }, onFailure: null, enabled: true, createdAt: added, updatedAt: added });
  return rote;
}

async function runUntil(rote: Rote, catchUp: CatchUpPolicy, endedSlots: number): Promise<SlotEnded[]> {
  const ended: SlotEnded[] = [];
  const daemon = new Daemon({ rote, env: {}, agents: agentByName, catchUp, browsers: noBrowsers, log: () => undefined, tickMs: 20, onSlotEnd: (slot) => ended.push(slot) });
  const running = daemon.run();
  const deadline = Date.now() + 10_000;
  while (ended.length < endedSlots && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await daemon.stop('test over');
  await running;
  return ended;
}

describe('Daemon: slots owed while no daemon ran', () => {
  it('latest: runs the last missed slot once and records the others as one missed stretch', async () => {
    const rote = await storeWithOverdueSchedule(5_500);
    const ended = await runUntil(rote, 'latest', 1);
    const slots = await rote.store.schedules.slots('s1', 100);
    const missed = slots.filter((slot) => slot.status === 'missed');
    expect(missed).toHaveLength(1);
    // About five slots fell (the schedule is 5.5 s overdue); how many exactly depends on how soon
    // the daemon started, so the count is checked against the stretch it names.
    const [, count, from, to] = /^(\d+) slots from (\S+) to (\S+) fell while no daemon ran \(catch-up latest\)$/.exec(missed[0]!.reason ?? '') ?? [];
    expect(Number(count)).toBeGreaterThanOrEqual(4);
    expect(Number(count)).toBe((Date.parse(to!) - Date.parse(from!)) / 1000 + 1);
    // The job fails before it starts (no such task): the slot is recorded failed, with why.
    expect(ended[0]).toMatchObject({ schedule: 'every-second', status: 'failed' });
    expect(ended[0]!.reason).toContain('no task matches "no such task"');
    const run = slots.filter((slot) => slot.status === 'failed');
    expect(run.length).toBeGreaterThanOrEqual(1);
    expect(Math.min(...run.map((slot) => slot.slotAt))).toBeGreaterThan(missed[0]!.slotAt);
  });

  it('none: runs none of them; all: runs each in turn', async () => {
    const none = await storeWithOverdueSchedule(3_500);
    await runUntil(none, 'none', 0);
    const noneSlots = await none.store.schedules.slots('s1', 100);
    expect(noneSlots.filter((slot) => slot.status === 'missed')).toHaveLength(1);
    expect(noneSlots.filter((slot) => slot.status === 'failed' && slot.slotAt < Date.now() - 1_500)).toHaveLength(0);

    const all = await storeWithOverdueSchedule(3_500);
    await runUntil(all, 'all', 3);
    const allSlots = await all.store.schedules.slots('s1', 100);
    expect(allSlots.filter((slot) => slot.status === 'missed')).toHaveLength(0);
    expect(allSlots.filter((slot) => slot.status === 'failed').length).toBeGreaterThanOrEqual(3);
  });

  it('a paused schedule owes nothing for its pause', async () => {
    const rote = await storeWithOverdueSchedule(3_000);
    await rote.store.schedules.setEnabled('every-second', false);
    await rote.store.schedules.setEnabled('every-second', true);
    await runUntil(rote, 'all', 0);
    expect((await rote.store.schedules.slots('s1', 100)).filter((slot) => slot.status === 'missed')).toHaveLength(0);
  });
});

describe('DaemonLock', () => {
  it('lets one daemon hold a store, names it to a second, and is taken over when its holder is gone', () => {
    const store = join(mkdtempSync(join(tmpdir(), 'rote-lock-')), 'rote.db');
    const lock = DaemonLock.acquire(store, 'rote daemon');
    expect(() => DaemonLock.acquire(store, 'rote daemon')).toThrow(`rote daemon: another daemon holds the store ${store}: process ${process.pid}`);
    lock.release();
    // A lock left by a process that no longer runs (killed) is taken over.
    const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    const path = `${store}.daemon.lock`;
    writeFileSync(path, JSON.stringify({ pid: gone, host: hostname(), startedAt: 0 }));
    const again = DaemonLock.acquire(store, 'rote daemon');
    expect((JSON.parse(readFileSync(path, 'utf8')) as { pid: number }).pid).toBe(process.pid);
    again.release();
    expect(existsSync(path)).toBe(false);
  });
});

describe('notifyFailure', () => {
  it('POSTs the notice as JSON, or gives it to a command on stdin, and says why it was not delivered', async () => {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        bodies.push(`${req.method} ${req.headers['content-type']} ${body}`);
        res.writeHead(req.url === '/down' ? 503 : 204, req.url === '/down' ? 'Service Unavailable' : 'No Content').end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await notifyFailure({ url: `${base}/hook` }, { schedule: 'x' })).toBeUndefined();
      expect(bodies).toEqual(['POST application/json {"schedule":"x"}']);
      expect(await notifyFailure({ url: `${base}/down` }, { schedule: 'x' })).toBe(`${base}/down answered 503 Service Unavailable`);
    } finally {
      server.close();
    }
    const out = join(mkdtempSync(join(tmpdir(), 'rote-notify-')), 'notice.json');
    expect(await notifyFailure({ command: `cat > ${out}` }, { schedule: 'y', runs: [] })).toBeUndefined();
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ schedule: 'y', runs: [] });
    expect(await notifyFailure({ command: 'echo broken >&2; exit 3' }, {})).toBe('echo broken >&2; exit 3 exited 3: broken');
  });
});
