import { z } from 'zod';
import { actionSchema, type Action } from '../actions/action.js';
import type { TypeMode } from '../actions/perform.js';
import type { Fingerprint } from '../checks/fingerprint.js';
import type { Box } from '../checks/geometry.js';
import type { JsonValue } from '../params/jsonValues.js';

/** What a node keeps besides its action: how to replay it and how sure we were of the target. */
export type NodeState = {
  /** How a `type` step reaches the control (see TypeMode). */
  typeMode?: TypeMode;
  /** A checkbox or radio's state before and after the recorded click: replay sets the state, it does not toggle. */
  checkedBefore?: boolean | null;
  checkedAfter?: boolean | null;
  /** Visible elements sharing the target's role and name when recorded; 1 means unique, null unknown. */
  matches?: number | null;
  /** The nearest named container of the target (row, dialog...), compared when the target is not unique. */
  context?: string | null;
  /** Parameter names whose values were equal when recorded, so the text could stand for any of them. */
  ambiguous?: string[][];
  /** A semantic target: the accessible name came from a parameter (`{{plan}}`), resolved by its new value. */
  nameTemplate?: string;
  /** A checkbox set from this yes/no parameter, not toggled. */
  checkedParam?: string;
  /** The target was disabled when recorded (acting on it did nothing, by design). */
  disabled?: boolean;
  /** The URL the run ended on, on the node where the agent said it was done. */
  endUrl?: string;
  /** Native dialogs (alert, confirm, prompt) the step raised, and how they were answered. */
  dialogs?: { type: string; message: string; accepted: boolean }[];
  /** Controls that showed a value of a parameter the recorded run never set (it was already there). */
  watches?: { param: string; selector: string; label: string }[];
  /** Parameters watched at this step or later, so a changed value is caught before the submit. */
  watchedAhead?: string[];
  /** Parameters the recorded run put on the page from this step to its end. */
  ahead?: string[];
  /** For parameters the recorded path never used: a hash of their recorded value (never the value). */
  valueHashes?: Record<string, string>;
  /** Parameters this step's text rendered in an unsure form, kept literal: name -> hash of the recorded value. */
  literalOf?: Record<string, string>;
  /** A tool step: what its custom checks captured when recorded (secret values as `{{name}}`). */
  tool?: { pre?: JsonValue; post?: JsonValue };
};

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
export const stateSchema = z
  .object({
    typeMode: z.enum(['keys', 'replace', 'select', 'value']).optional(),
    checkedBefore: z.boolean().nullable().optional(),
    checkedAfter: z.boolean().nullable().optional(),
    matches: z.number().int().nullable().optional(),
    context: z.string().nullable().optional(),
    ambiguous: z.array(z.array(z.string())).optional(),
    nameTemplate: z.string().optional(),
    checkedParam: z.string().optional(),
    ahead: z.array(z.string()).optional(),
    watches: z.array(z.object({ param: z.string(), selector: z.string(), label: z.string() })).optional(),
    watchedAhead: z.array(z.string()).optional(),
    disabled: z.boolean().optional(),
    endUrl: z.string().optional(),
    dialogs: z.array(z.object({ type: z.string(), message: z.string(), accepted: z.boolean() })).optional(),
    valueHashes: z.record(z.string(), z.string()).optional(),
    literalOf: z.record(z.string(), z.string()).optional(),
    tool: z.object({ pre: z.json().optional(), post: z.json().optional() }).optional(),
  })
  .strip();

type StoredNodeRow = {
  id: string;
  taskId: string;
  parentId: string | null;
  resumeAtId: string | null;
  action: unknown;
  intent: string | null;
  url: string;
  fingerprint: unknown;
  box: unknown;
  cropHash: string | null;
  cropRect: unknown;
  masks: unknown;
  state: unknown;
  endsRun: boolean;
  lastSuccessAt: number | null;
};

/**
 * Reads a stored row back into a node. A row that does not parse (an older or damaged entry)
 * yields undefined: a bad cache entry is a miss, never a crash and never a guess.
 */
export function nodeFromRow(row: StoredNodeRow): TrajectoryNode | undefined {
  const action = actionSchema.safeParse(row.action);
  const fingerprint = row.fingerprint === null ? { success: true as const, data: null } : fingerprintSchema.safeParse(row.fingerprint);
  const box = row.box === null ? { success: true as const, data: null } : boxSchema.safeParse(row.box);
  const cropRect = row.cropRect === null ? { success: true as const, data: null } : boxSchema.safeParse(row.cropRect);
  const masks = row.masks === null ? { success: true as const, data: [] } : z.array(boxSchema).safeParse(row.masks);
  const state = row.state === null ? { success: true as const, data: {} } : stateSchema.safeParse(row.state);
  if (!action.success || !fingerprint.success || !box.success || !cropRect.success || !masks.success || !state.success) return undefined;
  return {
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
    state: state.data as NodeState,
    endsRun: row.endsRun,
    lastSuccessAt: row.lastSuccessAt,
  };
}
