// The two agents that call a model where the cache cannot go.
declare const rote: import('rote').Rote;
declare const page: import('playwright').Page;
declare const task: string;
declare const params: Record<string, string>;

// #region docs
import { openaiComputerAgent, chatCompletionsAgent } from 'rote';

// The OpenAI computer-use tool (Responses API). apiKey defaults to OPENAI_API_KEY,
// baseURL to OPENAI_BASE_URL, else https://api.openai.com/v1.
const agent = openaiComputerAgent({
  model: 'computer-use-preview',   // or 'gpt-5.4': the newer `computer` tool, a batch of actions per call
  onSafetyCheck: (check) => check.code === 'irrelevant_domain', // without it any check stops the run
  maxModelCalls: 100,              // per run, retries included (default 100)
  maxTokens: 200_000,              // per run, input + output (default: no limit)
  timeoutMs: 60_000,               // per HTTP request (default 60000)
  maxRetries: 2,                   // 408, 409, 429 and 5xx, honouring Retry-After (default 2)
});

// Any OpenAI-compatible chat completions server of a vision model (vLLM, Ollama, LM Studio):
// rote's actions as function tools, the screenshot as an image input. apiKey only if the server
// needs one: OPENAI_API_KEY is not sent to another server unless you pass it.
export const local = chatCompletionsAgent({ model: 'qwen2.5vl', baseURL: 'http://127.0.0.1:11434/v1' });

const result = await rote.run(page, { task, params, agent });
console.log(result.status, result.usage); // { modelCalls, inputTokens, outputTokens }
// #endregion
