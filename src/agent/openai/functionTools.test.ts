import { describe, expect, it } from 'vitest';
import type { Observation } from '../agent.js';
import { functionOutput, functionTools, readFunctionCall } from './functionTools.js';

const tools: Observation['tools'] = [{ name: 'lookupClaim', description: 'Looks a claim up' }, { name: 'readBalance' }];

describe('function tools', () => {
  it('offers each custom tool with an open object schema', () => {
    expect(functionTools(tools)).toEqual([
      { name: 'lookupClaim', description: 'Looks a claim up', parameters: { type: 'object', additionalProperties: true } },
      { name: 'readBalance', description: 'Custom tool readBalance.', parameters: { type: 'object', additionalProperties: true } },
    ]);
  });

  it('reads a call as a tool action, or says what is wrong with it', () => {
    expect(readFunctionCall('lookupClaim', '{"id":"{{claimId}}","n":[1,2]}', tools)).toEqual({ ok: true, value: { action: { type: 'tool', name: 'lookupClaim', args: { id: '{{claimId}}', n: [1, 2] } } } });
    expect(readFunctionCall('readBalance', '', tools)).toEqual({ ok: true, value: { action: { type: 'tool', name: 'readBalance', args: {} } } });
    expect(readFunctionCall('deleteAll', '{}', tools)).toEqual({ ok: false, reason: 'there is no tool named "deleteAll"' });
    expect(readFunctionCall('lookupClaim', '{id:', tools)).toMatchObject({ ok: false, reason: expect.stringContaining('are not JSON') });
    expect(readFunctionCall('lookupClaim', '[1]', tools)).toEqual({ ok: false, reason: 'the arguments of lookupClaim must be an object' });
  });

  it('answers a call with the result rote recorded at its place in the history, or says it was not made', () => {
    const observation = {
      history: [
        { action: { type: 'click', x: 1, y: 1, button: 'left' }, kind: 'agent' },
        { action: { type: 'tool', name: 'lookupClaim', args: {} }, kind: 'agent', result: { status: 'open' } },
        { action: { type: 'tool', name: 'readBalance', args: {} }, kind: 'agent' },
      ],
    } as unknown as Observation;
    expect(functionOutput(observation, 1, 'lookupClaim')).toBe('{"status":"open"}');
    expect(functionOutput(observation, 2, 'readBalance')).toBe('done');
    expect(functionOutput(observation, 0, 'lookupClaim')).toMatch(/^not done/);
    expect(functionOutput(observation, 5, 'lookupClaim')).toMatch(/^not done/);
  });
});
