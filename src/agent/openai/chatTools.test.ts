import { describe, expect, it } from 'vitest';
import { chatTools, readToolCall } from './chatTools.js';

describe('chatTools', () => {
  it('offers one function per action type, with the action schema minus its type, and done', () => {
    const tools = chatTools();
    expect(tools.map((tool) => tool.name)).toEqual(['click', 'double_click', 'type', 'keypress', 'scroll', 'drag', 'move', 'wait', 'goto', 'done']);
    const click = tools[0]!.parameters as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(click.properties)).toEqual(['x', 'y', 'button']);
    expect(click.required).toEqual(['x', 'y']);
  });

  it('reads tool calls as actions, done, or problems', () => {
    const unit = { x: 1, y: 1 };
    expect(readToolCall({ id: 'a', name: 'type', arguments: '{"text":"Ada"}' }, unit)).toEqual({ ok: true, value: { action: { type: 'type', text: 'Ada' } } });
    expect(readToolCall({ id: 'b', name: 'done', arguments: '{"answer":"Saved."}' }, unit)).toEqual({ ok: true, value: { done: 'Saved.' } });
    expect(readToolCall({ id: 'c', name: 'click', arguments: '{"x":' }, unit)).toMatchObject({ ok: false, reason: expect.stringContaining('not JSON') });
    expect(readToolCall({ id: 'd', name: 'fly', arguments: '{}' }, unit)).toMatchObject({ ok: false, reason: expect.stringContaining('no tool named "fly"') });
  });
});
