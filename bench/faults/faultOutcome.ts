/** What became of one injected fault. */
export type FaultOutcome = {
  /** The fault's kind, as the table shows it ("crash: replay", "page: browser dies"). */
  kind: string;
  /** Ended as it must: a takeover or a clear failed status (or, for a crash, a consistent store that still replays). */
  clean: boolean;
  /** Data lost or left inconsistent. */
  lost: boolean;
  /** Actions that should not have happened: submissions with values no run was given, clicks on the wrong target. */
  wrong: number;
  /** Something did not end within its bound. */
  hang: boolean;
  notes: string[];
};

export type FaultRow = { kind: string; injected: number; clean: number; lost: number; wrong: number; hangs: number };

export type FaultSummary = FaultRow & { kinds: FaultRow[] };

export function summarizeFaults(outcomes: readonly FaultOutcome[]): FaultSummary {
  const row = (kind: string, of: readonly FaultOutcome[]): FaultRow => ({
    kind,
    injected: of.length,
    clean: of.filter((outcome) => outcome.clean).length,
    lost: of.filter((outcome) => outcome.lost).length,
    wrong: of.reduce((sum, outcome) => sum + outcome.wrong, 0),
    hangs: of.filter((outcome) => outcome.hang).length,
  });
  const kinds = [...new Set(outcomes.map((outcome) => outcome.kind))].map((kind) => row(kind, outcomes.filter((outcome) => outcome.kind === kind)));
  return { ...row('all', outcomes), kinds };
}
