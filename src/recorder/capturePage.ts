import type { Page } from 'playwright';
import { RoteError } from '../errors/roteError.js';
import { CAPTURE_BINDING, CAPTURE_SCRIPT } from './captureScript.js';
import type { Expectations } from './expectedInput.js';

/** What the page is told: capture at all, show the overlay (rote waits), what the engine will send, the typing preview. */
export type PageState = { active: boolean; armed: boolean; expect: Expectations; preview?: string };

/**
 * The capture script's side of the page: installed in every document (an init script and a
 * binding survive navigations), told the state, asked how much it has reported.
 */
export class CapturePage {
  private constructor(private readonly page: Page) {}

  /** `receive` gets each message (from the main frame or not) and answers a new document's greeting with the state. */
  static async install(page: Page, receive: (fromMainFrame: boolean, message: unknown) => PageState | null): Promise<CapturePage> {
    try {
      await page.exposeBinding(CAPTURE_BINDING, (source, message: unknown) => receive(source.frame === page.mainFrame(), message));
    } catch (error) {
      throw new RoteError('invalid-argument', 'PersonAgent.attach: could not listen on the page; is a recorder attached to it already?', { cause: error });
    }
    await page.addInitScript(CAPTURE_SCRIPT);
    await Promise.all(page.frames().map((frame) => frame.evaluate(CAPTURE_SCRIPT).catch(() => undefined)));
    return new CapturePage(page);
  }

  get closed(): boolean {
    return this.page.isClosed();
  }

  /** Tells the main frame's document; a navigation may tear it down meanwhile, and the next document asks itself. */
  async set(state: PageState): Promise<void> {
    if (this.page.isClosed()) return;
    await this.page.mainFrame().evaluate(setState(state)).catch(() => undefined);
  }

  /** Tells every frame: after the recording, the page is the page's own again. */
  async setEverywhere(state: PageState): Promise<void> {
    if (this.page.isClosed()) return;
    await Promise.all(this.page.frames().map((frame) => frame.evaluate(setState(state)).catch(() => undefined)));
  }

  /** How many inputs the current document has reported, and which document it is. */
  async reported(): Promise<{ doc: string; sent: number } | null> {
    if (this.page.isClosed()) return null;
    return (await this.page.mainFrame().evaluate('window.__roteRecorder ? window.__roteRecorder.sent() : null').catch(() => null)) as { doc: string; sent: number } | null;
  }

  /** Moves the pointer, as the engine would. */
  async movePointer(to: { x: number; y: number }): Promise<void> {
    if (this.page.isClosed()) return;
    await this.page.mouse.move(to.x, to.y).catch(() => undefined);
  }
}

function setState(state: PageState): string {
  return `window.__roteRecorder && window.__roteRecorder.set(${JSON.stringify(state)})`;
}
