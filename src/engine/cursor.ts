import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { nodeRef, ROOT, type NodeRef } from '../trajectory/nodeRef.js';

/** While the agent is in charge after a divergence: where the cached path may be re-joined. */
export type Rejoin = {
  /** The cached step the detour left from, advanced while the agent does cached steps' work. */
  after: NodeRef;
  /** The agent's steps since the divergence. */
  detour: TrajectoryNode[];
};

/**
 * Where one run stands, said once: the last step done, who is in charge, and where the replay
 * may pick up again. Everything the loop decides about position reads and writes this.
 */
export class Cursor {
  /** The last step done (the root before the first). */
  private place: NodeRef = ROOT;
  /**
   * A re-join point for the next step only: the agent repeated a stored step after which the
   * cached path continues elsewhere. A jump for this run; the tree is not changed for it.
   */
  private jump: NodeRef | undefined;
  /** Who decides the next step; with the agent, where it may re-join (none in record mode or on a miss). */
  private control: { by: 'replay' } | { by: 'agent'; rejoin: Rejoin | undefined } = { by: 'replay' };
  /** Nodes done in this run: none is a candidate twice, so re-join links can never make a loop. */
  private readonly done = new Set<string>();

  get at(): NodeRef {
    return this.place;
  }

  get pendingJump(): NodeRef | undefined {
    return this.jump;
  }

  get agentInCharge(): boolean {
    return this.control.by === 'agent';
  }

  /** The re-join state while the agent is in charge after a divergence. */
  get rejoin(): Rejoin | undefined {
    return this.control.by === 'agent' ? this.control.rejoin : undefined;
  }

  wasDone(id: string): boolean {
    return this.done.has(id);
  }

  get doneIds(): ReadonlySet<string> {
    return this.done;
  }

  /** A step was done at `node`: it is the new place, and any pending jump is used up. */
  stepped(node: TrajectoryNode): void {
    this.place = nodeRef(node.id);
    this.done.add(node.id);
    this.jump = undefined;
  }

  /** The agent takes over; `rejoinable` when the cached path may be picked up again after its detour. */
  handOver(rejoinable: boolean): void {
    this.control = { by: 'agent', rejoin: rejoinable ? { after: this.place, detour: [] } : undefined };
  }

  /** The replay takes back over at the next step; `jump`, when the continuation is not below the current place. */
  takeBack(jump?: NodeRef): void {
    this.control = { by: 'replay' };
    if (jump) this.jump = jump;
  }
}
