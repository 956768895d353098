import type { Store } from '../store/store.js';
import { parentIdOf, refOfResumeAt, type NodeRef } from '../trajectory/nodeRef.js';
import { nodeFromRow, type TrajectoryNode } from '../trajectory/trajectoryNode.js';

/**
 * The task's trajectory tree as one run sees it: stored nodes, read on demand through the
 * store's prepared statements and cached for the run, plus the nodes this run has added
 * and not yet committed.
 */
export class TrajectoryView {
  private readonly stored = new Map<string, TrajectoryNode[]>();
  private readonly added: TrajectoryNode[] = [];
  private readonly addedIds = new Set<string>();
  private readonly byId = new Map<string, TrajectoryNode>();
  private readonly unreadable = new Map<string, string>();

  constructor(
    private readonly store: Store,
    readonly taskId: string,
  ) {}

  node(id: string): TrajectoryNode | undefined {
    return this.byId.get(id);
  }

  /** The node at a place; undefined at the root. */
  nodeAt(ref: NodeRef): TrajectoryNode | undefined {
    return ref.kind === 'root' ? undefined : this.byId.get(ref.id);
  }

  async children(ref: NodeRef): Promise<TrajectoryNode[]> {
    const parentId = parentIdOf(ref);
    const key = parentId ?? '';
    let stored = this.stored.get(key);
    if (!stored) {
      stored = (await this.store.children(this.taskId, parentId)).flatMap((row) => {
        const read = nodeFromRow(row);
        if (read.ok) return [read.value];
        this.unreadable.set(row.id, read.reason);
        return [];
      });
      for (const node of stored) this.byId.set(node.id, node);
      this.stored.set(key, stored);
    }
    return [...stored, ...this.added.filter((node) => node.parentId === parentId)];
  }

  /**
   * What may come after `ref`: its children, then the children of the place it re-joins (a
   * detour continuing on the cached path), without repeats.
   */
  async candidatesAfter(ref: NodeRef): Promise<TrajectoryNode[]> {
    const own = await this.children(ref);
    const resumeAt = refOfResumeAt(this.nodeAt(ref)?.resumeAtId ?? null);
    if (!resumeAt) return own;
    const seen = new Set(own.map((candidate) => candidate.id));
    return [...own, ...(await this.children(resumeAt)).filter((candidate) => !seen.has(candidate.id))];
  }

  /**
   * Stored steps this run met and could not read, each named with what is wrong: they were
   * misses (never replayed), and whoever keeps the store should hear of them.
   */
  get warnings(): string[] {
    return [...this.unreadable].map(([id, problem]) => `the stored step ${id} of task ${this.taskId} cannot be read, so it was not replayed: ${problem}`);
  }

  add(node: TrajectoryNode): void {
    this.added.push(node);
    this.addedIds.add(node.id);
    this.byId.set(node.id, node);
  }

  isNew(id: string): boolean {
    return this.addedIds.has(id);
  }

  get newNodes(): readonly TrajectoryNode[] {
    return this.added;
  }
}
