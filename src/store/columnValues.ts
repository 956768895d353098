/**
 * The values the store's enumerated columns hold, apart from the schema: the Store's row types
 * (rows.ts, scheduleStore.ts) use them without bringing Drizzle's types into the package's
 * declarations, which a project that type-checks its dependencies would then check too.
 */
export const runStatuses = ['running', 'replayed', 'mixed', 'agent', 'diverged', 'failed', 'interrupted'] as const;
export const stepKinds = ['cached', 'relocated', 'agent'] as const;
export const stepOutcomes = ['ok', 'diverged', 'error'] as const;

export const slotStatuses = ['running', 'succeeded', 'failed', 'skipped', 'missed', 'interrupted'] as const;
export const slotTriggers = ['cron', 'manual'] as const;

export type RunStatus = (typeof runStatuses)[number];
export type SlotStatus = (typeof slotStatuses)[number];
export type StepKind = (typeof stepKinds)[number];
export type StepOutcome = (typeof stepOutcomes)[number];
