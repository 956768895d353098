/**
 * The neutral shapes the OpenAI agents work with. Only `openaiClient.ts` knows the wire format
 * (and imports `openai`); it converts these to requests and responses to these, so the agent
 * loops, the prompt and the action mapping never depend on the SDK's types.
 */

export type TokenUsage = { inputTokens: number; outputTokens: number };

/** A check the model service raised before an action; see `onSafetyCheck`. */
export type SafetyCheck = { id: string; code?: string; message?: string };

/**
 * 'preview': the `computer_use_preview` tool (display size and environment declared, one action
 * per computer call). 'batch': the `computer` tool (a batch of actions per call, one screenshot
 * after the batch).
 */
export type ComputerToolForm = 'preview' | 'batch';

export type ComputerInput =
  | { kind: 'user'; text: string; screenshot?: Buffer }
  | { kind: 'call-output'; callId: string; screenshot: Buffer; currentUrl: string; acknowledged: SafetyCheck[] }
  /** The result of a function (custom tool) call, as text. */
  | { kind: 'function-output'; callId: string; output: string };

export type ComputerRequest = {
  model: string;
  toolForm: ComputerToolForm;
  /** The screenshot's size in pixels (the preview tool declares it). */
  display: { width: number; height: number };
  instructions: string;
  input: ComputerInput[];
  /** Custom tools offered next to the computer tool, as function tools. */
  functions: ChatTool[];
  previousResponseId?: string;
  /** The run's deadline (epoch ms): the request may not outlast it. */
  deadline?: number;
};

/** One computer call: the model's actions as it sent them (unvalidated), and its safety checks. */
export type ComputerCall = { callId: string; actions: unknown[]; pendingSafetyChecks: SafetyCheck[] };

/** A function (custom tool) call; `after` is how many computer calls came before it in the output, to keep their order. */
export type FunctionCall = { callId: string; name: string; arguments: string; after: number };

export type ComputerTurn = {
  responseId: string;
  calls: ComputerCall[];
  functionCalls: FunctionCall[];
  /** Reasoning summaries, in order. */
  reasoning: string[];
  /** Assistant message text, in order. */
  messages: string[];
  refusals: string[];
  /** Why the response stopped early ('max_output_tokens', 'content_filter'), when it did. */
  incomplete?: string;
  usage: TokenUsage;
};

export type ChatToolCall = { id: string; name: string; arguments: string };

export type ChatMessage =
  | { role: 'system'; text: string }
  | { role: 'user'; text: string; screenshot?: Buffer }
  | { role: 'assistant'; text: string | null; toolCalls: ChatToolCall[] }
  | { role: 'tool'; toolCallId: string; text: string };

/** A function tool: `parameters` is a JSON schema object. */
export type ChatTool = { name: string; description: string; parameters: Record<string, unknown> };

/** `deadline`: the run's (epoch ms); the request may not outlast it. */
export type ChatRequest = { model: string; messages: ChatMessage[]; tools: ChatTool[]; deadline?: number };

export type ChatTurn = {
  text: string | null;
  refusal: string | null;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
  usage: TokenUsage;
};

/** A model service. `requests` counts HTTP requests, retries included. */
export interface ModelClient {
  readonly requests: number;
  computerTurn(request: ComputerRequest): Promise<ComputerTurn>;
  chatTurn(request: ChatRequest): Promise<ChatTurn>;
}
