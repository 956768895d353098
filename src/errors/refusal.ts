/**
 * Why something cannot be done, returned as a value rather than thrown: rote's one spelling of a
 * failure that is expected (a check that does not pass, a value that cannot be bound, a model's
 * answer that cannot be read). A check's failure is one with its evidence (CheckFail).
 */
export type Refusal = { ok: false; reason: string };

/** A value, or the refusal that says why there is none. */
export type Outcome<T> = { ok: true; value: T } | Refusal;

export function refuse(reason: string): Refusal {
  return { ok: false, reason };
}

export function accept<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}
