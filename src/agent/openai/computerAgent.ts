/**
 * The OpenAI computer-use agent (Responses API). One `next()` continues one conversation chained
 * with `previous_response_id`: the first call of a run sends the takeover prompt and the
 * screenshot, later calls answer the pending computer calls with the new screenshot and URL. It
 * never touches the page: rote performs, checks and records the actions it returns.
 */
import type { Action } from '../../actions/action.js';
import { offScreen } from '../../actions/onScreen.js';
import { RoteError } from '../../errors/roteError.js';
import type { Agent, AgentAnswer, AgentUsage, Observation } from '../agent.js';
import { validComputerOptions, type OpenAIComputerAgentOptions, type ValidComputerOptions } from './agentOptions.js';
import { fromComputerAction, screenshotScale, type Scale } from './computerActions.js';
import type { ComputerInput, ComputerRequest, ComputerTurn, ModelClient, SafetyCheck } from './modelTypes.js';
import { openaiModelClient } from './openaiClient.js';
import { COMPUTER_INSTRUCTIONS, dialogNote, errorNote, followUpNote, promptTypedNote, takeoverPrompt } from './prompt.js';
import { dialogAnswerFrom } from './dialogAnswer.js';
import { ConversationAgent } from './conversationAgent.js';
import { functionOutput, functionTools, readFunctionCall } from './functionTools.js';
import { modelWords } from './runState.js';

const CALLER = 'openaiComputerAgent';
/** Screenshot-only turns in a row before the model counts as stuck. */
const MAX_LOOKS = 3;
/** Requests in a row that only type into an open prompt before what was typed is sent as the answer. */
const MAX_PROMPT_TYPINGS = 2;

/** A model agent: an Agent that also tells what the current (or last) run has used so far, including failed calls. */
export type ModelAgent = Agent & { readonly name: string; readonly usage: AgentUsage };

type PendingCall = { callId: string; acknowledged: SafetyCheck[] };
/** A function call to answer on the next request: with `text`, or with the result at `position` of the next observation's history. */
type PendingFunction = { callId: string; name: string; position?: number; text?: string };
type Conversation = { previousResponseId: string | undefined; pending: PendingCall[]; functions: PendingFunction[]; historyLength: number; answered: number };

/** What a turn asks for, once read. `functions` are the custom tool calls, by their index among the actions. */
type Reading =
  | { kind: 'actions'; actions: Action[]; intent: string | undefined; functions: { callId: string; name: string; index: number }[] }
  | { kind: 'look' }
  | { kind: 'done'; answer: string }
  | { kind: 'problem'; problem: string; words: string | undefined };

export function openaiComputerAgent(options: OpenAIComputerAgentOptions): ModelAgent {
  const valid = validComputerOptions(options);
  const client = openaiModelClient({
    caller: CALLER,
    timeoutMs: valid.timeoutMs,
    maxRetries: valid.maxRetries,
    ...(valid.apiKey !== undefined ? { apiKey: valid.apiKey } : {}),
    ...(valid.baseURL !== undefined ? { baseURL: valid.baseURL } : {}),
  });
  return new ComputerAgent(client, valid);
}

class ComputerAgent extends ConversationAgent<Conversation> implements ModelAgent {
  readonly name: string;

  constructor(
    private readonly client: ModelClient,
    private readonly options: ValidComputerOptions,
  ) {
    super(CALLER, { maxModelCalls: options.maxModelCalls, maxTokens: options.maxTokens }, client);
    this.name = `openai computer-use (${options.model}, ${options.toolForm === 'preview' ? 'computer_use_preview tool' : 'computer tool'})`;
  }

  protected async answer(observation: Observation): Promise<AgentAnswer> {
    const { scale, display } = screenshotScale(observation.screenshot, observation.viewport);
    const conversation = this.conversation ?? { previousResponseId: undefined, pending: [], functions: [], historyLength: 0, answered: 0 };
    let input: ComputerInput[];
    if (!this.conversation) {
      this.conversation = conversation;
      input = takeoverInput(observation, scale);
    } else {
      input = this.followUpInput(conversation, observation, scale);
    }
    let complained = false;
    /** Text typed into an open prompt on earlier requests of this call, not sent yet. */
    let typed: string | undefined;
    for (let looks = 0, typings = 0; ; ) {
      const turn = await this.requestTurn(conversation, observation, input, display);
      const reading = read(turn, scale, observation.tools, observation.viewport);
      switch (reading.kind) {
        case 'actions': {
          // With a prompt open, the first actions answer it; the rest are done after. A model that
          // only typed is asked for its Enter (once or twice) before the prompt is answered.
          const answered = observation.dialog ? dialogAnswerFrom(reading.actions, typed) : undefined;
          if (answered && !answered.decided && ++typings <= MAX_PROMPT_TYPINGS && reading.functions.length === 0) {
            typed = answered.typed;
            input = [...this.callOutputs(conversation, observation), { kind: 'user', text: promptTypedNote(typed ?? '') }];
            continue;
          }
          const { dialog, rest } = answered ?? { dialog: undefined, rest: reading.actions };
          const consumed = reading.actions.length - rest.length;
          conversation.functions = reading.functions.map((call) =>
            call.index < consumed ? { callId: call.callId, name: call.name, text: 'not done: the prompt was answered first; call it again if it is still needed' } : { callId: call.callId, name: call.name, position: observation.history.length + call.index - consumed },
          );
          conversation.historyLength = observation.history.length;
          conversation.answered = rest.length;
          return { actions: rest, ...(dialog ? { dialog } : {}), ...(reading.intent ? { intent: reading.intent } : {}) };
        }
        case 'done':
          return { done: true, answer: reading.answer };
        case 'look':
          if (++looks > MAX_LOOKS) throw new RoteError('agent', `${CALLER}: the model asked for ${looks} screenshots in a row without acting`);
          input = this.callOutputs(conversation, observation);
          continue;
        case 'problem':
          if (complained) throw new RoteError('agent', `${CALLER}: ${reading.problem}${reading.words ? `; the model said: "${reading.words}"` : ''}`);
          complained = true;
          input = [...this.callOutputs(conversation, observation), { kind: 'user', text: errorNote(reading.problem) }];
          continue;
      }
    }
  }

  /** The input that continues the conversation: the pending calls' outputs, and a note when there is something to say or no screen yet. */
  private followUpInput(conversation: Conversation, observation: Observation, scale: Scale): ComputerInput[] {
    const prompt = observation.dialog ? dialogNote(observation.dialog) : undefined;
    // With a prompt open the model's action is still under way: the prompt is all there is to say.
    const note = prompt ?? followUpNote(observation, conversation.historyLength, conversation.answered, scale);
    const input = this.callOutputs(conversation, observation);
    // A computer call's output carries the screen; a function call's does not.
    const seesScreen = input.some((item) => item.kind === 'call-output');
    if (note || !seesScreen) {
      input.push({ kind: 'user', text: note ?? 'This is the current screen. Continue the task.', ...(seesScreen ? {} : { screenshot: observation.screenshot }) });
    }
    return input;
  }

  /**
   * One model request within the budget, its usage counted and the conversation moved on to its
   * answer: the response to chain from, the calls now pending, and its safety checks settled.
   */
  private async requestTurn(conversation: Conversation, observation: Observation, input: ComputerInput[], display: ComputerRequest['display']): Promise<ComputerTurn> {
    this.budget.checkBeforeRequest();
    const turn = await this.client.computerTurn({
      model: this.options.model,
      toolForm: this.options.toolForm,
      display,
      instructions: COMPUTER_INSTRUCTIONS,
      input,
      functions: functionTools(observation.tools),
      deadline: observation.deadline,
      ...(conversation.previousResponseId ? { previousResponseId: conversation.previousResponseId } : {}),
    });
    this.budget.add(turn.usage);
    conversation.previousResponseId = turn.responseId;
    conversation.pending = turn.calls.map((call) => ({ callId: call.callId, acknowledged: [] }));
    // Every function call is answered on the next request; one not taken as an action was not made.
    conversation.functions = turn.functionCalls.map((call) => ({ callId: call.callId, name: call.name, text: 'not done: the answer had an error, see the next message' }));
    await this.settleSafetyChecks(turn, conversation);
    return turn;
  }

  /** Fails closed: every pending check must be acknowledged by the handler, or the run stops here. */
  private async settleSafetyChecks(turn: ComputerTurn, conversation: Conversation): Promise<void> {
    for (const call of turn.calls) {
      for (const check of call.pendingSafetyChecks) {
        const what = `safety check ${check.code ?? check.id}${check.message ? ` ("${check.message}")` : ''}`;
        const handler = this.options.onSafetyCheck;
        if (!handler) {
          throw new RoteError('agent', `${CALLER}: the model service raised a ${what} before the next action; the run stops because no onSafetyCheck handler acknowledged it (pass onSafetyCheck to openaiComputerAgent to review such checks)`);
        }
        let acknowledged: boolean;
        try {
          acknowledged = (await handler(check)) === true;
        } catch (error) {
          throw new RoteError('agent', `${CALLER}: onSafetyCheck threw on the ${what}`, { cause: error });
        }
        if (!acknowledged) throw new RoteError('agent', `${CALLER}: the ${what} was not acknowledged by onSafetyCheck; the run stops before the action`);
        conversation.pending.find((pending) => pending.callId === call.callId)?.acknowledged.push(check);
      }
    }
  }

  /** The answer to every pending call: computer calls get the current screenshot and URL (checks acknowledged), function calls their result. */
  private callOutputs(conversation: Conversation, observation: Observation): ComputerInput[] {
    const outputs: ComputerInput[] = conversation.pending.map((call) => ({
      kind: 'call-output',
      callId: call.callId,
      screenshot: observation.screenshot,
      currentUrl: observation.url,
      acknowledged: call.acknowledged,
    }));
    for (const call of conversation.functions) {
      outputs.push({ kind: 'function-output', callId: call.callId, output: call.text ?? functionOutput(observation, call.position ?? -1, call.name) });
    }
    conversation.functions = [];
    return outputs;
  }
}

/** The first input of a run: the takeover prompt with the screenshot (and an open prompt's question). */
function takeoverInput(observation: Observation, scale: Scale): ComputerInput[] {
  const prompt = observation.dialog ? dialogNote(observation.dialog) : undefined;
  return [{ kind: 'user', text: [takeoverPrompt(observation, scale), prompt].filter(Boolean).join('\n\n'), screenshot: observation.screenshot }];
}

/** What a turn asks for: actions, a look at the screen, the end of the task, or something to complain about. */
function read(turn: ComputerTurn, scale: Scale, tools: Observation['tools'], viewport: Observation['viewport']): Reading {
  const words = modelWords([...turn.reasoning, ...turn.messages]);
  if (turn.refusals.length > 0) return { kind: 'problem', problem: `the model refused: "${modelWords(turn.refusals)}"`, words: undefined };
  if (turn.calls.length === 0 && turn.functionCalls.length === 0) {
    if (turn.messages.length > 0) return { kind: 'done', answer: modelWords(turn.messages, 2000)! };
    const why = turn.incomplete ? ` (the response is incomplete: ${turn.incomplete})` : '';
    return { kind: 'problem', problem: `the model gave an empty answer: no action and no message${why}`, words };
  }
  const actions: Action[] = [];
  const problems: string[] = [];
  const functions: { callId: string; name: string; index: number }[] = [];
  // In the order the model gave them: function calls stand between the computer calls they followed.
  const readFunctions = (after: number) => {
    for (const call of turn.functionCalls.filter((candidate) => candidate.after === after)) {
      const mapped = readFunctionCall(call.name, call.arguments, tools);
      if (!mapped.ok) problems.push(mapped.reason);
      else if ('action' in mapped.value) functions.push({ callId: call.callId, name: call.name, index: actions.push(mapped.value.action) - 1 });
    }
  };
  for (const [index, call] of turn.calls.entries()) {
    readFunctions(index);
    for (const raw of call.actions) {
      const mapped = fromComputerAction(raw, scale);
      const outside = mapped.ok && 'action' in mapped.value ? offScreen(mapped.value.action, viewport) : undefined;
      if (!mapped.ok) problems.push(mapped.reason);
      else if (outside) problems.push(outside);
      else if ('action' in mapped.value) actions.push(mapped.value.action);
    }
  }
  readFunctions(turn.calls.length);
  if (problems.length > 0) return { kind: 'problem', problem: `the model answered with an action rote cannot perform: ${problems.join('; ')}`, words };
  if (actions.length === 0) return { kind: 'look' };
  return { kind: 'actions', actions, intent: modelWords(turn.reasoning.length > 0 ? turn.reasoning : turn.messages, 200), functions };
}
