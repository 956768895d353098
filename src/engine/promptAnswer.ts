import { isDone, type DialogAnswer, type NativeDialog } from '../agent/agent.js';
import { RoteError } from '../errors/roteError.js';
import { redactSecrets } from '../params/secret.js';
import { askAgent } from './askAgent.js';
import { observe } from './observe.js';
import type { RunState } from './runState.js';

/** Said to an agent asked a second time for a prompt it did not decide. */
const PROMPT_ASKED_AGAIN =
  'Your last answer gave no decision for this prompt, and the page is blocked until it gets one. Answer with dialog: { accept: true, text } (OK, with the text to type), { accept: true } (OK with the text it offers) or { accept: false } (Cancel). Do not read or script the page now: it cannot answer while the prompt is open. Without a decision this time the prompt is dismissed and the run fails.';

/**
 * The agent's action opened a native prompt, which blocks the page until it is answered: the
 * agent is asked (one more call), shown the prompt and the screen it saw before its action.
 */
export async function answerPrompt(run: RunState, dialog: NativeDialog): Promise<DialogAnswer & { by?: 'rule'; reason?: string }> {
  const { agent } = run.input;
  const { context } = run;
  const quoted = `"${redactSecrets(dialog.message, run.params).slice(0, 80)}"`;
  if (!agent) return { accept: true, by: 'rule', reason: 'no agent to ask: OK with the text offered' };
  if (run.asking) {
    context.log(`a prompt ${quoted} came while the agent was thinking: cancelled`);
    return { accept: false, by: 'rule', reason: 'it came while the agent was deciding its next step' };
  }
  // The rule for an agent that does not decide a prompt (one written before prompts were put to
  // agents, or reading the page, which the prompt blocks): asked once more, saying why, then the
  // prompt is dismissed and the run fails; never a silent wait, never an answer made up for it.
  for (const note of [undefined, PROMPT_ASKED_AGAIN]) {
    const decided = await askPrompt(run, dialog, note);
    if (decided) return decided;
    context.log(`agent: no decision for the prompt ${quoted}${note ? '' : ', asked again'}`);
  }
  throw new RoteError('dialog-unanswered', `${context.apiName}: the agent was asked twice to answer the prompt ${quoted} (opened by step ${run.nextStepNumber}) and gave no decision (the answer's dialog: { accept: true, text? } or { accept: false }); it was dismissed`);
}

/** One agent call for a prompt: its decision, or undefined when the answer had none. */
async function askPrompt(run: RunState, dialog: NativeDialog, note: string | undefined): Promise<DialogAnswer | undefined> {
  const { agent, limits, task, tools } = run.input;
  const { context, params, ledger, page } = run;
  if (ledger.agentCalls >= limits.maxAgentCalls) throw new RoteError('agent', `the agent budget of ${limits.maxAgentCalls} calls is spent (a prompt asked "${redactSecrets(dialog.message, params).slice(0, 80)}")`);
  const observation = await observe({ page, task, params, ledger, tools, deadline: context, dialog: note ? { ...dialog, note } : dialog, ...(run.lastSeen ? { seen: run.lastSeen } : {}) });
  const answer = await askAgent(run, agent!, observation);
  if (isDone(answer) || !answer.dialog) {
    // Actions given without a decision are not done: the page cannot take them while the prompt holds it.
    if (!isDone(answer) && answer.actions.length > 0) context.log(`agent: ${answer.actions.length} action(s) given with no decision for the prompt were not done`);
    return undefined;
  }
  context.log(`agent answers the prompt "${redactSecrets(dialog.message, params).slice(0, 80)}"`);
  run.afterPrompt.push(...answer.actions);
  return answer.dialog;
}
