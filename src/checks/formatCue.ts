import { createHash } from 'node:crypto';
import type { Page } from 'playwright';
import { z } from 'zod';
import type { BoundParams } from '../params/boundParams.js';
import { redactSecrets } from '../params/secret.js';
import { templateUses } from '../params/template.js';
import type { Format } from '../params/format.js';
import { withinDeadline, type Deadline } from '../progress/deadline.js';
import { hideSecretsInCut } from './secretTarget.js';

/**
 * What a text field says of the format it wants, besides its name: its placeholder ("dd/mm/yyyy"),
 * its pattern and title, the text aria-describedby names, and the words right after it up to the
 * next control ("MM/DD/YYYY" in small print). A step that types a value in a format learned when
 * recording (`{{start|date:DD/MM/YYYY}}`) types it in that format on replay; a page that now asks
 * for another (a locale setting, a server moved to US dates) would take 03/04 for 4 March, and
 * nothing else checked shows the change: the name is the same, the crop masks the field's inside
 * and compares the field alone. So the cue is kept with such a step and must read the same.
 */
export const formatCueSchema = z
  .object({
    placeholder: z.string().optional(),
    pattern: z.string().optional(),
    title: z.string().optional(),
    describedBy: z.string().optional(),
    after: z.string().optional(),
    /** The field's cue could not be read when recorded (the page would not answer): no replay can show it the same. */
    unread: z.literal(true).optional(),
  })
  .strip();

export type FormatCue = z.infer<typeof formatCueSchema>;

const CUE_PARTS = ['placeholder', 'pattern', 'title', 'describedBy', 'after'] as const satisfies readonly (keyof FormatCue)[];

const CUE_WORDS: Record<(typeof CUE_PARTS)[number], string> = {
  placeholder: 'placeholder',
  pattern: 'pattern',
  title: 'title',
  describedBy: 'description',
  after: 'text after it',
};

/** What a part may hold in the page's answer: a long description is compared whole, by its hash. */
const READ_LIMIT = 2000;
/** The words after the field are read up to the next text control, and no further than this. */
const AFTER_LIMIT = 200;
/** A part longer than this is stored as its first words and a hash of the whole. */
const STORED_LIMIT = 80;

/**
 * Runs in the page: the focused text control's cue (where typing goes: into same-origin frames
 * and open shadow roots, as rote's target read goes), or null when the focus is on none. The text
 * after it is read in document order from the control, within its grandparent (or its shadow
 * root), skipping what is not shown and buttons (a date picker's), up to the next text control.
 */
const FORMAT_CUE_JS = `(function (readLimit, afterLimit) {
  var el = document.activeElement;
  for (var depth = 0; el && depth < 10; depth++) {
    if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
    if ((el.tagName === 'IFRAME' || el.tagName === 'FRAME')) {
      var inner = null;
      try { inner = el.contentDocument && el.contentDocument.activeElement; } catch (e) { inner = null; }
      if (inner && inner !== el.contentDocument.body) { el = inner; continue; }
    }
    break;
  }
  var textEntry = function (node) {
    if (!node || node.nodeType !== 1) return false;
    if (node.tagName === 'TEXTAREA' || node.isContentEditable) return true;
    if (node.tagName !== 'INPUT') return false;
    return !/^(hidden|checkbox|radio|submit|button|reset|image|file|color|range)$/i.test(node.type || '');
  };
  if (!textEntry(el)) return null;
  var clean = function (text, limit) { return String(text || '').replace(/\\s+/g, ' ').trim().slice(0, limit); };
  var cue = {};
  var attr = function (name, key) { var v = clean(el.getAttribute(name), readLimit); if (v) cue[key] = v; };
  attr('placeholder', 'placeholder');
  attr('pattern', 'pattern');
  attr('title', 'title');
  var root = el.getRootNode();
  var byId = function (id) { return root && typeof root.getElementById === 'function' ? root.getElementById(id) : el.ownerDocument.getElementById(id); };
  var described = (el.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean).map(function (id) { var d = byId(id); return d ? d.textContent : ''; }).join(' ');
  if (clean(described, readLimit)) cue.describedBy = clean(described, readLimit);
  var scope = (el.parentElement && el.parentElement.parentElement) || el.parentElement || (root !== el.ownerDocument ? root : null);
  if (scope) {
    var shown = function (node) { return typeof node.checkVisibility !== 'function' || node.checkVisibility({ visibilityProperty: true, opacityProperty: true }); };
    var walker = el.ownerDocument.createTreeWalker(scope, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    var past = false, words = '';
    for (var node = walker.nextNode(); node && words.length < afterLimit; node = walker.nextNode()) {
      if (!past) { if (node === el) past = true; continue; }
      // The control's own text (a contenteditable's) is not what stands after it.
      if (el.contains(node)) continue;
      if (node.nodeType === 1) { if (textEntry(node) || node.tagName === 'SELECT' || /^(textbox|combobox|searchbox|spinbutton)$/.test(node.getAttribute('role') || '')) break; continue; }
      var parent = node.parentElement;
      if (!parent || parent.closest('script,style,template') || !shown(parent)) continue;
      words += ' ' + node.textContent;
    }
    if (clean(words, afterLimit)) cue.after = clean(words, afterLimit);
  }
  return cue;
})`;

/** The focused text control's cue, or undefined when there is none (no text control has the focus, the page cannot be read). */
export async function readFormatCue(page: Page, deadline: Deadline): Promise<FormatCue | undefined> {
  try {
    const found = await withinDeadline(deadline, page.evaluate(`${FORMAT_CUE_JS}(${READ_LIMIT}, ${AFTER_LIMIT})`), "reading the field's format cue");
    if (found === null || typeof found !== 'object') return undefined;
    const parsed = formatCueSchema.safeParse(found);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cue as it is stored: a secret it shows is its {{name}}. A field that says nothing of its
 * format is stored as an empty cue, so one that says something on replay differs from it.
 */
export function storedFormatCue(cue: FormatCue, params: BoundParams): FormatCue {
  const stored: FormatCue = {};
  for (const part of CUE_PARTS) {
    const text = cue[part];
    if (text) stored[part] = storedPart(hideSecretsInCut(text.replace(/\s+/g, ' ').trim(), text.length >= READ_LIMIT, params));
  }
  return stored;
}

/** A part as stored: whole when short; else its first words and a hash of the whole (a format said at the end of a long hint is compared too). */
function storedPart(text: string): string {
  if (text.length <= STORED_LIMIT) return text;
  const hash = createHash('sha256').update(text.toLowerCase()).digest('hex').slice(0, 16);
  return `${text.slice(0, STORED_LIMIT - 24)}... #${hash}`;
}

/** The cue of a field that could not be read when recorded: a learned format is never typed there from the cache. */
export const UNREAD_CUE: FormatCue = { unread: true };

/** Formats whose output depends on a convention a page may change: the order of a date's parts, a clock, a number's separators, a phone's layout. */
function conventional(format: Format): boolean {
  switch (format.kind) {
    case 'date':
    case 'time':
    case 'datetime':
    case 'number':
    case 'money':
    case 'phone':
      return true;
    case 'from':
    case 'case':
    case 'word':
    case 'bool':
      return false;
  }
}

/** Whether typed text renders a value in such a format (`{{start|date:DD/MM/YYYY}}`), so the field's cue must still ask for it. */
export function typesInLearnedFormat(text: string): boolean {
  try {
    return templateUses(text).some((use) => use.formats.some(conventional));
  } catch {
    // A format this version cannot read is no proof that the field's convention does not matter.
    return true;
  }
}

/**
 * Why the field may now want another format than the one the step types: each part of the cue
 * that differs from the recording's (compared with whitespace and case aside), or undefined when
 * none does. A live cue that could not be read is a difference: the format cannot be shown the same.
 */
export function formatCueDifference(recorded: FormatCue, live: FormatCue | undefined, params: BoundParams): string | undefined {
  if (recorded.unread) return "the field's format cue (placeholder, description, the text after it) could not be read when recorded";
  if (!live) return "the field's format cue (placeholder, description, the text after it) could not be read";
  const fold = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  const stored = storedFormatCue(live, params);
  const changed = CUE_PARTS.filter((part) => fold(recorded[part]) !== fold(stored[part]));
  if (changed.length === 0) return undefined;
  const shown = (text: string | undefined) => (text ? JSON.stringify(redactSecrets(text, params)) : 'none');
  return changed.map((part) => `${CUE_WORDS[part]} ${shown(stored[part])} (recorded ${shown(recorded[part])})`).join(', ');
}

/**
 * Why a step that types `text` into the focused field may not be replayed: its text renders a value
 * in a learned format and the field's cue now reads otherwise than `recorded`; undefined when it may.
 */
export async function learnedFormatProblem(page: Page, recorded: FormatCue, text: string, params: BoundParams, deadline: Deadline): Promise<string | undefined> {
  if (!typesInLearnedFormat(text)) return undefined;
  const changed = formatCueDifference(recorded, await readFormatCue(page, deadline), params);
  return changed ? `the field may now want its value in another format than the step types (${changed}): typed as recorded, it could be read as another value` : undefined;
}
