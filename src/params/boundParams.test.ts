import { inspect } from 'node:util';
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

describe('BoundParams printed', () => {
  it('never shows a secret, in JSON or when inspected, even after its values were read', () => {
    const params = bindParams({ user: 'ada', password: secret('hunter2') }, 'w');
    params.secretValues();
    params.toRecord();
    expect(JSON.stringify(params)).toBe('{"user":"ada","password":"********"}');
    expect(inspect(params)).not.toContain('hunter2');
    expect(inspect({ nested: params }, { depth: 5 })).not.toContain('hunter2');
  });
});

describe('BoundParams.piecesNamed', () => {
  const params = bindParams({ dob: '2011-10-11', at: '8:04 PM', phone: '(555) 123-4567', pin: secret('4242'), name: 'Ada Lovelace' }, 'w');

  it('names the value a piece on its own comes from: a day, a month name, AM/PM, an area code', () => {
    expect(params.piecesNamed('11')).toEqual([{ name: 'dob', strength: 'weak' }]);
    expect(params.piecesNamed('October')).toEqual([{ name: 'dob', strength: 'strong' }]);
    expect(params.piecesNamed('oct')).toEqual([{ name: 'dob', strength: 'strong' }]);
    expect(params.piecesNamed('PM')).toEqual([{ name: 'at', strength: 'strong' }]);
    expect(params.piecesNamed('8')).toEqual([{ name: 'at', strength: 'weak' }]);
    expect(params.piecesNamed('20')).toEqual([{ name: 'at', strength: 'weak' }]);
    expect(params.piecesNamed('555')).toEqual([{ name: 'phone', strength: 'strong' }]);
  });

  it('finds no pieces in free text: a Save button is no piece of a comment asking to save', () => {
    const free = bindParams({ comment: 'Please save the form and send it next week', name: 'Ada Lovelace', qty: '12' }, 'w');
    expect(free.piecesNamed('Save')).toEqual([]);
    expect(free.piecesNamed('Next')).toEqual([]);
    expect(free.piecesNamed('Lovelace')).toEqual([]);
    expect(free.piecesNamed('12')).toEqual([{ name: 'qty', strength: 'weak' }]);
    const amount = bindParams({ amount: '$1,234.50', phone: '555-867-5309' }, 'w');
    expect(amount.piecesNamed('1234')).toEqual([{ name: 'amount', strength: 'strong' }]);
    expect(amount.piecesNamed('50')).toEqual([{ name: 'amount', strength: 'weak' }]);
    // Only what the value holds: no 1 of a +1 rendering, no 0 of a 2.0000 one.
    expect(amount.piecesNamed('1')).toEqual([]);
    expect(amount.piecesNamed('0')).toEqual([]);
  });

  it('never names a secret, and a text of several words is no piece', () => {
    expect(params.piecesNamed('4242')).toEqual([]);
    expect(params.piecesNamed('October 11')).toEqual([]);
    expect(params.piecesNamed('12')).toEqual([]);
    expect(params.piecesNamed('')).toEqual([]);
  });
});
