/**
 * An agent for OpenAI-compatible chat completions servers of vision models (vLLM, Ollama, LM
 * Studio and the like): rote's actions as function tools, the screenshot as an image input. The
 * whole conversation is resent each call (chat completions keep no state); only the newest
 * screenshot stays in it, older ones are replaced by a line of text.
 */
import type { Action } from '../../actions/action.js';
import { offScreen } from '../../actions/onScreen.js';
import { refuse } from '../../errors/refusal.js';
import { RoteError } from '../../errors/roteError.js';
import type { AgentAnswer, Observation } from '../agent.js';
import { validChatOptions, type ChatCompletionsAgentOptions, type ValidChatOptions } from './agentOptions.js';
import { chatTools, readToolCall } from './chatTools.js';
import type { ModelAgent } from './computerAgent.js';
import { screenshotScale, type Scale } from './computerActions.js';
import type { ChatMessage, ChatTool, ChatTurn, ModelClient } from './modelTypes.js';
import { openaiModelClient } from './openaiClient.js';
import { CHAT_INSTRUCTIONS, dialogNote, errorNote, followUpNote, takeoverPrompt } from './prompt.js';
import { dialogAnswerFrom } from './dialogAnswer.js';
import { ConversationAgent } from './conversationAgent.js';
import { functionOutput, functionTools, isCustomTool, readFunctionCall } from './functionTools.js';
import { modelWords } from './runState.js';

const CALLER = 'chatCompletionsAgent';

/** A tool call's result: `text`, or a custom tool's result at `position` of the next observation's history. */
type CallResult = { toolCallId: string; text: string; position?: number; name?: string };
type Conversation = { messages: ChatMessage[]; results: CallResult[]; historyLength: number; answered: number };

type Reading =
  | { kind: 'actions'; actions: Action[]; intent: string | undefined; results: Conversation['results'] }
  | { kind: 'done'; answer: string }
  | { kind: 'problem'; problem: string; words: string | undefined; results: Conversation['results'] };

export function chatCompletionsAgent(options: ChatCompletionsAgentOptions): ModelAgent {
  const valid = validChatOptions(options);
  const client = openaiModelClient({
    caller: CALLER,
    timeoutMs: valid.timeoutMs,
    maxRetries: valid.maxRetries,
    baseURL: valid.baseURL,
    keyOptional: true,
    ...(valid.apiKey !== undefined ? { apiKey: valid.apiKey } : {}),
  });
  return new ChatAgent(client, valid);
}

class ChatAgent extends ConversationAgent<Conversation> implements ModelAgent {
  readonly name: string;
  private readonly actionTools: ChatTool[] = chatTools();

  constructor(
    private readonly client: ModelClient,
    private readonly options: ValidChatOptions,
  ) {
    super(CALLER, { maxModelCalls: options.maxModelCalls, maxTokens: options.maxTokens }, client);
    this.name = `chat completions (${options.model})`;
  }

  protected async answer(observation: Observation): Promise<AgentAnswer> {
    const { scale } = screenshotScale(observation.screenshot, observation.viewport);
    let conversation = this.conversation;
    if (!conversation) {
      conversation = { messages: [{ role: 'system', text: CHAT_INSTRUCTIONS }], results: [], historyLength: 0, answered: 0 };
      this.conversation = conversation;
      this.show(conversation, takeoverPrompt(observation, scale), observation.screenshot);
    } else {
      this.reply(conversation, observation);
      // With a prompt open the model's action is still under way: the prompt is all there is to say.
      const note = observation.dialog ? undefined : followUpNote(observation, conversation.historyLength, conversation.answered, scale);
      this.show(conversation, note ?? (observation.dialog ? 'This is the screen from before your last action.' : 'Your actions were done. This is the screen now; continue the task.'), observation.screenshot);
    }
    if (observation.dialog) conversation.messages.push({ role: 'user', text: dialogNote(observation.dialog) });
    let complained = false;
    for (;;) {
      this.budget.checkBeforeRequest();
      const tools = [...this.actionTools, ...functionTools(observation.tools)];
      const turn = await this.client.chatTurn({ model: this.options.model, messages: conversation.messages, tools, deadline: observation.deadline });
      this.budget.add(turn.usage);
      conversation.messages.push({ role: 'assistant', text: turn.text, toolCalls: turn.toolCalls });
      const reading = read(turn, scale, observation.tools, observation.viewport);
      switch (reading.kind) {
        case 'actions': {
          // With a prompt open, the first actions answer it; the rest are done after.
          const { dialog, rest } = observation.dialog ? dialogAnswerFrom(reading.actions) : { dialog: undefined, rest: reading.actions };
          const consumed = reading.actions.length - rest.length;
          conversation.results = reading.results.map((result) => {
            if (result.position === undefined) return result;
            if (result.position < consumed) return { toolCallId: result.toolCallId, text: 'not done: the prompt was answered first; call it again if it is still needed' };
            return { ...result, position: observation.history.length + result.position - consumed };
          });
          conversation.historyLength = observation.history.length;
          conversation.answered = rest.length;
          return { actions: rest, ...(dialog ? { dialog } : {}), ...(reading.intent ? { intent: reading.intent } : {}) };
        }
        case 'done':
          return { done: true, answer: reading.answer };
        case 'problem':
          if (complained) throw new RoteError('agent', `${CALLER}: ${reading.problem}${reading.words ? `; the model said: "${reading.words}"` : ''}`);
          complained = true;
          conversation.results = reading.results;
          this.reply(conversation, observation);
          conversation.messages.push({ role: 'user', text: errorNote(reading.problem) });
          continue;
      }
    }
  }

  /** Every tool call of the last answer gets its result before anything else is said. */
  private reply(conversation: Conversation, observation: Observation): void {
    for (const result of conversation.results) {
      const text = result.position !== undefined && result.name !== undefined ? functionOutput(observation, result.position, result.name) : result.text;
      conversation.messages.push({ role: 'tool', toolCallId: result.toolCallId, text });
    }
    conversation.results = [];
  }

  /** Adds a user message with the screenshot; earlier screenshots become a line of text. */
  private show(conversation: Conversation, text: string, screenshot: Buffer): void {
    conversation.messages = conversation.messages.map((message) =>
      message.role === 'user' && message.screenshot ? { role: 'user', text: `${message.text}\n(The screenshot sent here is omitted now.)` } : message,
    );
    conversation.messages.push({ role: 'user', text, screenshot });
  }
}

function read(turn: ChatTurn, scale: Scale, tools: Observation['tools'], viewport: Observation['viewport']): Reading {
  const words = modelWords(turn.text ? [turn.text] : []);
  const notDone = (text: string) => turn.toolCalls.map((call) => ({ toolCallId: call.id, text }));
  if (turn.refusal) return { kind: 'problem', problem: `the model refused: "${modelWords([turn.refusal])}"`, words: undefined, results: notDone('not done: the answer was a refusal') };
  if (turn.toolCalls.length === 0) {
    return { kind: 'problem', problem: 'the model answered without calling a tool (act with the action tools, or call done when the task is complete)', words, results: [] };
  }
  const actions: Action[] = [];
  const problems: string[] = [];
  const results: Conversation['results'] = [];
  let done: string | undefined;
  for (const call of turn.toolCalls) {
    const custom = isCustomTool(call.name, tools);
    const read = custom ? readFunctionCall(call.name, call.arguments, tools) : readToolCall(call, scale);
    const outside = read.ok && 'action' in read.value ? offScreen(read.value.action, viewport) : undefined;
    const mapped = outside ? refuse(outside) : read;
    if (!mapped.ok) {
      problems.push(mapped.reason);
      results.push({ toolCallId: call.id, text: `error: ${mapped.reason}` });
    } else if ('done' in mapped.value) {
      done = mapped.value.done;
      results.push({ toolCallId: call.id, text: 'not finished yet: the actions before it are done first; call done again if the task is complete' });
    } else if ('action' in mapped.value) {
      actions.push(mapped.value.action);
      // A custom tool's result is known once rote has called it: taken from the next observation.
      results.push({ toolCallId: call.id, text: 'done', ...(custom ? { position: actions.length - 1, name: call.name } : {}) });
    } else {
      results.push({ toolCallId: call.id, text: 'error: a screenshot is sent after every answer; act or call done' });
      problems.push('screenshot is not a tool');
    }
  }
  if (problems.length > 0) {
    return { kind: 'problem', problem: `the model answered with an action rote cannot perform: ${problems.join('; ')}`, words, results: results.map((result) => (result.text === 'done' ? { toolCallId: result.toolCallId, text: 'not done: another call in this answer failed' } : result)) };
  }
  if (actions.length === 0) return { kind: 'done', answer: done ?? 'Done' };
  return { kind: 'actions', actions, intent: modelWords(turn.text ? [turn.text] : [], 200), results };
}
