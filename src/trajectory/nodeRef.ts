/** A place in a task's trajectory tree: its root (before the first step) or a node. */
export type NodeRef = { kind: 'root' } | { kind: 'node'; id: string };

export const ROOT: NodeRef = { kind: 'root' };

/** How a link to the root is stored in a node's resumeAtId (a column that holds node ids). */
export const ROOT_ID = 'root';

export function nodeRef(id: string): NodeRef {
  return { kind: 'node', id };
}

/** The store's parent id for the children of `ref`: null for the root. */
export function parentIdOf(ref: NodeRef): string | null {
  return ref.kind === 'root' ? null : ref.id;
}

/** A stored parent id as a place. */
export function refOfParent(parentId: string | null): NodeRef {
  return parentId === null ? ROOT : nodeRef(parentId);
}

/** A stored resumeAtId as a place; null means the node re-joins nowhere. */
export function refOfResumeAt(resumeAtId: string | null): NodeRef | undefined {
  if (resumeAtId === null) return undefined;
  return resumeAtId === ROOT_ID ? ROOT : nodeRef(resumeAtId);
}

/** A place as stored in resumeAtId. */
export function resumeAtIdOf(ref: NodeRef): string {
  return ref.kind === 'root' ? ROOT_ID : ref.id;
}

export function describeRef(ref: NodeRef): string {
  return ref.kind === 'root' ? 'the start' : `node ${ref.id.slice(0, 8)}`;
}
