import { z } from 'zod';

/**
 * What the capture script (captureScript.ts) reports from the page: the person's input, blocked
 * before the page saw it. Validated here, since anything on the page could call the binding.
 */
const coordinate = z.number().finite();

/** The element an input lands on, as the page describes it: enough for a short intent. */
export const targetInfoSchema = z.object({
  tag: z.string(),
  /** An <input>'s type; null for other elements. */
  type: z.string().nullable(),
  role: z.string(),
  /** Its accessible name, shortened. */
  name: z.string(),
  /** A checkbox's or radio's state before the input. */
  checked: z.boolean().nullable(),
  /** Text goes in: a text input, a textarea, contenteditable. */
  editable: z.boolean(),
  /** Enter there is a new line, not a key to record. */
  multiline: z.boolean(),
  /** A password field: what is typed there is never shown. */
  secret: z.boolean(),
});

export type TargetInfo = z.infer<typeof targetInfoSchema>;

export const capturedInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('click'), x: coordinate, y: coordinate, button: z.enum(['left', 'right', 'middle']), target: targetInfoSchema }),
  z.object({ kind: z.literal('drag'), path: z.array(z.object({ x: coordinate, y: coordinate })).min(2), target: targetInfoSchema }),
  z.object({
    kind: z.literal('key'),
    /** KeyboardEvent.key: "a", "A", "Enter", "ArrowDown". */
    key: z.string().min(1),
    ctrl: z.boolean(),
    alt: z.boolean(),
    meta: z.boolean(),
    shift: z.boolean(),
    /** The focused element. */
    target: targetInfoSchema,
    /**
     * The person typed this key earlier, this many of their keys ago: it reached the page in place
     * of the engine's equal key (see captureScript.ts), and belongs there in their text.
     */
    back: z.number().int().positive().optional(),
  }),
  z.object({ kind: z.literal('paste'), text: z.string(), target: targetInfoSchema }),
  z.object({ kind: z.literal('wheel'), x: coordinate, y: coordinate, dx: coordinate, dy: coordinate, target: targetInfoSchema }),
  /** A <select> changed by the person (its native list, or its own keys): the option now chosen. */
  z.object({ kind: z.literal('select'), x: coordinate, y: coordinate, label: z.string(), focused: z.boolean(), target: targetInfoSchema }),
  /** Input rote does not record (a native date picker, composed text, a frame); it was blocked or is reported. */
  z.object({ kind: z.literal('unsupported'), what: z.string() }),
  /** The "Finish recording" control. */
  z.object({ kind: z.literal('finish') }),
]);

export type CapturedInput = z.infer<typeof capturedInputSchema>;

/** One message from the page: the document it came from, and a new document's greeting or an input. */
export const captureMessageSchema = z.union([
  z.object({ doc: z.string().min(1), hello: z.literal(true) }),
  z.object({ doc: z.string().min(1), input: capturedInputSchema }),
]);

export type CaptureMessage = z.infer<typeof captureMessageSchema>;
