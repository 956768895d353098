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
    const templated = templateText('Register Ann Lee (Ann, annual plan 1427) for Annual review; qty 42.', values({ first: 'Ann', qty: '42', city: 'Waco' }));
    expect(templated.ok && readableTemplate(templated.value.text)).toBe('Register {{first}} Lee ({{first}}, annual plan 1427) for Annual review; qty {{qty}}.');
    expect(templated.ok && [...templated.value.used]).toEqual(['first', 'qty']);
  });

  it('renders a template with new values, and refuses one that needs a value the request did not declare', () => {
    const templated = templateText('Ship to Waco, TX', values({ city: 'Waco' }));
    if (!templated.ok) throw new Error(templated.reason);
    expect(renderText(templated.value.text, values({ city: 'Ames' }))).toEqual({ ok: true, value: 'Ship to Ames, TX' });
    expect(renderText(templated.value.text, values({ town: 'Ames' }))).toMatchObject({ ok: false, reason: expect.stringContaining('parameter "city"') });
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

  it('keeps a number a number: 42 units for qty 42 are 43 for qty 43, and a qty that is no number is refused', () => {
    const templated = templateJsonText('{"sku":"A-1","qty":42,"price":42.5}', values({ qty: '42' }));
    if (!templated.ok) throw new Error(templated.reason);
    expect(JSON.parse((renderJsonText(templated.value.text, values({ qty: '43' })) as { value: string }).value)).toEqual({ sku: 'A-1', qty: 43, price: 42.5 });
    expect(renderJsonText(templated.value.text, values({ qty: 'many' }))).toMatchObject({ ok: false, reason: expect.stringContaining('is not a number') });
  });

  it('templates text that is not JSON as text', () => {
    const templated = templateJsonText('city=Waco', values({ city: 'Waco' }));
    expect(templated.ok && readableTemplate(templated.value.text)).toBe('city={{city}}');
  });
});
