import { describe, expect, it } from 'vitest';
import { bindParams } from './params.js';
import { mergeSchemas, normalizeSchema, schemaFromStored } from './paramSchema.js';
import { param } from './paramType.js';
import { secret } from './secret.js';

const where = 'rote.run("t")';

describe('param types', () => {
  const bindOne = (type: ReturnType<typeof param.string>, value: unknown) => bindParams({ x: value }, where, normalizeSchema({ x: type }, where)).get('x');

  it('renders each type canonically', () => {
    expect(bindOne(param.string(), 'Ann')).toBe('Ann');
    expect(bindOne(param.number(), 12.5)).toBe('12.5');
    expect(bindOne(param.number(), ' 7 ')).toBe('7');
    expect(bindOne(param.integer(), '42')).toBe('42');
    expect(bindOne(param.boolean(), 'Yes')).toBe('true');
    expect(bindOne(param.boolean(), false)).toBe('false');
    expect(bindOne(param.date(), '1990-04-01')).toBe('1990-04-01');
    expect(bindOne(param.date(), new Date('1990-04-01'))).toBe('1990-04-01');
    expect(bindOne(param.time(), '20:04')).toBe('20:04');
    expect(bindOne(param.email(), 'ann@example.com')).toBe('ann@example.com');
    expect(bindOne(param.phone(), '(555) 123-4567')).toBe('(555) 123-4567');
    expect(bindOne(param.enum(['CA', 'NY']), 'ny')).toBe('NY');
    expect(bindOne(param.money(), 1234.5)).toBe('1234.5');
    expect(bindOne(param.money(), '19.99')).toBe('19.99');
  });

  it('refuses values of the wrong shape, naming the parameter, the value and the expectation', () => {
    const refuse = (type: ReturnType<typeof param.string>, value: unknown) => () => bindOne(type, value);
    expect(refuse(param.integer(), 2.5)).toThrow(`${where}: params.x must be an integer, got 2.5`);
    expect(refuse(param.date(), '04/01/1990')).toThrow('params.x must be a date as YYYY-MM-DD (e.g. "1990-04-01") or a Date, got "04/01/1990"');
    expect(refuse(param.date(), '2023-02-30')).toThrow('params.x must be a real calendar date as YYYY-MM-DD');
    expect(refuse(param.time(), '24:00')).toThrow('params.x must be a 24-hour time');
    expect(refuse(param.email(), 'ann@')).toThrow('params.x must be an email address');
    expect(refuse(param.phone(), '12345')).toThrow('params.x must be a phone number of 7 to 15 digits');
    expect(refuse(param.enum(['CA', 'NY']), 'TX')).toThrow('params.x must be one of "CA", "NY", got "TX"');
    expect(refuse(param.money(), '1,234.50')).toThrow('params.x must be an amount');
    expect(refuse(param.money(), 1.234)).toThrow('params.x must be an amount with at most 2 decimals');
    expect(refuse(param.boolean(), 'maybe')).toThrow('params.x must be a boolean');
    expect(refuse(param.number(), Number.POSITIVE_INFINITY)).toThrow('params.x must be a finite number, got Infinity');
  });

  it('lists every problem at once: ill-typed, missing and required by the recording', () => {
    const schema = normalizeSchema({ dob: 'date', state: param.enum(['CA']), name: param.string() }, where);
    const required = new Map([['plan', 'the recorded trajectory types or chooses {{plan}}']]);
    let message = '';
    try {
      bindParams({ dob: 'soon', state: 'ZZ' }, where, schema, required);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      [
        `${where}: 4 problems with params:`,
        '  - params.dob must be a date as YYYY-MM-DD (e.g. "1990-04-01") or a Date, got "soon"',
        '  - params.state must be one of "CA", got "ZZ"',
        '  - params.name is required (a string), but was not given',
        '  - params.plan is required: the recorded trajectory types or chooses {{plan}}',
      ].join('\n'),
    );
  });

  it('fills defaults, leaves optional ones out, and records kinds and secrets', () => {
    const schema = normalizeSchema({ country: param.string().default('USA'), notes: param.string().optional(), password: param.secret(), dob: param.date() }, where);
    const bound = bindParams({ password: 'pw', dob: '1990-04-01' }, where, schema);
    expect(bound.toRecord()).toEqual({ country: 'USA', password: 'pw', dob: '1990-04-01' });
    expect([...bound.secretNames]).toEqual(['password']);
    expect(bound.kind('dob')).toBe('date');
    expect(bound.kind('country')).toBe('string');
    expect([...bindParams({ password: secret('pw') }, where, normalizeSchema({ password: 'string' }, where)).secretNames]).toEqual(['password']);
  });

  it('rejects a bad schema before anything else, every entry at once', () => {
    expect(() => normalizeSchema({ dob: 'day', state: { type: 'enum' }, '1x': 'string' }, where)).toThrow(/3 problems with options\.schema:[\s\S]*schema\.dob: expected a param type[\s\S]*schema\.state: an enum needs its options[\s\S]*schema\.1x: not a valid parameter name/);
    expect(() => param.enum([])).toThrow('param.enum(options): options must be a non-empty array of non-empty strings, got []');
    expect(() => normalizeSchema('date', where)).toThrow('options.schema must be an object of name -> param type');
  });

  it('reads a stored schema back, dropping entries it does not understand, and lets the caller override it', () => {
    const stored = schemaFromStored({ dob: { type: 'date', optional: true, inferred: true }, odd: { type: 'duration' }, state: { type: 'enum', options: ['CA'] } });
    expect(stored).toEqual({ dob: { type: 'date', optional: true, inferred: true }, state: { type: 'enum', options: ['CA'] } });
    expect(mergeSchemas(stored, { dob: { type: 'string' } }).dob).toEqual({ type: 'string' });
    expect(schemaFromStored(null)).toEqual({});
  });
});
