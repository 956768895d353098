import type { Page } from 'playwright';
import type { Agent, AgentAnswer, Observation } from '../agent/agent.js';
import { RoteError } from '../errors/roteError.js';
import { SECRET_MASK } from '../params/secret.js';
import { pointerAfter } from '../actions/action.js';
import { captureMessageSchema, type CapturedInput } from './capturedInput.js';
import { CapturePage, type PageState } from './capturePage.js';
import { expectationsFor, NO_EXPECTATIONS } from './expectedInput.js';
import { InputBatcher, type PersonAnswer, type PersonInput } from './inputBatcher.js';
import { checkPauses, pausesOf, type PersonAgentOptions } from './personOptions.js';

export type { PersonAgentOptions } from './personOptions.js';


/**
 * A person at the browser, as an ordinary Agent. Their clicks, typing, keys, wheel and choices in
 * a <select> are held back from the page by a capture script and answered to the engine as
 * actions, which the engine then performs and records with evidence from the page before each one,
 * as it does for any agent. The page takes input only from the engine's performing (see
 * expectedInput.ts); what the person does meanwhile is queued. The person finishes with the
 * "Finish recording" control on the page, by closing the page, or `finish()`; `abort()` ends the
 * run as failed, so nothing is stored.
 *
 * ```ts
 * const person = await PersonAgent.attach(page);   // before page.goto
 * await page.goto(url);
 * const result = await rote.run(page, { task, params, agent: person, mode: 'record' });
 * ```
 */
export class PersonAgent implements Agent {
  readonly name = 'person';
  private readonly batcher = new InputBatcher();
  /** Answers complete and not yet asked for. */
  private readonly ready: PersonAnswer[] = [];
  /**
   * Input that came while the engine performed: batched when the engine asks next, once every
   * report of its performing has arrived (a key of the person's may need to go back in place).
   */
  private readonly raw: PersonInput[] = [];
  private waiting: { resolve: (answer: AgentAnswer) => void; reject: (error: unknown) => void } | undefined;
  private state: PageState = { active: true, armed: false, expect: NO_EXPECTATIONS };
  /** The page's current document; input from another is from a page that is gone. */
  private doc: string | undefined;
  private ended = false;
  private failure: RoteError | undefined;
  private pauseTimer: NodeJS.Timeout | undefined;
  private paramValues: string[] = [];
  private armed = false;
  /** Inputs received from each document, to tell when all the page reported has arrived. */
  private readonly received = new Map<string, number>();
  private readonly listeners: (() => void)[] = [];
  /** Where the engine's actions left the pointer (a fresh page's is at 0, 0). */
  private pointer = { x: 0, y: 0 };
  private page!: CapturePage;

  private readonly pauses: ReturnType<typeof pausesOf>;

  private constructor(private readonly options: PersonAgentOptions) {
    this.pauses = pausesOf(options);
  }

  /** Starts capturing on `page` (this document and every later one). Attach before `page.goto`. */
  static async attach(page: Page, options: PersonAgentOptions = {}): Promise<PersonAgent> {
    checkPauses(options);
    if (page.isClosed()) throw new RoteError('page-closed', 'PersonAgent.attach: the page is closed');
    const agent = new PersonAgent(options);
    agent.page = await CapturePage.install(page, (fromMainFrame, message) => agent.receive(fromMainFrame, message));
    page.once('close', () => agent.finish({ pageClosed: true }));
    return agent;
  }

  async next(observation: Observation): Promise<AgentAnswer> {
    // A native prompt blocks the page (and this recorder's overlay with it): it is answered with
    // the text it offers, as OK would. Typing another answer is not recorded by a person yet.
    if (observation.dialog) return { actions: [], dialog: { accept: true } };
    // Non-secret values only: the observation shows secrets as the mask.
    this.paramValues = Object.values(observation.params).filter((value) => value !== SECRET_MASK && value !== '');
    if (this.failure) throw this.failure;
    if (this.waiting) throw new RoteError('internal', 'PersonAgent.next: asked again before the previous answer');
    await this.caughtUp();
    this.feed(this.raw.splice(0));
    if (this.ended) this.ready.push(...this.batcher.flush());
    const queued = this.ready.shift();
    if (queued) return this.answer(queued);
    this.batcher.performed();
    if (this.ended) return this.done();
    const answer = new Promise<AgentAnswer>((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
    await this.pushState({ active: true, armed: true, expect: NO_EXPECTATIONS, ...this.preview() });
    if (this.waiting) {
      this.armed = true;
      this.listeners.splice(0).forEach((listener) => listener());
    }
    return answer;
  }

  /**
   * Resolves when rote waits for the person's next input: for scripts and tests that drive the
   * page in the person's place. Input sent earlier is queued, not lost; this only makes the order
   * of a script's input and the engine's performing plain.
   */
  async listening(): Promise<void> {
    for (;;) {
      if (this.ended || this.failure) return;
      // Input the page reported may still be on its way (a driver's click resolves before its report arrives).
      await this.caughtUp();
      if (this.armed) return;
      await new Promise<void>((resolve) => this.listeners.push(resolve));
    }
  }

  /** Waits (a little) until every input the page has reported so far has been received. */
  private async caughtUp(): Promise<void> {
    const reported = await this.page.reported();
    if (!reported) return;
    const deadline = Date.now() + 2000;
    while ((this.received.get(reported.doc) ?? 0) < reported.sent && Date.now() < deadline && !this.page.closed) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The person is done: what they typed last is still recorded, then the agent answers done. */
  finish(how: { pageClosed?: boolean } = {}): void {
    if (this.ended || this.failure) return;
    this.ended = true;
    this.clearPause();
    if (how.pageClosed) {
      // Nothing more can be performed on a closed page.
      const lost = this.ready.length + this.raw.length + (this.batcher.discard() ? 1 : 0);
      this.ready.length = 0;
      this.raw.length = 0;
      if (lost > 0) this.notice(`${lost} input${lost === 1 ? '' : 's'} made after the last recorded step ${lost === 1 ? 'was' : 'were'} not recorded: the page closed`);
    } else if (this.waiting) {
      // Otherwise the engine is performing: the next ask takes what came meanwhile, then this.
      this.ready.push(...this.batcher.flush());
    }
    this.deliver();
    this.listeners.splice(0).forEach((listener) => listener());
  }

  /** Ends the recording as failed (Ctrl+C): the run stores no trajectory. */
  abort(reason = 'the recording was aborted'): void {
    if (this.failure) return;
    this.failure = new RoteError('aborted', reason);
    this.clearPause();
    this.batcher.discard();
    this.ready.length = 0;
    this.raw.length = 0;
    const waiting = this.waiting;
    this.waiting = undefined;
    this.armed = false;
    waiting?.reject(this.failure);
    this.listeners.splice(0).forEach((listener) => listener());
    void this.release();
  }

  private async answer(answer: PersonAnswer): Promise<AgentAnswer> {
    // Hidden overlay and the engine's input let through before the engine looks at the page.
    await this.pushState({ active: true, armed: false, expect: expectationsFor(answer) });
    // The person's pointer rests on what they clicked, hovered; a replay checks the page with the
    // pointer where the previous step left it. The evidence is taken as a replay will see it.
    await this.page.movePointer(this.pointer);
    this.pointer = answer.actions.reduce((at, action) => pointerAfter(action, at), this.pointer);
    return { actions: answer.actions, intent: answer.intent };
  }

  private async done(): Promise<AgentAnswer> {
    await this.release();
    return { done: true };
  }

  /** The page is the page's own again: nothing captured, the overlay gone. */
  private async release(): Promise<void> {
    this.state = { active: false, armed: false, expect: NO_EXPECTATIONS };
    await this.page.setEverywhere(this.state);
  }

  private deliver(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    const next = this.ready.shift();
    if (!next && !this.ended) return;
    this.waiting = undefined;
    this.armed = false;
    (next ? this.answer(next) : this.done()).then(waiting.resolve, waiting.reject);
  }

  /** A message from the capture script; a new document's greeting is answered with the state. */
  private receive(top: boolean, raw: unknown): PageState | null {
    const parsed = captureMessageSchema.safeParse(raw);
    if (!parsed.success) return null;
    const message = parsed.data;
    if ('hello' in message) {
      if (!top) return { active: this.state.active, armed: false, expect: NO_EXPECTATIONS };
      if (message.doc !== this.doc) this.newDocument(message.doc);
      return { ...this.state, ...(this.state.armed ? this.preview() : {}) };
    }
    const input: CapturedInput = message.input;
    this.received.set(message.doc, (this.received.get(message.doc) ?? 0) + 1);
    if (input.kind === 'unsupported') {
      this.notice(`not recorded: ${input.what}`);
      return null;
    }
    if (!top || this.ended || this.failure) return null;
    if (this.doc !== undefined && message.doc !== this.doc) return null;
    if (input.kind === 'finish') {
      this.finish();
      return null;
    }
    if (this.waiting) {
      this.feed([input]);
      this.deliver();
      if (this.waiting && this.state.armed) void this.pushState({ ...this.state, ...this.preview() });
    } else {
      this.queue(input);
    }
    return null;
  }

  private feed(inputs: PersonInput[]): void {
    for (const input of inputs) {
      const result = this.batcher.push(input);
      if (result.notice) this.notice(`not recorded: ${result.notice}`);
      this.ready.push(...result.answers);
    }
    this.schedulePause();
  }

  /** Keeps input made while the engine performs; a key the person typed earlier goes back in its place. */
  private queue(input: PersonInput): void {
    const back = input.kind === 'key' ? input.back : undefined;
    if (back === undefined) {
      this.raw.push(input);
      return;
    }
    const keys = this.raw.flatMap((queued, index) => (queued.kind === 'key' ? [index] : []));
    const at = keys[keys.length - back];
    if (at === undefined) {
      this.raw.push(input);
      return;
    }
    const { back: _placed, ...placed } = input as Extract<PersonInput, { kind: 'key' }>;
    this.raw.splice(at, 0, placed);
  }

  /** A navigation: what was queued on the old document is about a page that is gone. */
  private newDocument(doc: string): void {
    const first = this.doc === undefined;
    this.doc = doc;
    this.state = { ...this.state, expect: NO_EXPECTATIONS };
    if (first) return;
    const lost = this.ready.length + this.raw.length + (this.batcher.discard() ? 1 : 0);
    this.ready.length = 0;
    this.raw.length = 0;
    if (lost > 0) this.notice(`${lost} input${lost === 1 ? '' : 's'} made while the page was changing ${lost === 1 ? 'was' : 'were'} not recorded; do ${lost === 1 ? 'it' : 'them'} again`);
  }

  private schedulePause(): void {
    this.clearPause();
    const kind = this.batcher.pendingKind;
    if (kind === undefined) return;
    // Typing into a password field is never cut by a pause: part of a secret is not a secret
    // parameter's value, and would be stored and printed as plain text. The next input or the
    // end of the recording ends it.
    if (kind === 'text' && this.batcher.pendingText?.secret) return;
    // A scroll gesture or a select's choice is over sooner than typing: the page should follow.
    const wait = kind !== 'text' ? this.pauses.gesturePauseMs : this.batcher.typingIsStartOf(this.paramValues) ? this.pauses.midValuePauseMs : this.pauses.typingPauseMs;
    this.pauseTimer = setTimeout(() => {
      this.pauseTimer = undefined;
      // While the engine performs, later input is queued: the pause is counted again when it asks.
      if (!this.waiting) return;
      this.ready.push(...this.batcher.flush());
      this.deliver();
    }, wait);
    this.pauseTimer.unref();
  }

  private clearPause(): void {
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
  }

  private preview(): { preview?: string } {
    const pending = this.batcher.pendingText;
    if (!pending || pending.text === '') return {};
    return { preview: pending.secret ? '\u2022'.repeat([...pending.text].length) : pending.text };
  }

  private async pushState(state: PageState): Promise<void> {
    this.state = state;
    await this.page.set(state);
  }

  private notice(message: string): void {
    this.options.onNotice?.(message);
  }
}
