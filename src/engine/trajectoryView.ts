import type { Store } from '../store/store.js';
import { nodeFromRow, type TrajectoryNode } from './trajectoryNode.js';

/** A resumeAtId that points at the task's virtual root (a detour before the first recorded step). */
export const ROOT_ID = 'root';

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

  constructor(
    private readonly store: Store,
    readonly taskId: string,
  ) {}

  node(id: string): TrajectoryNode | undefined {
    return this.byId.get(id);
  }

  children(parentId: string | null): TrajectoryNode[] {
    const key = parentId ?? '';
    let stored = this.stored.get(key);
    if (!stored) {
      stored = this.store.children(this.taskId, parentId).flatMap((row) => {
        const node = nodeFromRow(row);
        return node ? [node] : [];
      });
      for (const node of stored) this.byId.set(node.id, node);
      this.stored.set(key, stored);
    }
    return [...stored, ...this.added.filter((node) => node.parentId === parentId)];
  }

  /**
   * What may come after `nodeId` (null: the root): its children, then the children of the node
   * it re-joins (a detour continuing on the cached path), without repeats.
   */
  candidatesAfter(nodeId: string | null): TrajectoryNode[] {
    const own = this.children(nodeId);
    const node = nodeId === null ? undefined : this.node(nodeId);
    if (!node?.resumeAtId) return own;
    const seen = new Set(own.map((candidate) => candidate.id));
    const resumeAt = node.resumeAtId === ROOT_ID ? null : node.resumeAtId;
    return [...own, ...this.children(resumeAt).filter((candidate) => !seen.has(candidate.id))];
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
