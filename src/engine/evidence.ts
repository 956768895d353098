import { readFormatCue, storedFormatCue, UNREAD_CUE } from '../checks/formatCue.js';
import { actionPoint, type Action } from '../actions/action.js';
import type { TypeMode } from '../actions/perform.js';
import type { Fingerprint, Target } from '../checks/fingerprint.js';
import type { Box } from '../checks/geometry.js';
import { paramRegions } from '../checks/paramRegions.js';
import { paintBoxes, secretRegions } from '../checks/secretMask.js';
import { storedFingerprint, storedWatch } from '../checks/secretTarget.js';
import { focusedTarget, targetAt, type CaptureOptions } from '../checks/target.js';
import { templatedUrl } from '../checks/urlCheck.js';
import { shownValues } from '../checks/shownValues.js';
import { untouchedFormState } from '../checks/formState.js';
import { cropRectFor, insideOf, screenshotCrop } from '../checks/visual.js';
import type { Page } from 'playwright';
import type { BoundParams } from '../params/boundParams.js';
import type { Deadline } from '../progress/deadline.js';
import { recordIdentity } from './targetIdentity.js';
import type { NodeState } from '../trajectory/trajectoryNode.js';

/** The evidence recorded with an agent's action, taken on the page just before it acts. */
export type RecordedEvidence = {
  url: string;
  target: Target | null;
  fingerprint: Fingerprint | null;
  box: Box | null;
  crop: Buffer | null;
  /** Crop relative to the target box. */
  cropRect: Box | null;
  masks: Box[];
  state: NodeState;
};

/** Where an action lands: at its point, or where the focus is for typing and keys; undefined for one that lands on no element. */
export type Landing = { mode: 'point'; x: number; y: number } | { mode: 'focus' };

export function landingOf(action: Action, point = actionPoint(action)): Landing | undefined {
  if (point) return { mode: 'point', x: point.x, y: point.y };
  return action.type === 'type' || action.type === 'keypress' ? { mode: 'focus' } : undefined;
}

/** Where a step may send a form from: a click's point, or the focus (null) for Enter; undefined: it sends none (formState.ts). */
export function sendingPoint(action: Action): { x: number; y: number } | null | undefined {
  switch (action.type) {
    case 'click':
    case 'double_click':
      return { x: action.x, y: action.y };
    case 'keypress':
      return action.keys.some((key) => /^(enter|return)$/i.test(key)) ? null : undefined;
    case 'type':
      // Typed text that ends a line presses Enter in the field.
      return /[\n\r]/.test(action.text) ? null : undefined;
    case 'drag':
    case 'scroll':
    case 'move':
    case 'wait':
    case 'goto':
    case 'tool':
      return undefined;
  }
}

/** The element an action lands on: under its point, or holding the focus for typing and keys. */
export async function targetOf(page: Page, action: Action, options: CaptureOptions, point = actionPoint(action)): Promise<Target | null> {
  const landing = landingOf(action, point);
  if (!landing) return null;
  return landing.mode === 'point' ? targetAt(page, landing, options) : focusedTarget(page, options);
}

/** Inputs whose typed segments depend on the browser's locale: replayed by value. */
const VALUE_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week']);

export function typeModeFor(target: Target | null): TypeMode {
  if (!target) return 'keys';
  if (target.fingerprint.tag === 'select') return 'select';
  if (target.fingerprint.tag === 'input' && VALUE_INPUTS.has(target.fingerprint.inputType ?? '')) return 'value';
  const textControl = target.fingerprint.tag === 'textarea' || (target.fingerprint.tag === 'input' && target.fingerprint.inputType !== null);
  return textControl && !target.hasText ? 'replace' : 'keys';
}

/**
 * What a text field typed into said of its format (formatCue.ts): kept with every such step, and
 * compared on replay where the step's text renders a value in a learned format.
 */
async function formatCueOf(page: Page, target: Target, params: BoundParams, deadline: Deadline): Promise<Pick<NodeState, 'formatCue'>> {
  // A select is chosen by its option; a native date or time input is set by its ISO value, whatever it shows.
  if (!target.showsValue || target.fingerprint.tag === 'select' || typeModeFor(target) === 'value') return {};
  const cue = await readFormatCue(page, deadline);
  // A field whose cue could not be read now cannot be shown the same later: marked, never left unchecked.
  return { formatCue: cue ? storedFormatCue(cue, params) : UNREAD_CUE };
}

export async function captureEvidence(page: Page, action: Action, params: BoundParams, task: string, deadline: Deadline): Promise<RecordedEvidence> {
  const url = templatedUrl(page.url(), params);
  const point = actionPoint(action);
  const target = await targetOf(page, action, { deadline, cells: true }, point);
  // Which controls already show a parameter's value; kept at commit for the parameters the run never set.
  const shown = await shownValues(page, params.toRecord());
  const watches: NodeState = shown.length > 0 ? { watches: shown.map((watch) => storedWatch(watch, params)) } : {};
  if (!target) return { url, target, fingerprint: null, box: null, crop: null, cropRect: null, masks: [], state: watches };

  // The form the step sends, as its untouched controls held it: a replay sends it only so (formState.ts).
  const sending = sendingPoint(action);
  const form = sending === undefined ? undefined : await untouchedFormState(page, sending, shown.map((watch) => watch.selector), deadline);
  const state: NodeState = {
    ...watches,
    ...(form && form.length > 0 ? { formState: form } : {}),
    // How many elements share the target's kind, and if not one, what tells it apart (see locateTarget).
    ...(await recordIdentity(page, target, action, params, task, deadline)),
    ...(target.checked !== null ? { checkedBefore: target.checked } : {}),
    ...(target.disabled ? { disabled: true } : {}),
    ...(action.type === 'type' ? { typeMode: typeModeFor(target) } : {}),
    ...(action.type === 'type' ? await formatCueOf(page, target, params, deadline) : {}),
  };
  // A secret the target's name or container shows is stored as its {{name}}; checks render it back.
  const fingerprint = storedFingerprint(target.fingerprint, params);

  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  // The crop shows the target and what stands right against it: which element it is, the identity
  // says; the crop says it looks as it did (not covered, not disabled, not restyled).
  const rect = cropRectFor(target.box, point, viewport);
  if (!rect) return { url, target, fingerprint, box: target.box, crop: null, cropRect: null, masks: [], state };
  // Password fields and shown secrets are painted over before the crop is kept, and masked in
  // every comparison, so a replay (whose live crop shows them) compares the same way.
  const hidden = await secretRegions(page, params, rect);
  const crop = await paintBoxes(await screenshotCrop(page, rect, deadline), hidden);
  const masks = await paramRegions(page, params.shownForms(), rect);
  masks.push(...hidden);
  // What a text field or select shows is data (this record's phone number), not the control: mask its inside.
  if (target.showsValue) masks.push(insideOf(target.box, rect));
  const cropRect = { x: rect.x - target.box.x, y: rect.y - target.box.y, width: rect.width, height: rect.height };
  return { url, target, fingerprint, box: target.box, crop, cropRect, masks, state };
}
