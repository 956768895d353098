import type { Page } from 'playwright';
import { parseAction, type Action } from '../actions/action.js';
import { isDone } from '../agent/agent.js';
import { navigationWatch } from '../checks/settle.js';
import { templatedUrl } from '../checks/urlCheck.js';
import { RoteError } from '../errors/roteError.js';
import { isOver, narrowed, pause, remainingMs, type Deadline } from '../progress/deadline.js';
import { patchNode } from '../trajectory/nodeBuilder.js';
import { describeRef, nodeRef, resumeAtIdOf } from '../trajectory/nodeRef.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { doAgentAction } from './agentAction.js';
import { askAgent } from './askAgent.js';
import { followWindow } from './followWindow.js';
import { observe } from './observe.js';
import { doesSameWork } from './recordStep.js';
import { findRejoin } from './rejoin.js';
import type { RunState } from './runState.js';

/** How an agent's turn ended: it said the task is done, the replay re-joined, or it goes on. */
export type AgentTurnEnd = 'done' | 'rejoined' | 'continuing';

/** A navigation under way gets this long to bring its document before the agent looks. */
const ARRIVAL_LIMIT_MS = 10_000;

/** Polling a navigation under way for its document. */
const ARRIVAL_POLL_MS = 50;

/**
 * One agent call and the actions it answers with. After each action, follow the cached path
 * where the agent did a cached step's work, and re-join it where a cached step's checks pass.
 */
export async function agentTurn(run: RunState): Promise<AgentTurnEnd> {
  const { agent, limits, task, tools } = run.input;
  const { context, params, ledger } = run;
  if (!agent) throw new RoteError('invalid-argument', 'no agent was given for a step the cache cannot do');
  if (ledger.agentCalls >= limits.maxAgentCalls) throw new RoteError('agent', `the agent budget of ${limits.maxAgentCalls} calls is spent`);
  // A document on its way in (the page reloading itself) is waited for: the agent decides on the page that will be there.
  await documentArrived(run.page, context);
  // Counted before the screenshot: a document that arrives while it is taken is one the agent has not seen.
  const seen = navigationWatch(run.page).documentCount;
  const window = run.windows.observed(run.page);
  const observation = await observe({ page: run.page, task, params, ledger, tools, deadline: context, ...(window ? { window } : {}) });
  run.lastSeen = { screenshot: observation.screenshot, viewport: observation.viewport };
  // The agent sees the page as it is now: what it does next accounts for any load before.
  run.documents.account(seen);
  const answer = await askAgent(run, agent, observation);
  if (isDone(answer)) {
    ledger.answer = answer.answer;
    context.log(`agent: done${answer.answer ? ` (${answer.answer})` : ''}`);
    await run.waits.ended(run.page, params);
    markEnd(run);
    return 'done';
  }
  if (answer.actions.length === 0) throw new RoteError('agent', 'the agent answered with no actions and did not say it was done');
  return actInTurn(run, [...answer.actions], answer.intent);
}

/** The actions of one answer, in order, with those the agent gave with a prompt's answer right after the step that opened it. */
async function actInTurn(run: RunState, queue: unknown[], intent: string | undefined): Promise<AgentTurnEnd> {
  let acted = false;
  for (let raw = queue.shift(); raw !== undefined; raw = queue.shift()) {
    run.context.throwIfStopRequested();
    // An action that opened a window, or closed the one it was in: the rest of the answer was
    // planned on a screen the run is no longer in, so the agent looks again instead.
    if ((await followWindow(run)) && acted) {
      run.context.log(`the agent's last action moved the run to another window: ${queue.length + 1} more of its actions are not done`);
      return 'continuing';
    }
    acted = true;
    const node = await doAgentAction(run, parseAgentAction(raw), intent);
    // What the agent said to do after answering a prompt this action opened comes next.
    queue.unshift(...run.afterPrompt.splice(0));
    if (await rejoined(run, node)) return 'rejoined';
  }
  return 'continuing';
}

/** After an agent's step on a detour: whether a cached step's checks pass again here, and the replay takes back over. */
async function rejoined(run: RunState, node: TrajectoryNode): Promise<boolean> {
  const { cursor, view } = run;
  const rejoin = cursor.rejoin;
  if (!rejoin) return false;
  rejoin.detour.push(node);
  const followed = (await view.children(rejoin.after)).find((cached) => !view.isNew(cached.id) && doesSameWork(cached, node));
  if (followed) rejoin.after = nodeRef(followed.id);
  const after = await findRejoin(run.env, view, rejoin.after, rejoin.detour, cursor.doneIds, run.ledger.forks.steps);
  if (after === undefined) return false;
  // A new step records where it re-joined; a stored step the agent repeated is left as it is
  // (the link would change the tree for every later run), and the jump holds for this run only.
  if (view.isNew(node.id)) {
    patchNode(node, { resumeAtId: resumeAtIdOf(after) });
    cursor.takeBack();
  } else {
    cursor.takeBack(after);
  }
  run.context.log(`re-joined the recorded path after ${describeRef(after)}`);
  return true;
}

/** The agent said done here: a replay that gets here is complete, on the page it is on now. */
function markEnd(run: RunState): void {
  const { ledger, view } = run;
  ledger.endedByAgent = true;
  const node = view.nodeAt(run.cursor.at);
  if (!node || node.endsRun) return;
  ledger.newEnd = !view.isNew(node.id);
  const endUrl = templatedUrl(run.page.url(), run.params);
  patchNode(node, { endsRun: true, state: { endUrl } });
  // A stored node learns it too, end URL and all, so the end check runs for it next time.
  if (!view.isNew(node.id)) ledger.link({ id: node.id, endsRun: true, endUrl });
}

/** A document on its way in: waited for (bounded), so the agent decides on the page that will be there. */
async function documentArrived(page: Page, deadline: Deadline): Promise<void> {
  const watch = navigationWatch(page);
  if (!watch.navigating) return;
  const arrival = narrowed(deadline, ARRIVAL_LIMIT_MS);
  // Until the request ends: a document (it commits), or none (a 204, a download), whichever comes.
  while (watch.navigating && !isOver(arrival) && !page.isClosed()) await pause(arrival, ARRIVAL_POLL_MS);
  await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, remainingMs(arrival)) }).catch(() => undefined);
}

function parseAgentAction(raw: unknown): Action {
  try {
    return parseAction(raw);
  } catch (error) {
    throw new RoteError('agent', `the agent answered with an action rote cannot perform: ${JSON.stringify(raw)}`, { cause: error });
  }
}
