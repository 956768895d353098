import type { CommitRunInput, NewNodeRow, NodeLink, NodeRow } from './rows.js';
import { withNodeDefaults } from './rows.js';
import { legacyEndKey, recordedKey } from './learnedKeys.js';

/**
 * Folds a run's new nodes into equal nodes that another run stored while this one ran. Two runs
 * that meet the same new page at once both learn the same branch; without this the tree would
 * hold it twice, and every later run would weigh two copies of each step. The store feeds it the
 * stored children of each parent it asks for, inside the commit's transaction, after taking the
 * task's write lock, so what it compares with is final.
 *
 * Nodes come in the order the run added them: a new node's parent is stored or comes earlier.
 */
export class BranchMerge {
  /** New node id -> the stored node that stands for it. */
  private readonly merged = new Map<string, string>();
  /** Each folded new node (remapped) with the stored node it was folded into. */
  private readonly folded: { fresh: NodeRow; stored: NodeRow }[] = [];
  private readonly kept = new Set<string>();
  private readonly newIds: Set<string>;
  private next = 0;

  constructor(
    private readonly nodes: readonly NewNodeRow[],
    private readonly sameStep: (stored: NodeRow, fresh: NodeRow) => boolean,
  ) {
    this.newIds = new Set(nodes.map((node) => node.id));
  }

  /**
   * The parent whose stored children decide the next new node, or undefined when every node is
   * decided. A node under a new node that is kept has no stored siblings and is kept at once.
   */
  parentToRead(): { parentId: string | null } | undefined {
    while (this.next < this.nodes.length) {
      const parentId = this.mapped(this.nodes[this.next]!.parentId ?? null);
      if (parentId === null || !this.newIds.has(parentId)) return { parentId };
      if (!this.kept.has(parentId)) throw new Error(`new node ${this.nodes[this.next]!.id} comes before its parent ${parentId}`);
      this.kept.add(this.nodes[this.next++]!.id);
    }
    return undefined;
  }

  /** The stored children of the parent `parentToRead` named. */
  decide(storedChildren: readonly NodeRow[]): void {
    const node = this.nodes[this.next++]!;
    const fresh = this.remapped(node);
    const equal = storedChildren.find((stored) => stored.id !== node.id && this.sameStep(stored, fresh));
    if (equal) {
      this.merged.set(node.id, equal.id);
      this.folded.push({ fresh, stored: equal });
    } else this.kept.add(node.id);
  }

  /**
   * The commit with merged nodes left out and every reference to them pointing at the stored node.
   * What this run learned about a folded step goes to the stored one, as a run that replayed it
   * would give it: a use, and where the run ended or re-joined when the stored step has none yet.
   */
  apply(input: CommitRunInput): CommitRunInput {
    if (this.merged.size === 0) return input;
    const map = (id: string | null | undefined) => (id === null || id === undefined ? id : this.mapped(id));
    return {
      ...input,
      newNodes: (input.newNodes ?? []).filter((node) => !this.merged.has(node.id)).map((node) => this.remapped(node)),
      nodeLinks: [...(input.nodeLinks ?? []).map((link) => ({ ...link, id: this.mapped(link.id), ...(link.resumeAtId !== undefined ? { resumeAtId: map(link.resumeAtId) ?? null } : {}) })), ...this.foldedLinks()],
      nodeStats: [...(input.nodeStats ?? []), ...this.folded.map(({ fresh, stored }) => ({ id: stored.id, hit: true, usedAt: fresh.lastUsedAt ?? fresh.createdAt, succeeded: fresh.lastSuccessAt !== null }))],
      steps: input.steps?.map((step) => ({ ...step, nodeId: map(step.nodeId) ?? null })),
    };
  }

  private foldedLinks(): NodeLink[] {
    return this.folded.flatMap(({ fresh, stored }) => {
      const endUrl = fresh.endUrl;
      const learned = valuesLearned(fresh, stored);
      const link: NodeLink = {
        id: stored.id,
        ...(fresh.endsRun && !stored.endsRun ? { endsRun: true } : {}),
        ...(endUrl !== null && stored.endUrl === null ? { endUrl } : {}),
        ...(fresh.resumeAtId !== null && stored.resumeAtId === null ? { resumeAtId: fresh.resumeAtId } : {}),
        ...(Object.keys(learned).length > 0 ? { state: { add: learned } } : {}),
      };
      return Object.keys(link).length > 1 ? [link] : [];
    });
  }

  private mapped(id: string): string;
  private mapped(id: string | null): string | null;
  private mapped(id: string | null): string | null {
    return id === null ? null : (this.merged.get(id) ?? id);
  }

  private remapped(node: NewNodeRow): NodeRow {
    const row = withNodeDefaults(node);
    return { ...row, parentId: this.mapped(row.parentId), resumeAtId: this.mapped(row.resumeAtId) };
  }
}

type StateLists = { ahead?: unknown; watchedAhead?: unknown; valueHashes?: unknown; alsoUnder?: unknown; endsUnder?: unknown; setsValue?: unknown };

/**
 * What the folded step learned about values, for the stored one (see learnedKeys.ts): the path it
 * was taken on under its values, where it ended under them, the values its clicks set. An end the
 * stored step had before ends were keyed keeps its recording's values beside the new.
 */
function valuesLearned(fresh: NodeRow, stored: NodeRow): Record<string, unknown[]> {
  const a = (isState(fresh.state) ? fresh.state : {}) as StateLists;
  const b = (isState(stored.state) ? stored.state : {}) as StateLists;
  const learned: Record<string, unknown[]> = {};
  const freshPath = recordedKey(a);
  const paths = [...(JSON.stringify(freshPath) !== JSON.stringify(recordedKey(b)) ? [freshPath] : []), ...list(a.alsoUnder)];
  if (paths.length > 0) learned.alsoUnder = paths;
  const ends = fresh.endsRun ? list(a.endsUnder) : [];
  if (ends.length > 0) learned.endsUnder = stored.endsRun && b.endsUnder === undefined ? [legacyEndKey(b), ...ends] : ends;
  if (list(a.setsValue).length > 0) learned.setsValue = list(a.setsValue);
  return learned;
}

function isState(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Runs a merge to the end with a synchronous reader of stored children (SQLite, inside its transaction). */
export function mergeBranchSync(input: CommitRunInput, taskId: string, children: (taskId: string, parentId: string | null) => NodeRow[]): CommitRunInput {
  if (!input.sameStep || !input.newNodes?.length) return input;
  const merge = new BranchMerge(input.newNodes, input.sameStep);
  for (let ask = merge.parentToRead(); ask; ask = merge.parentToRead()) merge.decide(children(taskId, ask.parentId));
  return merge.apply(input);
}

/** The same with an asynchronous reader (PostgreSQL, inside its transaction). */
export async function mergeBranch(input: CommitRunInput, taskId: string, children: (taskId: string, parentId: string | null) => Promise<NodeRow[]>): Promise<CommitRunInput> {
  if (!input.sameStep || !input.newNodes?.length) return input;
  const merge = new BranchMerge(input.newNodes, input.sameStep);
  for (let ask = merge.parentToRead(); ask; ask = merge.parentToRead()) merge.decide(await children(taskId, ask.parentId));
  return merge.apply(input);
}
