import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RoteError } from '../errors/roteError.js';
import { scrubError } from './scrubError.js';
import { SECRET_MASK } from './secret.js';

const VALUE = 'hunter?2 x';
const FORMS = [VALUE, encodeURIComponent(VALUE), new URLSearchParams({ v: VALUE }).toString().slice(2), 'hunter%3f2%20x'];

function shows(text: string): boolean {
  return FORMS.some((form) => text.includes(form));
}

describe('scrubError', () => {
  it('masks the value in message, stack and cause chain, keeping class, code and identity', () => {
    const root = new Error(`page.fill: typed "${VALUE}" into the field`);
    const middle = new TypeError(`fetch http://a.test/?pw=${encodeURIComponent(VALUE)}`, { cause: root });
    const error = new RoteError('agent', `rote.run("x"): the agent failed: ${VALUE}`, { cause: middle });
    const scrubbed = scrubError(error, [VALUE]);
    expect(scrubbed).toBe(error);
    expect(scrubbed).toBeInstanceOf(RoteError);
    expect(RoteError.isInstance(scrubbed)).toBe(true);
    expect(scrubbed.code).toBe('agent');
    expect(scrubbed.message).toBe(`rote.run("x"): the agent failed: ${SECRET_MASK}`);
    expect(scrubbed.cause).toBe(middle);
    expect(middle).toBeInstanceOf(TypeError);
    expect(middle.message).toBe(`fetch http://a.test/?pw=${SECRET_MASK}`);
    expect(root.message).toBe(`page.fill: typed "${SECRET_MASK}" into the field`);
    for (const each of [error, middle, root]) expect(shows(each.stack ?? '')).toBe(false);
    expect(shows(inspect(error, { depth: 10 }))).toBe(false);
  });

  it('masks form-encoded and lower-case percent-encoded forms, other text properties and nested errors', () => {
    const inner = Object.assign(new Error(`query failed: pw=${FORMS[2]}`), { query: `select '${FORMS[3]}'`, params: [VALUE, 1], log: { lines: [`- fill("${VALUE}")`] } });
    const error = new AggregateError([inner, `thrown text ${VALUE}`], 'several');
    scrubError(error, [VALUE]);
    expect(shows(inspect(error, { depth: 10 }))).toBe(false);
    expect(inner.params).toEqual([SECRET_MASK, 1]);
    expect(error.errors[1]).toBe(`thrown text ${SECRET_MASK}`);
  });

  it('copies a frozen error onto its prototype, scrubs thrown strings and survives cycles', () => {
    const frozen = Object.freeze(new RoteError('timeout', `timed out typing ${VALUE}`));
    const scrubbed = scrubError(frozen, [VALUE]);
    expect(scrubbed).not.toBe(frozen);
    expect(RoteError.isInstance(scrubbed)).toBe(true);
    expect(scrubbed).toBeInstanceOf(RoteError);
    expect(scrubbed.code).toBe('timeout');
    expect(scrubbed.message).toBe(`timed out typing ${SECRET_MASK}`);
    expect(shows(scrubbed.stack ?? '')).toBe(false);

    expect(scrubError(`plain ${VALUE}`, [VALUE])).toBe(`plain ${SECRET_MASK}`);
    const looped = new Error(`a ${VALUE}`) as Error & { cause?: unknown };
    looped.cause = looped;
    expect(scrubError(looped, [VALUE]).message).toBe(`a ${SECRET_MASK}`);
  });

  it('leaves errors alone when there is no secret, and non-data objects untouched', () => {
    const error = new Error('nothing here');
    const buffer = Buffer.from(VALUE);
    Object.assign(error, { buffer });
    expect(scrubError(error, [])).toBe(error);
    scrubError(error, [VALUE]);
    expect((error as Error & { buffer: Buffer }).buffer).toBe(buffer);
  });
});
