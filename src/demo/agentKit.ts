/**
 * What the scripted DOM-reading agents share: the demo agent and the benchmark apps' agents
 * (bench/apps/*), which stand in for a model. Each reads the live page with one in-page script
 * per call and answers with clicks at element centres. They share the in-page basics and the
 * answer helpers here, so that "visible", "click" and "scroll into view" mean the same for all.
 */
import type { Page } from 'playwright';
import type { ActionInput } from '../actions/action.js';
import type { AgentAnswer } from '../agent/agent.js';
import { messageOf } from '../errors/messageOf.js';

/** An element's box relative to the viewport, in CSS pixels (as getBoundingClientRect gives it). */
export type Box = { x: number; y: number; width: number; height: number };
export type Viewport = { width: number; height: number };

/**
 * In-page JavaScript for a snapshot script to include. It is source text, not TS functions,
 * because a transpiler helper (esbuild's `__name`) would leak into page.evaluate and break there.
 * Defines clean(s) (whitespace folded), visible(el), box(el) (a visible element's Box, else null)
 * and textOf(el) (an input's value, else its text).
 */
export const DOM_HELPERS_JS = String.raw`var clean = function (s) { return String(s == null ? '' : s).replace(/\s+/g, ' ').trim(); };
  var visible = function (el) {
    if (!el) return false;
    var r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    if (typeof el.checkVisibility === 'function') return el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    var s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0';
  };
  var box = function (el) {
    if (!visible(el)) return null;
    var r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  };
  var textOf = function (el) { return clean(el.tagName === 'INPUT' ? el.value : el.textContent); };`;

/**
 * In-page JavaScript (after DOM_HELPERS_JS) defining firstDialog(): the first visible dialog as
 * { text, button: the Box of its first visible button or null }, or null when none is open.
 */
export const FIRST_DIALOG_JS = String.raw`var firstDialog = function () {
    var dialogs = document.querySelectorAll('[role="dialog"], [role="alertdialog"], dialog[open]');
    for (var i = 0; i < dialogs.length; i++) {
      var d = dialogs[i];
      if (!visible(d)) continue;
      var buttons = Array.prototype.filter.call(d.querySelectorAll('button, input[type="button"], input[type="submit"], [role="button"]'), visible);
      return { text: clean(d.getAttribute('aria-label') || d.textContent), button: buttons.length ? box(buttons[0]) : null };
    }
    return null;
  };`;

/**
 * Runs `script` (the source of a function expression) in the page on `arg`. When the agent is
 * asked while a navigation is still under way the page's context is destroyed mid-call; it then
 * reads the new page instead, up to three times.
 */
export async function evaluateSnapshot<T>(page: Page, script: string, arg: unknown): Promise<T> {
  const expression = `${script}(${JSON.stringify(arg)})`;
  for (let attempt = 0; ; attempt++) {
    try {
      return (await page.evaluate(expression)) as T;
    } catch (error) {
      const message = messageOf(error);
      if (attempt >= 3 || !/context was destroyed|navigat/i.test(message)) throw error;
      await page.waitForLoadState('load').catch(() => undefined);
    }
  }
}

export function centre(box: Box): { x: number; y: number } {
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

/** Whether the box's centre, where a click would land, is on screen. */
export function inViewport(box: Box, viewport: Viewport): boolean {
  const c = centre(box);
  return c.x >= 0 && c.y >= 0 && c.x < viewport.width && c.y < viewport.height;
}

export type ScrollStyle = {
  /**
   * Also scroll vertically (the target to two thirds down) when only x is off-screen. The demo
   * agent has always scrolled so; the option keeps its answers as they were.
   */
  alwaysScrollY?: boolean;
};

/**
 * A click at the centre of `box` followed by `rest`, or, when the centre is off-screen, a scroll
 * that brings it into view instead: the agents never move the page behind the engine's back, so
 * a scroll is an action like any other. A target above lands a third of the way down, one below
 * two thirds down. No box (the element is not visible): null.
 */
export function clickOrScroll(box: Box, viewport: Viewport, rest: ActionInput[], intent: string, style?: ScrollStyle): AgentAnswer;
export function clickOrScroll(box: Box | null, viewport: Viewport, rest: ActionInput[], intent: string, style?: ScrollStyle): AgentAnswer | null;
export function clickOrScroll(box: Box | null, viewport: Viewport, rest: ActionInput[], intent: string, style: ScrollStyle = {}): AgentAnswer | null {
  if (!box) return null;
  const c = centre(box);
  if (!inViewport(box, viewport)) {
    const scrollY = c.y < 0 ? c.y - viewport.height / 3 : style.alwaysScrollY || c.y >= viewport.height ? c.y - (viewport.height * 2) / 3 : 0;
    const scrollX = c.x < 0 || c.x >= viewport.width ? c.x - viewport.width / 2 : 0;
    return {
      actions: [{ type: 'scroll', x: Math.round(viewport.width / 2), y: Math.round(viewport.height / 2), scroll_x: Math.round(scrollX), scroll_y: Math.round(scrollY) }],
      intent: `Scroll to ${intent.replace(/^\w+ /, '')}`,
    };
  }
  return { actions: [{ type: 'click', x: c.x, y: c.y, button: 'left' }, ...rest], intent };
}

/** The keys that replace a clicked field's `current` text with `text`; select-all only when there is text to replace. */
export function typeOver(current: string, text: string): ActionInput[] {
  return current === '' ? [{ type: 'type', text }] : [{ type: 'keypress', keys: ['CTRL', 'A'] }, { type: 'type', text }];
}

/** Case and punctuation aside, so that a parameter "new-york" matches the option "New York". */
export function norm(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The first option whose value or label is `wanted`, case and punctuation aside. */
export function matchOption<T extends { value: string; label: string }>(options: readonly T[], wanted: string): T | undefined {
  return options.find((o) => norm(o.value) === norm(wanted) || norm(o.label) === norm(wanted));
}

const TRUTHY = new Set(['true', 'yes', 'y', '1', 'on', 'checked']);

/** Whether a parameter asks for a checkbox to be ticked; parameters arrive as strings. */
export function isTruthy(value: string): boolean {
  return TRUTHY.has(value.trim().toLowerCase());
}
