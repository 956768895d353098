import { describe, expect, it } from 'vitest';
import { RoteError } from '../errors/roteError.js';
import { ToolRegistry, type ToolFunction } from './toolRegistry.js';

const fn: ToolFunction = () => 'ok';
const check = { capture: () => 1, compare: () => true };

function registerError(register: (registry: ToolRegistry) => unknown): RoteError {
  try {
    register(new ToolRegistry());
  } catch (error) {
    if (RoteError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a RoteError');
}

describe('ToolRegistry', () => {
  it('registers tools with their checks and lists them for the agent', () => {
    const registry = new ToolRegistry();
    registry.register('lookupClaim', fn, { description: 'Looks a claim up', preCheck: check, postCheck: { ...check, threshold: 0.5 } });
    registry.register('read_balance-2', fn);
    expect(registry.get('lookupClaim')).toMatchObject({ name: 'lookupClaim', fn, preCheck: check });
    expect(registry.get('missing')).toBeUndefined();
    expect(registry.list()).toEqual([{ name: 'lookupClaim', description: 'Looks a claim up' }, { name: 'read_balance-2' }]);
  });

  it('rejects a bad name, naming the value and what is expected', () => {
    for (const name of ['', '1abc', 'has space', 'dot.ted', 'x'.repeat(65), 42]) {
      const error = registerError((registry) => registry.register(name as string, fn));
      expect(error.code).toBe('invalid-argument');
      expect(error.message).toMatch(/^rote\.tool: name must be a letter or _ followed by up to 63 letters, digits, _ or -/);
      expect(error.message).toContain(`got ${typeof name} ${JSON.stringify(name)}`);
    }
  });

  it('rejects a name of one of rote\'s own actions, and a duplicate', () => {
    expect(registerError((registry) => registry.register('click', fn)).message).toBe('rote.tool("click"): name "click" is one of rote\'s own actions; choose another name');
    expect(registerError((registry) => registry.register('done', fn)).message).toContain('one of rote\'s own actions');
    const duplicate = registerError((registry) => {
      registry.register('lookup', fn);
      registry.register('lookup', fn);
    });
    expect(duplicate.message).toBe('rote.tool("lookup"): a tool named "lookup" is already registered with this Rote');
  });

  it('rejects a fn that is not a function', () => {
    expect(registerError((registry) => registry.register('lookup', 'nope' as unknown as ToolFunction)).message).toBe(
      'rote.tool("lookup"): fn must be a function (args, { page, params }) => result, got string "nope"',
    );
  });

  it('rejects options that are not an object, unknown option keys and a bad description', () => {
    expect(registerError((registry) => registry.register('lookup', fn, 5 as never)).message).toBe('rote.tool("lookup"): options must be an object { description?, preCheck?, postCheck? }, got number 5');
    expect(registerError((registry) => registry.register('lookup', fn, { precheck: check } as never)).message).toBe(
      'rote.tool("lookup"): options has unknown key "precheck" (expected description, preCheck, postCheck)',
    );
    expect(registerError((registry) => registry.register('lookup', fn, { description: 3 } as never)).message).toBe('rote.tool("lookup"): options.description must be a string, got number 3');
  });

  it('rejects a check without capture or compare, with an unknown key, or with a threshold outside 0..1', () => {
    expect(registerError((registry) => registry.register('lookup', fn, { preCheck: null } as never)).message).toContain('options.preCheck must be an object { capture(context), compare(current, recorded), threshold? }, got null');
    expect(registerError((registry) => registry.register('lookup', fn, { preCheck: { compare: () => true } } as never)).message).toBe(
      'rote.tool("lookup"): options.preCheck.capture must be a function (context) => data, got undefined',
    );
    expect(registerError((registry) => registry.register('lookup', fn, { postCheck: { capture: () => 1, compare: 1 } } as never)).message).toBe(
      'rote.tool("lookup"): options.postCheck.compare must be a function (current, recorded) => boolean | similarity, got number 1',
    );
    expect(registerError((registry) => registry.register('lookup', fn, { preCheck: { ...check, treshold: 0.5 } } as never)).message).toBe(
      'rote.tool("lookup"): options.preCheck has unknown key "treshold" (expected capture, compare, threshold)',
    );
    expect(registerError((registry) => registry.register('lookup', fn, { preCheck: { ...check, threshold: 1.5 } })).message).toBe(
      'rote.tool("lookup"): options.preCheck.threshold must be a number from 0 to 1, got number 1.5',
    );
  });
});
