/**
 * The Store's row types are written out (rows.ts, scheduleStore.ts) so the package's declarations
 * do not carry Drizzle's; this file, which nothing imports, fails the type check when one of them
 * is not exactly what the schema reads and writes.
 */
import type { BlobRow, NewNodeRow, NodeRow, RunRow, RunStepRow, TaskRow } from './rows.js';
import type { NewScheduleRow, ScheduleRow, SlotRow } from './scheduleStore.js';
import type { ProxyNodeRow, ProxyTemplateRow } from './conversationStore.js';
import type { blobs, nodes, proxyNodes, proxyTemplates, runSteps, runs, scheduleSlots, schedules, tasks } from './schema.js';

/** True only when A and B are the same type (not merely assignable one way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Flat<T> = { [K in keyof T]: T[K] };
type Holds<T extends true> = T;

export type RowTypesMatchTheSchema = [
  Holds<Same<Flat<TaskRow>, Flat<typeof tasks.$inferSelect>>>,
  Holds<Same<Flat<NodeRow>, Flat<typeof nodes.$inferSelect>>>,
  Holds<Same<Flat<NewNodeRow>, Flat<typeof nodes.$inferInsert>>>,
  Holds<Same<Flat<BlobRow>, Flat<typeof blobs.$inferSelect>>>,
  Holds<Same<Flat<RunRow>, Flat<typeof runs.$inferSelect>>>,
  Holds<Same<Flat<RunStepRow>, Flat<typeof runSteps.$inferSelect>>>,
  Holds<Same<Flat<ScheduleRow>, Flat<typeof schedules.$inferSelect>>>,
  Holds<Same<Flat<NewScheduleRow>, Flat<typeof schedules.$inferInsert>>>,
  Holds<Same<Flat<SlotRow>, Flat<typeof scheduleSlots.$inferSelect>>>,
  Holds<Same<Flat<ProxyNodeRow>, Flat<typeof proxyNodes.$inferSelect>>>,
  Holds<Same<Flat<ProxyTemplateRow>, Flat<typeof proxyTemplates.$inferSelect>>>,
];
