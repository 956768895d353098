import { z } from 'zod';

/**
 * What a run record keeps beside its steps (the runs table's `events` column): the native dialogs
 * of the run and what was done with each (DialogEvent), and the handovers and divergences that no
 * recorded step stands for, so have no step row (an end learned under other values, a recorded
 * path that stops short, a dialog that overlapped a step). Secret values are masked in all of it.
 */
export const runEventsSchema = z.object({
  dialogs: z
    .array(
      z.object({
        step: z.number().int().nonnegative(),
        type: z.string(),
        message: z.string(),
        outcome: z.enum(['accepted', 'dismissed']),
        text: z.string().optional(),
        by: z.enum(['recording', 'agent', 'rule']),
        reason: z.string().optional(),
      }),
    )
    .optional(),
  handovers: z.array(z.object({ step: z.number().int().nonnegative(), reason: z.string(), intent: z.string().optional() })).optional(),
});
export type RunEvents = z.infer<typeof runEventsSchema>;
