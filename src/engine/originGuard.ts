import type { Page } from 'playwright';
import { actionTexts } from '../actions/actionText.js';
import type { Action } from '../actions/action.js';
import { RoteError } from '../errors/roteError.js';
import type { BoundParams } from '../params/boundParams.js';
import { templateNames } from '../params/template.js';
import { httpOrigin } from '../checks/urlCheck.js';

/**
 * Where a run may act. With an allowlist (`allowedOrigins`), every step ends on one of its
 * origins or the run fails: an agent that navigates elsewhere, a page that redirects there. And
 * wherever a run types a secret, the page is on the origin the task started on (or an allowed
 * one) and the focus is in that page itself, never in a frame another origin may own: a page
 * cannot steer rote into typing a password somewhere else.
 */
export class OriginGuard {
  private readonly allowed: ReadonlySet<string> | undefined;
  /** Where a secret may be typed: the start origin, and the allowed ones. */
  private readonly secretOrigins: Set<string>;
  /** A run that starts on a page with no web origin (about:blank) takes the first one it reaches as its start. */
  private startKnown: boolean;

  constructor(
    startUrl: string,
    allowedOrigins: readonly string[] | undefined,
    private readonly apiName: string,
  ) {
    this.allowed = allowedOrigins ? new Set(allowedOrigins) : undefined;
    const start = httpOrigin(startUrl);
    this.startKnown = start !== undefined;
    this.secretOrigins = new Set([start, ...(allowedOrigins ?? [])].filter((origin): origin is string => origin !== undefined));
  }

  /** After a step: the page must be on an allowed origin. */
  checkPage(page: Page, step: number): void {
    if (!this.startKnown) {
      const reached = httpOrigin(page.url());
      if (reached !== undefined) {
        this.secretOrigins.add(reached);
        this.startKnown = true;
      }
    }
    if (!this.allowed) return;
    const origin = httpOrigin(page.url());
    if (origin === undefined || !this.allowed.has(origin)) {
      throw new RoteError('origin-not-allowed', `${this.apiName}: after step ${step} the page is on ${origin ?? page.url()}, which allowedOrigins does not list (${[...this.allowed].join(', ')}); the run stops here`);
    }
  }

  /** Before an agent's goto: the URL must be on an allowed origin. */
  checkNavigation(action: Action, step: number): void {
    if (!this.allowed || action.type !== 'goto') return;
    const origin = httpOrigin(action.url);
    if (origin === undefined || !this.allowed.has(origin)) {
      throw new RoteError('origin-not-allowed', `${this.apiName}: step ${step} would go to ${origin ?? action.url}, which allowedOrigins does not list (${[...this.allowed].join(', ')}); not done`);
    }
  }

  /**
   * Before typing (or any action whose text uses a secret): the page is on the start origin or an
   * allowed one, and the focused element is in a document of that same origin (a frame of
   * another origin, or one whose origin cannot be read, is refused).
   */
  async checkSecretTyping(page: Page, templated: Action, params: BoundParams, step: number): Promise<void> {
    // A URL holds its templates percent-encoded ({{ as %7B%7B): read them as typed text is read.
    const texts = actionTexts(templated).map((text) => text.replace(/%7B/gi, '{').replace(/%7D/gi, '}'));
    const secrets = texts.flatMap(templateNames).filter((name) => params.isSecret(name));
    if (secrets.length === 0) return;
    const what = `step ${step} would ${templated.type === 'goto' ? 'send' : 'type'} the secret ${secrets.map((name) => `{{${name}}}`).join(', ')}`;
    // A URL that carries a secret goes where it points: that origin is the one that must be trusted.
    if (templated.type === 'goto') {
      const target = httpOrigin(texts[0]!.replace(/\{\{[^}]*\}\}/g, 'x'));
      if (target === undefined || !this.secretOrigins.has(target)) {
        throw new RoteError('origin-not-allowed', `${this.apiName}: ${what} to ${target ?? 'a URL with no web origin'}, not to the origin the task started on (${[...this.secretOrigins].join(', ')}); not done`);
      }
      return;
    }
    const origin = httpOrigin(page.url());
    if (origin === undefined || !this.secretOrigins.has(origin)) {
      throw new RoteError('origin-not-allowed', `${this.apiName}: ${what} on ${origin ?? page.url()}, not on the origin the task started on (${[...this.secretOrigins].join(', ')}); not done`);
    }
    const focused = await focusedFrameOrigin(page);
    if (focused !== origin) {
      throw new RoteError('origin-not-allowed', `${this.apiName}: ${what} into a frame on ${focused ?? 'an origin that cannot be read'}, inside a page on ${origin}; not done`);
    }
  }
}

/** Frames within frames are followed this deep, no deeper (a page that nests more is refused). */
const MAX_FRAME_DEPTH = 5;

/**
 * The origin of the document that holds the focus: the page's own, or, where the focus sits in a
 * frame, that frame's (followed down through nested frames). Undefined where it cannot be told.
 */
async function focusedFrameOrigin(page: Page): Promise<string | undefined> {
  let frame = page.mainFrame();
  for (let depth = 0; depth <= MAX_FRAME_DEPTH; depth++) {
    // Into open shadow roots too: the host is not what holds the focus.
    const active = await frame.evaluateHandle(() => {
      let at = document.activeElement;
      while (at && at.shadowRoot && at.shadowRoot.activeElement) at = at.shadowRoot.activeElement;
      return at;
    });
    const element = active.asElement();
    const tag = element ? await element.evaluate((node) => node.tagName).catch(() => '') : '';
    const inner = element ? await element.contentFrame().catch(() => null) : null;
    await active.dispose();
    if (inner) {
      frame = inner;
      continue;
    }
    // A frame element whose document cannot be reached is a frame rote cannot vouch for.
    if (['IFRAME', 'FRAME', 'OBJECT', 'EMBED'].includes(tag.toUpperCase())) return undefined;
    return httpOrigin(frame.url());
  }
  return undefined;
}
