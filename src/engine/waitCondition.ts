import type { Page } from 'playwright';
import { changedSince, describeRegion, regionsShow, type PageRegion } from '../checks/waitRegions.js';
import { messageOf } from '../errors/messageOf.js';
import { accept, refuse, type Outcome } from '../errors/refusal.js';
import type { Deadline } from '../progress/deadline.js';
import type { BoundParams } from '../params/boundParams.js';
import { renderTemplate, templatize } from '../params/template.js';
import type { NodeState, TrajectoryNode, WaitRegion } from '../trajectory/trajectoryNode.js';
import { patchNode } from '../trajectory/nodeBuilder.js';

export type WaitFor = NonNullable<NodeState['waitFor']>;

/**
 * While recording: the stretch of time since the last step that acted settled. What changed on
 * the page in it (the agent waited, or time passed while it thought) is what the next step
 * waited for, and is stored as a condition on that step, as the page was when it acted: a replay
 * checks it last and acts the moment it holds (a Stop clicked at the value it was clicked at, not
 * a check later). The waits in between replay as nothing. A run that ends waiting keeps it on its
 * last wait.
 */
export class WaitWindow {
  private start = Date.now();
  /** When the step that acted last began (the run's start before any): what changed before it is the page's own. */
  private trigger = this.start;
  /** A new `wait` node that ended a run of waits, while nothing has acted since. */
  private lastWait: TrajectoryNode | undefined;

  /** A step is about to act. */
  acting(): void {
    this.trigger = Date.now();
  }

  /** A step that acted is done: a new stretch starts now. */
  acted(): void {
    this.start = Date.now();
    this.lastWait = undefined;
  }

  /** The agent waited (a new node, or a stored one whose state is not ours to change). */
  waited(node: TrajectoryNode, isNew: boolean): void {
    this.lastWait = isNew ? node : undefined;
  }

  /** What changed since the stretch began, as it is now, templated; undefined when nothing did. */
  async capture(page: Page, params: BoundParams, near: { x: number; y: number } | undefined): Promise<WaitFor | undefined> {
    const regions = await changedSince(page, this.start, this.trigger, near);
    if (regions.length === 0) return undefined;
    return { waitedMs: Date.now() - this.start, regions: regions.map((region) => templatedRegion(region, params)) };
  }

  /** Stores a condition on `step` (the step about to act), or with no step (the run ended), on the last wait. */
  attach(waitFor: WaitFor | undefined, step: TrajectoryNode | undefined): void {
    const holder = step ?? this.lastWait;
    if (waitFor && holder) patchNode(holder, { state: { waitFor } });
  }

  /** The agent said done: a run that ended waiting keeps what it waited for on that last wait. */
  async ended(page: Page, params: BoundParams): Promise<void> {
    if (!this.lastWait) return;
    this.attach(await this.capture(page, params, undefined), undefined);
  }
}

/** A region as stored: parameter values in its text and attributes as templates, secrets never. */
function templatedRegion(region: PageRegion, params: BoundParams): WaitRegion {
  const stored: WaitRegion = { path: templatize(region.path, params).template, visible: region.visible };
  if (region.text !== undefined) stored.text = templatize(region.text, params).template;
  if (region.attrs) stored.attrs = Object.fromEntries(Object.entries(region.attrs).map(([name, value]) => [name, templatize(value, params).template]));
  if (region.trend) stored.trend = region.trend;
  return stored;
}

/** A stored condition with this run's values, or why it cannot be. */
export function renderWaitFor(waitFor: WaitFor, params: BoundParams): Outcome<PageRegion[]> {
  try {
    return accept(waitFor.regions.map((region) => ({
      path: renderTemplate(region.path, params),
      visible: region.visible,
      ...(region.text !== undefined ? { text: renderTemplate(region.text, params) } : {}),
      ...(region.attrs ? { attrs: Object.fromEntries(Object.entries(region.attrs).map(([name, value]) => [name, renderTemplate(value, params)])) } : {}),
      ...(region.trend ? { trend: region.trend } : {}),
    })));
  } catch (error) {
    return refuse(messageOf(error));
  }
}

/**
 * Whether the page shows what the recording waited for, waiting in the page until `slice` is over
 * (checked on every change, so a value a process passes through is caught). A string says what
 * is still awaited and what the page shows instead.
 */
export async function waitForShown(page: Page, regions: readonly PageRegion[], slice: Deadline): Promise<{ reason: string; passed: boolean } | undefined> {
  const differs = await regionsShow(page, regions, slice);
  if (!differs) return undefined;
  const region = regions[differs.index];
  const what = region ? describeRegion(region) : 'the page';
  if (differs.passed) return { reason: `the page went past what the recording waited for: expected ${what}, it shows ${differs.now} and only moves on`, passed: true };
  return { reason: `waiting for ${what} (it shows ${differs.now})`, passed: false };
}
