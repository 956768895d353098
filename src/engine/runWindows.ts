import type { Page } from 'playwright';

/**
 * The windows of one run: the page it was given and every window a page of the run opened
 * (`window.open`, a link with a target), in the order they opened. Steps act in the newest window
 * still open, as a person works in the window that came to the front; when it closes (an add
 * window that saved and closed itself), the run is back in the window that opened it.
 * A step records the window it acted in by that order (NodeState.window), so a replay does it in
 * the window the page opened at the same point of the task.
 */
export class RunWindows {
  private readonly opened: Page[] = [];
  private readonly listeners: { page: Page; listener: (popup: Page) => void }[] = [];

  constructor(private readonly main: Page) {
    this.watch(main);
  }

  private watch(page: Page): void {
    const listener = (popup: Page) => {
      this.opened.push(popup);
      this.watch(popup);
    };
    page.on('popup', listener);
    this.listeners.push({ page, listener });
  }

  /** The window steps act in now: the newest one opened that is still open, else the run's page. */
  get active(): Page {
    for (let index = this.opened.length - 1; index >= 0; index--) {
      const page = this.opened[index]!;
      if (!page.isClosed()) return page;
    }
    return this.main;
  }

  /** 0 for the run's own page, n for the n-th window opened during the run. */
  indexOf(page: Page): number {
    return this.opened.indexOf(page) + 1;
  }

  /** What the agent is told of the window it acts in; nothing while it acts in the run's own page. */
  observed(page: Page): { index: number; open: number } | undefined {
    const index = this.indexOf(page);
    return index === 0 ? undefined : { index, open: this.opened.filter((window) => !window.isClosed()).length };
  }

  /** Stops following new windows (the run is over). */
  dispose(): void {
    for (const { page, listener } of this.listeners.splice(0)) page.off('popup', listener);
  }
}

/** How a window is named in logs and reasons. */
export function describeWindow(index: number): string {
  return index === 0 ? 'the page itself' : `window ${index} that the page opened`;
}
