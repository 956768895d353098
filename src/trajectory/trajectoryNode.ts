import { z } from 'zod';
import { actionSchema, type Action } from '../actions/action.js';
import type { Fingerprint } from '../checks/fingerprint.js';
import type { Box } from '../checks/geometry.js';
import { formatCueSchema } from '../checks/formatCue.js';
import { identitySchema } from '../checks/identity.js';
import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { UnreadableColumn, type NodeRow } from '../store/rows.js';
import { valueKeySchema } from './valueKeys.js';

/** One recorded step and the evidence that makes it safe to repeat. */
export type TrajectoryNode = {
  id: string;
  taskId: string;
  parentId: string | null;
  resumeAtId: string | null;
  /** With parameter values replaced by `{{name}}` templates. */
  action: Action;
  intent: string | null;
  /** The page URL the action was taken on. */
  url: string;
  fingerprint: Fingerprint | null;
  /** The target's box when recorded (viewport CSS pixels). */
  box: Box | null;
  cropHash: string | null;
  /** The crop relative to the target's box: x/y offsets from the box origin, and its size. */
  cropRect: Box | null;
  /** Crop-relative regions that rendered parameter values. */
  masks: Box[];
  state: NodeState;
  endsRun: boolean;
  lastSuccessAt: number | null;
};

/** Shapes of a node's evidence, shared with recordings (which read them strictly). */
export const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export const fingerprintSchema = z.object({ role: z.string(), name: z.string(), tag: z.string(), inputType: z.string().nullable() });
/** A native dialog a step raised and how it was answered. */
export const recordedDialogSchema = z.object({
  type: z.string(),
  /** The message, with parameter values as templates. */
  message: z.string(),
  accepted: z.boolean(),
  /** A prompt's answer as typed (templated); absent: the text the prompt offered, as OK with no typing sends. */
  text: z.string().optional(),
});
export type RecordedDialog = z.infer<typeof recordedDialogSchema>;

/** One region of the page a step waited for, in the state it had when the step acted. */
export const waitRegionSchema = z.object({
  /** Where it is: a CSS path from the nearest ancestor with a stable id (or the body). */
  path: z.string(),
  /** What it read then (templated), when it is short enough to be a reading and not a whole section. */
  text: z.string().optional(),
  visible: z.boolean(),
  /** State attributes that changed while waiting (aria-valuenow, value, disabled...), as they were. */
  attrs: z.record(z.string(), z.string()).optional(),
  /** Its number only rose (or fell) while the recording watched: once past the wanted value, it is not coming. */
  trend: z.enum(['up', 'down']).optional(),
});
export type WaitRegion = z.infer<typeof waitRegionSchema>;

/** An element's place among others: the index-th (from 0) of `of`. */
const placeSchema = z.object({ index: z.number().int().nonnegative(), of: z.number().int().positive() });

/**
 * What a node keeps besides its action: how to replay it and how sure we were of the target.
 * The schema is the type: stored rows are read through it, and nothing else says the shape.
 */
export const stateSchema = z
  .object({
    /**
     * Whether the page loaded a new document while this step acted and settled, and between the
     * step before and this one, when recorded. A replay that sees a load where the recording had
     * none has lost what the steps before entered (a page that reloaded itself): it goes no
     * further from the cache. Absent in trajectories recorded before these were kept (no guard).
     */
    navigated: z.boolean().optional(),
    navigatedBefore: z.boolean().optional(),
    /** The agent's first step after a dialog the recording did not have overlapped a cached step: tried there, where other steps are not. */
    afterDialog: z.boolean().optional(),
    /**
     * The window the step acted in, when not the run's own page: the n-th window a page of the run
     * opened (see RunWindows). A replay does the step only in that window.
     */
    window: z.number().int().positive().optional(),
    /** How a `type` step reaches the control (see TypeMode). */
    typeMode: z.enum(['keys', 'replace', 'select', 'value']).optional(),
    /** A checkbox or radio's state before and after the recorded click: replay sets the state, it does not toggle. */
    checkedBefore: z.boolean().nullable().optional(),
    checkedAfter: z.boolean().nullable().optional(),
    /** Visible elements sharing the target's kind (role and name, or tag) when recorded; 1 means unique, null unknown. */
    matches: z.number().int().nullable().optional(),
    /**
     * The nearest named container (row, dialog), kept by earlier versions and still read (recordings
     * and stores hold it). It is no longer compared: a layout table's row is every field's container.
     */
    context: z.string().nullable().optional(),
    /**
     * What told the target apart from its look-alikes when recorded (templated), required on
     * replay; with `position` among those it still shared everything with, the last resort.
     */
    identity: identitySchema.optional(),
    position: placeSchema.optional(),
    /**
     * A click known by words that neither a parameter nor the task's words gave (the row of "Ada
     * Byrne"): its place among all its look-alikes when recorded. A replay that finds those words
     * at another place diverges, as nothing recorded tells the words from the place (whichRecord.ts).
     */
    order: placeSchema.optional(),
    /**
     * Parameters whose value the target's row or list item showed when recorded, where nothing of
     * its identity was a template: a replay acts only on a record that shows this run's values.
     */
    holds: z.array(z.string()).optional(),
    /** The target's role and name are an ancestor's (a bare icon, a clickable div): its look-alikes are found by tag and own words. */
    roleFromAncestor: z.boolean().optional(),
    /** Such a target's own words (templated), what it is known by. */
    ownText: z.string().optional(),
    /** Parameter names whose values were equal when recorded, so the text could stand for any of them. */
    ambiguous: z.array(z.array(z.string())).optional(),
    /** A semantic target: the accessible name came from a parameter (`{{plan}}`), resolved by its new value. */
    nameTemplate: z.string().optional(),
    /** A checkbox set from this yes/no parameter, not toggled. */
    checkedParam: z.string().optional(),
    /** Parameters the recorded run put on the page from this step to its end. */
    ahead: z.array(z.string()).optional(),
    /** Controls that showed a value of a parameter the recorded run never set (it was already there). */
    watches: z.array(z.object({ param: z.string(), selector: z.string(), label: z.string() })).optional(),
    /** Parameters watched at this step or later, so a changed value is caught before the submit. */
    watchedAhead: z.array(z.string()).optional(),
    /**
     * The step sent a form (a click on its button, Enter in its field): the state its controls that
     * no step set held then, as formState.ts reads them (no values). A replay sends it only as it was.
     */
    formState: z.array(z.object({ key: z.string(), state: z.string() })).optional(),
    /**
     * A `type` step into a text field: what the field said of its format when recorded (its
     * placeholder, pattern, title, description, the words after it; formatCue.ts). A step that
     * types a value in a learned format is replayed only where the field still says the same.
     */
    formatCue: formatCueSchema.optional(),
    /** The target was disabled when recorded (acting on it did nothing, by design). */
    disabled: z.boolean().optional(),
    /**
     * The URL the run ended on, on the node where the agent said it was done. Stored in its own
     * column (NodeRow.endUrl), so setting it is one update; a node stored before that column
     * keeps it in its state's JSON, which is read when the column is empty.
     */
    endUrl: z.string().optional(),
    /** Native dialogs (alert, confirm, prompt) the step raised, and how they were answered. */
    dialogs: z.array(recordedDialogSchema).optional(),
    /**
     * What the recording waited for before this step (an agent's wait, or time passing): the
     * regions that changed meanwhile, in the state they had when the step acted. A replay waits
     * for that state, never for the time.
     */
    waitFor: z.object({ waitedMs: z.number().nonnegative(), regions: z.array(waitRegionSchema) }).optional(),
    /** For parameters the recorded path never used: a hash of their recorded value (never the value). */
    valueHashes: z.record(z.string(), z.string()).optional(),
    /**
     * Further paths runs took through this step under other values, each as `ahead`, `watchedAhead`
     * and `valueHashes` say for the run that recorded it (see valueKeys.ts): a later run may take
     * the step when one of them fits its values. A path is learned here when none fitted the run
     * that took it, or when it settled a fork that nothing else told apart.
     */
    alsoUnder: z.array(valueKeySchema).optional(),
    /**
     * The values runs ended here under (hashes; never the values). A replay ends here only when one
     * fits: an end learned under `times: one` is not the end of a run with `times: two`. Absent on
     * ends kept before these were: the node's own `valueHashes` stand for them.
     */
    endsUnder: z.array(valueKeySchema).optional(),
    /**
     * Parameters this step sets without typing them (a spinner's arrow, a calendar's day, a custom
     * list's option: the page showed the value after the steps that set it), each with the hash of
     * a value it was done for. Under any other value the step is not replayed: its clicks would set
     * the recorded value.
     */
    setsValue: z.array(z.object({ param: z.string(), hash: z.string() })).optional(),
    /**
     * Parameters this step's text, option or target name is one piece of on its own (a day, a
     * month name, AM/PM: see BoundParams.piecesNamed). A strong piece is guarded at once
     * (literalOf); a one- or two-digit one only where the run asks the same value in pieces
     * elsewhere (runCommit), since a lone "1" is far more often a quantity than a day.
     */
    pieces: z.array(z.string()).optional(),
    /** Parameters this step's text rendered in an unsure form, kept literal: name -> hash of the recorded value. */
    literalOf: z.record(z.string(), z.string()).optional(),
    /**
     * The readings under which the whole recorded text renders the one parameter it was kept literal
     * for (05/05/2024 typed for a date given as 05/05/2024: month or day first). A later value that
     * only one of them can read (06/17/2024), or that all render alike, decides which: that step is
     * replayed with it; a value they read differently still hands over.
     */
    readings: z.object({ param: z.string(), formats: z.array(z.string()) }).optional(),
    /** A tool step: what its custom checks captured when recorded (secret values as `{{name}}`). */
    tool: z.object({ pre: z.json().optional(), post: z.json().optional() }).optional(),
  })
  .strip();

export type NodeState = z.infer<typeof stateSchema>;

/** A stored node as this file reads it: the store's row without its counters. */
type StoredNodeRow = Omit<NodeRow, 'hits' | 'misses' | 'lastUsedAt' | 'createdAt'>;

/**
 * Reads a stored row back into a node. A row that does not parse (an older or damaged entry, a
 * hand edit) is refused, the reason naming the column: a bad cache entry is a miss that says so,
 * never a crash and never a guess.
 */
export function nodeFromRow(row: StoredNodeRow): Outcome<TrajectoryNode> {
  const unreadable = Object.values(row).find((value): value is UnreadableColumn => value instanceof UnreadableColumn);
  if (unreadable) return refuse(`its ${unreadable.column} is not JSON (${unreadable.reason})`);
  const action = actionSchema.safeParse(row.action);
  const fingerprint = row.fingerprint === null ? { success: true as const, data: null } : fingerprintSchema.safeParse(row.fingerprint);
  const box = row.box === null ? { success: true as const, data: null } : boxSchema.safeParse(row.box);
  const cropRect = row.cropRect === null ? { success: true as const, data: null } : boxSchema.safeParse(row.cropRect);
  const masks = row.masks === null ? { success: true as const, data: [] } : z.array(boxSchema).safeParse(row.masks);
  const stored = rowState(row);
  const state = stored === null ? { success: true as const, data: {} } : stateSchema.safeParse(stored);
  if (!action.success || !fingerprint.success || !box.success || !cropRect.success || !masks.success || !state.success) {
    const columns = { action, fingerprint, box, crop_rect: cropRect, masks, state };
    const [column, failed] = Object.entries(columns).find(([, parsed]) => !parsed.success)!;
    return refuse(`its ${column} does not fit: ${describeIssue((failed as { error: z.ZodError }).error)}`);
  }
  if (typeof row.url !== 'string') return refuse('its url is not text');
  const node: TrajectoryNode = {
    id: row.id,
    taskId: row.taskId,
    parentId: row.parentId,
    resumeAtId: row.resumeAtId,
    action: action.data,
    intent: row.intent,
    url: row.url,
    fingerprint: fingerprint.data,
    box: box.data,
    cropHash: row.cropHash,
    cropRect: cropRect.data,
    masks: masks.data,
    state: state.data,
    endsRun: row.endsRun,
    lastSuccessAt: row.lastSuccessAt,
  };
  return accept(node);
}

/**
 * A stored row's state as the node model (and a recording file) has it: the end URL, kept in its
 * own column, back in the state; where the state holds one already (a node stored before the
 * column) the column's takes its place, so the key order, and a re-export's bytes, stay.
 */
export function rowState(row: Pick<NodeRow, 'state' | 'endUrl'>): unknown {
  if (row.endUrl === null) return row.state;
  const state = row.state ?? {};
  return typeof state === 'object' && !Array.isArray(state) && !(state instanceof UnreadableColumn) ? { ...state, endUrl: row.endUrl } : state;
}

/** A node's state as the store keeps it: the end URL in its own column, the rest as the state's JSON. */
export function storedState(state: NodeState): { state: NodeState; endUrl: string | null } {
  const { endUrl, ...rest } = state;
  return { state: rest, endUrl: endUrl ?? null };
}

/** The first issue zod found, with its path: enough for a person to find the field. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown';
  return `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
}
