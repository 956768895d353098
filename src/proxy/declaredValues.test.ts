import { describe, expect, it } from 'vitest';
import { ambiguity, parseDeclaredValues, readableTemplate, renderText, templateText } from './declaredValues.js';
import { renderJsonText, templateJsonText } from './jsonTemplates.js';

const values = (object: Record<string, string>) => new Map(Object.entries(object));

describe('the Rote-Params header', () => {
  it('reads a flat object of names to strings, numbers and booleans; no header is no values', () => {
    expect(parseDeclaredValues('{"firstName":"Ada","qty":42,"urgent":true}')).toEqual({ ok: true, value: values({ firstName: 'Ada', qty: '42', urgent: 'true' }) });
    expect(parseDeclaredValues(undefined)).toEqual({ ok: true, value: new Map() });
  });

  it('refuses what is not one, naming the name and what was expected', () => {
    expect(parseDeclaredValues('{firstName: Ada}')).toMatchObject({ ok: false, reason: expect.stringContaining('not JSON') });
    expect(parseDeclaredValues('["Ada"]')).toMatchObject({ ok: false, reason: expect.stringContaining('must be a JSON object') });
    expect(parseDeclaredValues('{"first name":"Ada"}')).toMatchObject({ ok: false, reason: expect.stringContaining('"first name", which is not a name') });
    expect(parseDeclaredValues('{"city":null}')).toMatchObject({ ok: false, reason: 'the Rote-Params value of "city" is null: expected a string, a number or a boolean' });
    expect(parseDeclaredValues('{"city":{"name":"Waco"}}')).toMatchObject({ ok: false, reason: expect.stringContaining('"city" is object') });
    expect(parseDeclaredValues('{"city":"  "}')).toMatchObject({ ok: false, reason: expect.stringContaining('"city" is empty') });
  });
});

describe('templating a text', () => {
  it('replaces whole tokens only, every occurrence, and says which names it used', () => {
    const templated = templateText('Register Ann Lee (Ann, annual plan 1427) for Annual review; qty 427.', values({ first: 'Ann', qty: '427', city: 'Waco' }));
    expect(templated.ok && readableTemplate(templated.value.text)).toBe('Register {{first}} Lee ({{first}}, annual plan 1427) for Annual review; qty {{qty}}.');
    expect(templated.ok && [...templated.value.used]).toEqual(['first', 'qty']);
  });

  it('renders a template with new values, and refuses one that needs a value the request did not declare', () => {
    const templated = templateText('Ship to Waco, TX', values({ city: 'Waco' }));
    if (!templated.ok) throw new Error(templated.reason);
    expect(renderText(templated.value.text, values({ city: 'Ames' }))).toEqual({ ok: true, value: 'Ship to Ames, TX' });
    expect(renderText(templated.value.text, values({ town: 'Ames' }))).toMatchObject({ ok: false, reason: expect.stringContaining('parameter "city"') });
  });

  it('leaves values too common to stand for a parameter: booleans and values under three characters', () => {
    const templated = templateText('{"success": false, "count": 2, "flag": "no"}', values({ dryRun: 'false', qty: '2', answer: 'no' }));
    expect(templated.ok && templated.value.text).toBe('{"success": false, "count": 2, "flag": "no"}');
    expect(templated.ok && templated.value.used.size).toBe(0);
  });

  it('never matches a value inside the marker another value left: a value may be a parameter\'s name', () => {
    const waco = templateText('Weather in Waco', values({ city: 'Waco', other: 'city' }));
    const lund = templateText('Weather in Lund', values({ city: 'Lund', other: 'city' }));
    expect(waco.ok && readableTemplate(waco.value.text)).toBe('Weather in {{city}}');
    expect(waco.ok && lund.ok && waco.value.text === lund.value.text).toBe(true);
    expect(templateText('the city of Lund', values({ city: 'Lund', other: 'city' }))).toMatchObject({ ok: true, value: { used: new Set(['city', 'other']) } });
  });

  it('refuses a text that holds its markers, rather than reading them as values', () => {
    expect(templateText('odd \u0001city\u0002 text', values({ city: 'Waco' })).ok).toBe(false);
  });

  it('calls values ambiguous when two are the same or one is inside another', () => {
    expect(ambiguity(values({ first: 'Lee', last: 'Lee' }))).toContain('"first" and "last" have the same value');
    expect(ambiguity(values({ city: 'York', place: 'New York' }))).toContain('"city" is part of the value of "place"');
    expect(ambiguity(values({ first: 'Ann', last: 'Lee' }))).toBeUndefined();
  });
});

describe('templating the JSON of a tool call', () => {
  it('finds a value whatever its escaping, and renders a new one as valid JSON', () => {
    const templated = templateJsonText('{"note": "say \\"hi\\" to Ann", "to": ["Ann"]}', values({ first: 'Ann' }));
    if (!templated.ok) throw new Error(templated.reason);
    const rendered = renderJsonText(templated.value.text, values({ first: 'Jo "JJ" O\\Neil' }));
    expect(rendered.ok && JSON.parse(rendered.value)).toEqual({ note: 'say "hi" to Jo "JJ" O\\Neil', to: ['Jo "JJ" O\\Neil'] });
  });

  it('keeps a number a number: 250 units for qty 250 are 1500 for qty 1500, and a qty that is no plain number is refused', () => {
    const templated = templateJsonText('{"sku":"A-1","qty":250,"price":250.5}', values({ qty: '250' }));
    if (!templated.ok) throw new Error(templated.reason);
    expect(JSON.parse((renderJsonText(templated.value.text, values({ qty: '1500' })) as { value: string }).value)).toEqual({ sku: 'A-1', qty: 1500, price: 250.5 });
    for (const bad of ['many', '0x10', '1e3x', ' 7 ', '9007199254740993']) expect(renderJsonText(templated.value.text, values({ qty: bad })), bad).toMatchObject({ ok: false, reason: expect.stringContaining('not a plain number') });
  });

  it('keeps JSON that holds no value byte for byte, refuses an integer JavaScript would round, and keeps a __proto__ key', () => {
    const spaced = '{ "message_id" : 42, "note": "hello" }';
    expect(templateJsonText(spaced, values({ first: 'Ada' }))).toEqual({ ok: true, value: { text: spaced, used: new Set() } });
    expect(templateJsonText('{"message_id":1234567890123456789,"to":"Ada"}', values({ first: 'Ada' }))).toMatchObject({ ok: false, reason: expect.stringContaining('1234567890123456789') });
    const templated = templateJsonText('{"__proto__":{"x":"Ada"},"to":"Ada"}', values({ first: 'Ada' }));
    if (!templated.ok) throw new Error(templated.reason);
    expect(JSON.parse((renderJsonText(templated.value.text, values({ first: 'Joan' })) as { value: string }).value)).toEqual(JSON.parse('{"__proto__":{"x":"Joan"},"to":"Joan"}'));
  });

  it('templates text that is not JSON as text', () => {
    const templated = templateJsonText('city=Waco', values({ city: 'Waco' }));
    expect(templated.ok && readableTemplate(templated.value.text)).toBe('city={{city}}');
  });
});
