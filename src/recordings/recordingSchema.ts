/**
 * The recording file format, version 1: a folder holding `recording.json` and the evidence crops
 * its nodes point at, as `evidence/<sha256>.png`. Read strictly: a key this rote does not know
 * is an error, not something to drop silently, since a reviewer may have edited the file.
 */
import { z } from 'zod';
import { actionSchema } from '../actions/action.js';
import { boxSchema, fingerprintSchema, stateSchema } from '../trajectory/trajectoryNode.js';
import { specProblem, specSchema } from '../params/paramSchema.js';
import type { ParamSpec } from '../params/paramType.js';
import { PARAM_NAME } from '../params/paramName.js';

export const RECORDING_FORMAT = 'rote-recording';
export const RECORDING_VERSION = 1;
export const RECORDING_FILE = 'recording.json';
export const EVIDENCE_FOLDER = 'evidence';

/** `evidence/<sha256 hex of the bytes>.png`, relative to the recording's folder. */
export const CROP_PATH = /^evidence\/([0-9a-f]{64})\.png$/;

export function cropPathOf(hash: string): string {
  return `${EVIDENCE_FOLDER}/${hash}.png`;
}

// The store's action union with unknown keys rejected, member by member (same output type).
const strictActionSchema = z.discriminatedUnion(
  'type',
  actionSchema.options.map((option) => option.strict()) as unknown as typeof actionSchema.options,
);

const strictBox = boxSchema.strict();

export const recordingNodeSchema = z
  .object({
    id: z.string().min(1),
    /** null: a first step (a child of the task's virtual root). */
    parentId: z.string().min(1).nullable(),
    /** After this step, the children of that node are candidates too; "root" is the virtual root. */
    resumeAtId: z.string().min(1).nullable(),
    action: strictActionSchema,
    intent: z.string().nullable(),
    /** The page the step was taken on; relative to `origin` when it was on it. */
    url: z.string().min(1),
    fingerprint: fingerprintSchema.strict().nullable(),
    box: strictBox.nullable(),
    cropRect: strictBox.nullable(),
    masks: z.array(strictBox),
    state: stateSchema.strict(),
    endsRun: z.boolean(),
    crop: z.string().regex(CROP_PATH, 'expected "evidence/<64 lowercase hex digits>.png"').nullable(),
  })
  .strict();

export const recordingFileSchema = z
  .object({
    format: z.literal(RECORDING_FORMAT),
    version: z.literal(RECORDING_VERSION),
    task: z
      .object({
        /** The task text with parameter values as `{{name}}`: what `rote.run` is given as `task`. */
        template: z.string().min(1),
        tags: z.array(z.string()),
        /** Normalized as in the cache key (`:id` for record ids); relative to `origin` when on it. */
        startUrl: z.string().min(1),
        paramNames: z.array(z.string().regex(PARAM_NAME, 'expected a parameter name (letters, digits and _)')),
      })
      .strict(),
    params: z.record(
      z.string().regex(PARAM_NAME, 'expected a parameter name (letters, digits and _)'),
      specSchema.superRefine((spec, context) => {
        const problem = specProblem(spec as ParamSpec);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      }),
    ),
    /** Where the recording was made (`http://host:port`); null when no URL of it was http(s). */
    origin: z
      .string()
      .refine((value) => isOrigin(value), 'expected an origin such as "http://localhost:3000" (scheme, host and port only)')
      .nullable(),
    /** Depth first from the root, siblings in the order they were recorded. */
    nodes: z.array(recordingNodeSchema),
  })
  .strict();

export type RecordingFile = z.infer<typeof recordingFileSchema>;
export type RecordingNode = z.infer<typeof recordingNodeSchema>;

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** The file's bytes: schema key order, 2-space indent, a final newline; equal content gives equal bytes. */
export function serializeRecording(file: RecordingFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
