import { randomBytes } from 'node:crypto';
import type { Box, Point } from '../checks/geometry.js';
import type { ComputerAction } from './computerActions.js';
import type { ComputerToolForm } from './responsesRequest.js';
import type { DeclaredValues } from './declaredValues.js';
import type { ProxyTurn } from './proxyRuns.js';

/**
 * The computer-use conversations the proxy is in the middle of. The proxy owns every id its
 * client sees (`resp_rote…`, `call_rote…`): a response it served has no upstream twin, and one it
 * forwarded is given ids of its own so the two look the same. A session knows where its task is in
 * the tree, which call the client must answer next, and, when that call came from the upstream,
 * the upstream's own ids, so a miss continues the upstream's conversation.
 *
 * Kept in memory, the newest MAX_SESSIONS: a proxy restarted in the middle of a task answers the
 * next `previous_response_id` with previous_response_not_found, as the upstream would after losing it.
 */
export type UpstreamCall = {
  /** The upstream's response that asked for this call, and the call's upstream id. */
  responseId: string;
  callId: string;
  /** The safety checks it asked for, under the ids the client saw. */
  checks: { ours: string; theirs: Record<string, unknown> }[];
  /** The upstream's checks the client acknowledged so far (batched actions answer one call in several turns). */
  acknowledged: Record<string, unknown>[];
  /** The batch's actions not yet handed to the client: each goes out alone, after a screenshot of its own. */
  rest: ComputerAction[];
  /** How many actions the batch had. */
  size: number;
  /** Whether the upstream may be asked to continue this response (it stores responses). */
  chained: boolean;
};

export type PendingCall = {
  /** The call id the client answers. */
  callId: string;
  /** Safety check ids the client may acknowledge for it. */
  checkIds: string[];
  /** Where the upstream's answer came from; undefined when the proxy served the call itself. */
  upstream?: UpstreamCall;
};

export type ComputerSession = {
  namespace: string;
  /** The tree's shape for this task: the model, the tool and its display. */
  shape: string;
  form: ComputerToolForm;
  values: DeclaredValues;
  /** The task's messages as the client sent them: the start of any new upstream conversation. */
  taskItems: unknown[];
  /** The tree's levels so far: the task, then each action handed out. */
  levels: string[];
  /** What each action handed out did, for the note that starts a new upstream conversation. */
  done: string[];
  /** The last point acted on: where typed keys go. */
  focus?: Point;
  /** Regions that show typed values (a field's inside, read before the keys went in). */
  masks: Box[];
  pending?: PendingCall;
  /** The latest response the proxy gave in this task: the only one it goes on from. */
  latestResponseId?: string;
  /** A request of this task is being answered: a second one for the same call is refused, never answered twice. */
  busy?: boolean;
  /**
   * The task took input the cache knows nothing of (a user's message beside a screenshot): from
   * then on nothing is served or kept for it, as its later steps answer something no key holds.
   */
  offPath?: boolean;
  /** The page's URL at the last turn that sent one: the masks of typed values belong to that page. */
  url?: string;
  /** The upstream's final answer, when the task ended: a conversation that goes on after it goes on there. */
  final?: { responseId: string; itemIds: string[] };
  /** For the run kept when the task ends: when it began, each turn, the upstream's calls and tokens. */
  startedAt: number;
  turns: ProxyTurn[];
  upstreamCalls: number;
  tokens: { input: number; output: number };
};

const MAX_SESSIONS = 10_000;

export class ComputerSessions {
  private readonly byResponse = new Map<string, ComputerSession>();
  private readonly byCall = new Map<string, ComputerSession>();

  /** The session a response the proxy gave belongs to. */
  ofResponse(responseId: string): ComputerSession | undefined {
    return this.byResponse.get(responseId);
  }

  /** The session whose pending call this is. */
  ofCall(callId: string): ComputerSession | undefined {
    const session = this.byCall.get(callId);
    return session?.pending?.callId === callId ? session : undefined;
  }

  /** The session that ever handed out this call, whether or not the client is to answer it now. */
  ofAnyCall(callId: string): ComputerSession | undefined {
    return this.byCall.get(callId);
  }

  /** Keeps the session under a response id (and its pending call's id), the newest last. */
  remember(responseId: string, session: ComputerSession): void {
    this.byResponse.set(responseId, session);
    if (session.pending) this.byCall.set(session.pending.callId, session);
    for (const map of [this.byResponse, this.byCall] as Map<string, ComputerSession>[]) {
      while (map.size > MAX_SESSIONS) map.delete(map.keys().next().value as string);
    }
  }
}

/** An id of the proxy's own, in the shape the API's ids have. */
export function mintId(prefix: 'resp' | 'cu' | 'call' | 'rs' | 'msg' | 'cu_sc'): string {
  return `${prefix}_rote${randomBytes(16).toString('hex')}`;
}

/** Whether an id is one the proxy gave (its own `resp_rote…`), not an upstream's. */
export function isOwnId(id: string): boolean {
  return /^[a-z_]+_rote[0-9a-f]{32}$/.test(id);
}
