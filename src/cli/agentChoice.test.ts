import { describe, expect, it } from 'vitest';
import { chooseAgent } from './agentChoice.js';

describe('chooseAgent', () => {
  it('runs the offline demo agent without OPENAI_API_KEY', () => {
    const choice = chooseAgent({ model: 'gpt-5.4' }, {});
    expect(choice.create).toBeUndefined();
    expect(choice.description).toBe('the offline demo agent (--model gpt-5.4 is not used: OPENAI_API_KEY is not set)');
  });

  it('runs the OpenAI agent with the key, the model and the base URL, and never shows the key', () => {
    const key = 'sk-test-do-not-show-0123456789';
    const choice = chooseAgent({}, { OPENAI_API_KEY: key, OPENAI_BASE_URL: 'http://user:pw@127.0.0.1:9/v1' });
    expect(choice.model).toBe(true);
    expect(choice.description).toBe('the OpenAI computer-use agent, model computer-use-preview with the computer_use_preview tool, at http://127.0.0.1:9/v1');
    expect(chooseAgent({ model: 'gpt-5.4' }, { OPENAI_API_KEY: key }).description).toContain('model gpt-5.4 with the computer tool, at https://api.openai.com/v1');
    expect(JSON.stringify(choice)).not.toContain(key);
  });

  it('runs a chat completions server at OPENAI_BASE_URL, the key optional', () => {
    const choice = chooseAgent({ chatCompletions: true, model: 'qwen2.5vl' }, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
    expect(choice.description).toBe('a vision model over chat completions, model qwen2.5vl, at http://127.0.0.1:11434/v1');
    expect(() => chooseAgent({ chatCompletions: true, model: 'm' }, {})).toThrow('set OPENAI_BASE_URL');
  });
});
