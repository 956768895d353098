import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { deadlineIn } from '../progress/deadline.js';
import { oneCaptureAtATime } from './captureGate.js';

const pageStandIn = () => ({}) as Page;
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('oneCaptureAtATime', () => {
  it('starts a capture only once the one before it on the page has settled, whether it passed or failed', async () => {
    const page = pageStandIn();
    const log: string[] = [];
    const capture = (name: string, ms: number, fails = false) => async () => {
      log.push(`${name} starts`);
      await later(ms);
      log.push(`${name} ends`);
      if (fails) throw new Error(`${name} failed`);
      return name;
    };
    const first = oneCaptureAtATime(page, deadlineIn(5000), 'first', capture('first', 40, true));
    const second = oneCaptureAtATime(page, deadlineIn(5000), 'second', capture('second', 10));
    await expect(first).rejects.toThrow('first failed');
    await expect(second).resolves.toBe('second');
    expect(log).toEqual(['first starts', 'first ends', 'second starts', 'second ends']);
  });

  it('lets captures of other pages run at the same time', async () => {
    const log: string[] = [];
    const capture = (name: string) => async () => {
      log.push(`${name} starts`);
      await later(20);
      log.push(`${name} ends`);
    };
    await Promise.all([oneCaptureAtATime(pageStandIn(), deadlineIn(5000), 'a', capture('a')), oneCaptureAtATime(pageStandIn(), deadlineIn(5000), 'b', capture('b'))]);
    expect(log.slice(0, 2)).toEqual(['a starts', 'b starts']);
  });

  it('a caller whose deadline passes while the capture before it runs is told so, and its capture is never taken', async () => {
    const page = pageStandIn();
    let taken = false;
    const slow = oneCaptureAtATime(page, deadlineIn(5000), 'slow', () => later(120));
    const waiting = oneCaptureAtATime(page, deadlineIn(30), 'the crop', async () => {
      taken = true;
    });
    await expect(waiting).rejects.toThrow(/the crop/);
    await slow;
    await later(10);
    expect(taken).toBe(false);
  });
});
