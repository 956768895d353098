import { describe, expect, it } from 'vitest';
import { bindParams } from './params.js';
import { secret } from './secret.js';

describe('BoundParams.shownForms', () => {
  it('lists each value and the forms a page may show it in, never a secret', () => {
    const forms = bindParams({ dob: '1990-04-01', at: '20:04', password: secret('hunter2'), empty: '' }, 't').shownForms();
    expect(forms).toEqual(expect.arrayContaining(['1990-04-01', '04/01/1990', 'April 1, 1990', '20:04', '8:04 PM']));
    expect(forms.some((form) => form.includes('hunter2'))).toBe(false);
    expect(forms).not.toContain('');
  });
});

describe('BoundParams', () => {
  const bound = () => bindParams({ user: 'ada', password: secret('pw&1'), dob: '1990-04-01' }, 'w', { dob: { type: 'date' } });

  it('keeps which values are secret and how each is typed on a copy with other values', () => {
    const encoded = bound().mapValues((value, name) => (name === 'password' ? encodeURIComponent(value) : value));
    expect(encoded.get('password')).toBe('pw%261');
    expect(encoded.isSecret('password')).toBe(true);
    expect(encoded.kind('dob')).toBe('date');
    expect(encoded.masked()).toEqual({ user: 'ada', password: '********', dob: '1990-04-01' });
  });

  it('answers only for names it holds: never an inherited property', () => {
    const params = bindParams({ constructor: 'x', __proto__name: 'y' }, 'w');
    expect(params.get('constructor')).toBe('x');
    expect(params.get('toString')).toBeUndefined();
    expect(params.has('hasOwnProperty')).toBe(false);
    expect(params.names()).toEqual(['constructor', '__proto__name']);
  });

  it('gives user code a frozen plain record, secrets plain, and lists plain entries without them', () => {
    const params = bound();
    expect(Object.isFrozen(params.toRecord())).toBe(true);
    expect(params.toRecord()).toEqual({ user: 'ada', password: 'pw&1', dob: '1990-04-01' });
    expect(params.plainEntries().map(([name]) => name)).toEqual(['user', 'dob']);
    expect(params.secretValues()).toEqual(['pw&1']);
  });
});
