import { createHash } from 'node:crypto';
import type { CDPSession, Locator, Page } from 'playwright';

/**
 * rote's larger in-page functions (a target's description, its look-alikes', settling's look:
 * 7 to 13 KB of source each, with the identity and change-log code they carry) are sent once per
 * document, not with every call. A call sends a short stub that runs the function the document
 * keeps; a document that has not got it yet (a new one, or a frame) answers KIT_MISSING, and the
 * call is sent again with the whole source, which the document then keeps. Sent with every call,
 * they were about 1 MB of a replay's 1.8 MB of DevTools messages on the intake form, which Node
 * writes and Chromium reads on every step's path.
 *
 * The kit lives in the main world of the page and of each frame the checks read (look-alikes are
 * counted in every frame), beside the change log: as trusted as everything else rote runs there (a
 * page's own script could redefine the DOM methods either uses). A function is kept under a name
 * that holds a hash of its source, so a document never runs another build's version; the kit has
 * no prototype, so no name resolves through Object.prototype.
 */
export const KIT_MISSING = '__roteKitMissing';

/**
 * A function expression (source text), the name the document keeps it under, and its two calls
 * (shortDeclaration, installingDeclaration), made once rather than on every step's call.
 */
export type KitFunction = { readonly key: string; readonly source: string; readonly short: string; readonly whole: string };

/** Every kit function defined (each module defines its own at load): what `warmDocument` sends ahead. */
const KITS: KitFunction[] = [];

export function kitFunction(label: string, source: string): KitFunction {
  const named = { key: `${label}-${createHash('sha256').update(source).digest('hex').slice(0, 16)}`, source };
  const fn = { ...named, short: shortDeclaration(named), whole: installingDeclaration(named) };
  KITS.push(fn);
  return fn;
}

/**
 * Readies a new document for the checks while nothing else is asked of it (settling's quiet
 * period after a load, a run's start): the kit in one evaluation (each function it lacks, none
 * run), and Playwright's own in-page script in the main world, which counting look-alikes needs
 * and which Playwright sends (about 340 KB) with the first query of each document. Changes
 * nothing in the page's DOM, so settling sees nothing of it. Never waited for, never fails.
 */
export function warmDocument(page: Page): void {
  void page.evaluate(kitInstaller()).catch(() => undefined);
  void page.locator(':root').evaluateAll(() => 0).catch(() => undefined);
}

type Named = Pick<KitFunction, 'key' | 'source'>;

/** A declaration that calls the kept function with `this` and its arguments, or answers KIT_MISSING. */
function shortDeclaration(fn: Named): string {
  return `function () { var kit = window.__roteKit, f = kit && kit[${JSON.stringify(fn.key)}]; return typeof f === 'function' ? f.apply(this, arguments) : ${JSON.stringify(KIT_MISSING)}; }`;
}

/**
 * The same call with the whole source: the document keeps the function (not enumerable, so a page
 * walking its window does not meet it), then it runs. A window that refuses a new property still
 * gets the call; it is sent whole again next time.
 */
function installingDeclaration(fn: Named): string {
  return `function () {
  var f = (${fn.source});
  try {
    if (!window.__roteKit) Object.defineProperty(window, '__roteKit', { value: Object.create(null), configurable: true });
    window.__roteKit[${JSON.stringify(fn.key)}] = f;
  } catch (e) {}
  return f.apply(this, arguments);
}`;
}

/** The evaluation that installs every kit function a document lacks, built once per set of functions. */
let installer: { count: number; expression: string } | undefined;
function kitInstaller(): string {
  if (installer?.count !== KITS.length) {
    const installs = KITS.map((fn) => `if (!kit[${JSON.stringify(fn.key)}]) kit[${JSON.stringify(fn.key)}] = (${fn.source});`).join('\n');
    const expression = `(function () {
  try {
    if (!window.__roteKit) Object.defineProperty(window, '__roteKit', { value: Object.create(null), configurable: true });
    var kit = window.__roteKit;
    ${installs}
  } catch (e) {}
  return 0;
})()`;
    installer = { count: KITS.length, expression };
  }
  return installer.expression;
}

const missing = (value: unknown) => value === KIT_MISSING;

/** Runtime.callFunctionOn of a kit function on a remote object; its other parameters as CDP takes them. */
export async function callKitOn(cdp: CDPSession, fn: KitFunction, params: { objectId: string; arguments: { value: unknown }[]; returnByValue: true }): Promise<unknown> {
  const short = await cdp.send('Runtime.callFunctionOn', { ...params, functionDeclaration: fn.short });
  if (!missing(short.result.value)) return short.result.value;
  const whole = await cdp.send('Runtime.callFunctionOn', { ...params, functionDeclaration: fn.whole });
  return whole.result.value;
}

/** page.evaluate of a kit function with JSON arguments (a returned promise is awaited). */
export async function evaluateKit(page: Page, fn: KitFunction, args: readonly (number | string | boolean | null)[]): Promise<unknown> {
  const list = args.map((arg) => JSON.stringify(arg)).join(', ');
  const short = await page.evaluate(`(${fn.short})(${list})`);
  return missing(short) ? page.evaluate(`(${fn.whole})(${list})`) : short;
}

/**
 * locator.evaluateAll of a kit function. The stubs are built with `new Function` from source text,
 * so Playwright sends exactly that text (a TS function could carry a transpiler's helpers).
 */
export async function evaluateAllKit<R, A>(locator: Locator, fn: KitFunction, arg: A): Promise<R> {
  const short = await locator.evaluateAll(stub(fn.short), arg);
  return (missing(short) ? await locator.evaluateAll(stub(fn.whole), arg) : short) as R;
}

const stubs = new Map<string, (elements: Element[], arg: unknown) => unknown>();

function stub(declaration: string): (elements: Element[], arg: unknown) => unknown {
  let made = stubs.get(declaration);
  if (!made) {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    made = new Function('elements', 'arg', `return (${declaration}).call(null, elements, arg);`) as (elements: Element[], arg: unknown) => unknown;
    stubs.set(declaration, made);
  }
  return made;
}
