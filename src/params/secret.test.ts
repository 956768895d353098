import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bindParams } from './params.js';
import { redactSecrets, secret, SECRET_MASK } from './secret.js';
import { taskIdentity } from './taskKey.js';
import { hideSecrets, renderForDisplay, renderKnown, renderTemplate, templatize } from './template.js';
import { templatedUrl } from '../checks/urlCheck.js';

const bound = () => bindParams({ user: 'ada', password: secret('pw'), pin: secret('7') }, 'test');

describe('secret()', () => {
  it('never shows its value when printed, spread or encoded', () => {
    const value = secret('hunter2');
    expect(String(value)).toBe(SECRET_MASK);
    expect(JSON.stringify({ value })).toBe(`{"value":"${SECRET_MASK}"}`);
    expect(inspect(value)).not.toContain('hunter2');
    expect(JSON.stringify({ ...value })).not.toContain('hunter2');
  });
  it('is bound to its plain value, and its name is known as secret', () => {
    const params = bound();
    expect(params.toRecord()).toEqual({ user: 'ada', password: 'pw', pin: '7' });
    expect([...params.secretNames].sort()).toEqual(['password', 'pin']);
    expect(bindParams({ user: 'ada' }, 'test').secretNames.size).toBe(0);
  });
  it('rejects a non-string secret and still names bad parameters', () => {
    expect(() => secret(42 as unknown as string)).toThrow('secret(value): value must be a string, got number');
    expect(() => bindParams({ password: secret('x'), when: new Date() }, 'w')).toThrow('w: params.when must be');
  });
});

describe('templating secrets', () => {
  it('templates a secret wherever it stands, however short', () => {
    const params = bound();
    expect(templatize('pw', params).template).toBe('{{password}}');
    expect(templatize('xpwx and 7th', params).template).toBe('x{{password}}x and {{pin}}th');
    expect(templatize('ada typed pw', params).template).toBe('{{user}} typed {{password}}');
  });
  it('leaves placeholders alone and keeps the text renderable', () => {
    const params = bindParams({ password: secret('pass'), other: secret('w') }, 't');
    const { template } = templatize('{{password}} then password', params);
    expect(template).toBe('{{password}} then {{password}}{{other}}ord');
    expect(renderTemplate(template, params)).toBe('pass then password');
    expect(hideSecrets('a {{other}} b', params).template).toBe('a {{other}} b');
  });
  it('reports equal secret values as an ambiguity', () => {
    const params = bindParams({ a: secret('same'), b: secret('same') }, 't');
    expect(templatize('is same here', params)).toEqual({ template: 'is {{a}} here', ambiguous: [['a', 'b']], literal: [], secretsFound: [{ names: ['a', 'b'], count: 1, alone: true }], pieceOf: [] });
  });
  it('renders secrets as the mask for display and shows the agent masked params', () => {
    const params = bound();
    expect(renderForDisplay('Log in {{user}} with {{password}} {{unknown}}', params)).toBe(`Log in ada with ${SECRET_MASK} {{unknown}}`);
    expect(redactSecrets('typed pw', params)).toBe(`typed ${SECRET_MASK}`);
    expect(params.masked()).toEqual({ user: 'ada', password: SECRET_MASK, pin: SECRET_MASK });
  });
  it('renders only known placeholders in text an agent types', () => {
    expect(renderKnown('{{password}}!{{nope}}', bound())).toBe('pw!{{nope}}');
  });
  it('keeps secrets out of task keys and URLs', () => {
    const params = bindParams({ password: secret('hunter2') }, 't');
    const plain = taskIdentity('log in with hunter2', params, [], 'http://x.test/', 't');
    expect(plain.template).toBe('log in with {{password}}');
    const templated = taskIdentity('log in as {{password}} hunter2', params, [], 'http://x.test/', 't');
    expect(templated.template).not.toContain('hunter2');
    expect(templatedUrl('http://x.test/a?token=xhunter2x', params)).not.toContain('hunter2');
  });
});

describe('a secret sharing its value with a plain parameter', () => {
  it('is an ambiguity, so a replay never types the secret where the plain value was', () => {
    const params = bindParams({ username: 'admin', password: secret('admin'), phone: '5551234000', pin: secret('1234') }, 't');
    expect(templatize('admin', params)).toMatchObject({ template: '{{password}}', ambiguous: [['password', 'username']] });
    expect(templatize('5551234000', params)).toMatchObject({ template: '555{{pin}}000', ambiguous: [['pin', 'phone']] });
  });
});
