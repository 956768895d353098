import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Store } from '../store/store.js';
import type { NewBlob, NewRunStepRow } from '../store/rows.js';

/**
 * A computer-use task the proxy saw to its end, as a run of the store: `rote runs`, `rote stats`
 * and `rote report` show it beside rote.run's runs, each turn a step (from the cache, or the
 * upstream's) with the crop it was checked on or kept with. The task is the one the proxy keys
 * (declared values as `{{name}}`), and no full screenshot is kept.
 */
export type ProxyTurn = {
  kind: 'cached' | 'agent';
  /** The action with its typed text as a template. */
  action: Record<string, unknown>;
  intent: string;
  /** Why the turn went upstream. */
  reason?: string;
  /** The crop the served step was checked on, or the one kept for the upstream's step (PNG). */
  crop?: Buffer;
  durationMs: number;
};

export type ProxyRunRecord = { task: string; startedAt: number; turns: ProxyTurn[]; /** Upstream calls, the final message's included. */ upstreamCalls: number; inputTokens: number; outputTokens: number };

export interface ProxyRunLog {
  record(run: ProxyRunRecord): Promise<void>;
}

export const PROXY_RUN_MODE = 'proxy';

export function storeRunLog(store: Store): ProxyRunLog {
  return {
    async record(run) {
      const id = randomUUID();
      const blobs: NewBlob[] = [];
      // A screenshot the agent asked for changes nothing on the page: not a step of the run.
      const turns = run.turns.filter((turn) => turn.action.type !== 'screenshot');
      const steps: NewRunStepRow[] = turns.map((turn, idx) => {
        const thumbHash = turn.crop ? createHash('sha256').update(turn.crop).digest('hex') : null;
        if (turn.crop && thumbHash) blobs.push({ hash: thumbHash, bytes: turn.crop });
        return { runId: id, idx, nodeId: null, kind: turn.kind, action: turn.action, intent: turn.intent, outcome: 'ok', reason: turn.reason ?? null, durationMs: Math.round(turn.durationMs), checkMs: 0, thumbHash };
      });
      const cached = turns.filter((turn) => turn.kind === 'cached').length;
      const agent = turns.length - cached;
      const endedAt = Date.now();
      await store.beginRun({ id, taskId: null, task: run.task, mode: PROXY_RUN_MODE, startedAt: run.startedAt, pid: process.pid, host: hostname(), params: null });
      await store.commitRun({
        blobs,
        steps,
        run: { id, taskId: null, status: agent === 0 ? 'replayed' : cached === 0 ? 'agent' : 'mixed', endedAt, durationMs: endedAt - run.startedAt, agentCalls: run.upstreamCalls, cachedSteps: cached, relocatedSteps: 0, agentSteps: agent, modelCalls: run.upstreamCalls, inputTokens: run.inputTokens, outputTokens: run.outputTokens, error: null },
      });
    },
  };
}
