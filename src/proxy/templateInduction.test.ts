import { describe, expect, it } from 'vitest';
import { chatKey } from './chatKey.js';
import { MemoryConversationTree } from './conversationTree.js';
import { renderReply, type StoredReply } from './chatReply.js';
import { agrees, learnFrom, lookupLearned } from './learnedTemplates.js';
import { induceTemplates, readValues, valueForm, type StoredPath } from './templateInduction.js';

/**
 * Templates learned from two stored conversations with no declared values: what makes two
 * conversations differ only in values, which values become variables, and how a new request's
 * values are read. The conversations are an agent's turns, stored as the proxy stores them.
 */
type Row = { first: string; city: string; qty: string; ref?: string; result?: string; final?: string };
const ADA: Row = { first: 'Ada', city: 'Waco', qty: '250' };
const GRACE: Row = { first: 'Grace', city: 'Austin', qty: '1200' };
const LINUS: Row = { first: 'Linus', city: 'Boston', qty: '750' };

const usage = { promptTokens: 10, completionTokens: 5 };
const call = (field: string, value: unknown) => ({ name: 'fill', arguments: JSON.stringify({ field, value }) });

/** The agent's requests, turn by turn, and the model's reply to each. */
function turns(row: Row): { body: Record<string, unknown>; reply: StoredReply }[] {
  const messages: Record<string, unknown>[] = [
    { role: 'system', content: 'You fill records with the fill tool.' },
    { role: 'user', content: `Register the patient: first ${row.first}, city ${row.city}, quantity ${row.qty}.${row.ref ? ` Reference ${row.ref}.` : ''}` },
  ];
  const fills: [string, unknown][] = [['first', row.first], ['city', row.city], ['qty', Number(row.qty)]];
  const out: { body: Record<string, unknown>; reply: StoredReply }[] = [];
  fills.forEach(([field, value], index) => {
    const reply: StoredReply = { model: 'm', finishReason: 'tool_calls', content: null, toolCalls: [call(field, value)], usage };
    out.push({ body: { model: 'm', messages: [...messages] }, reply });
    messages.push({ role: 'assistant', tool_calls: [{ id: `call_${index}`, type: 'function', function: reply.toolCalls[0] }] });
    messages.push({ role: 'tool', tool_call_id: `call_${index}`, content: index === 2 && row.result ? row.result : 'ok' });
  });
  const final = row.final ?? `Saved ${row.first} in ${row.city}.`;
  out.push({ body: { model: 'm', messages: [...messages] }, reply: { model: 'm', finishReason: 'stop', content: final, toolCalls: [], usage } });
  return out;
}

/** The conversation as the store holds it after the agent's last turn. */
async function stored(row: Row, tree = new MemoryConversationTree()): Promise<StoredPath> {
  let nodeId = '';
  for (const turn of turns(row)) nodeId = await tree.store('ns', key(turn.body), turn.reply);
  return (await tree.pathTo(nodeId))!;
}

function key(body: Record<string, unknown>, values: ReadonlyMap<string, string> = new Map()) {
  const made = chatKey(body, values);
  if (!made.ok) throw new Error(made.reason);
  return made.value;
}

describe('templates learned from two conversations', () => {
  it('learns one template per turn, and reads a third run\'s values so that its messages are exactly the template', async () => {
    const learned = induceTemplates(await stored(ADA), await stored(GRACE));
    if (!learned.ok) throw new Error(learned.reason);
    // The whole conversation and its three earlier turns.
    expect(learned.value.map((template) => template.levels.length).sort((a, b) => a - b)).toEqual([2, 4, 6, 8]);
    const whole = learned.value[0]!;
    expect(whole.exemplar.values).toEqual({ value1: 'Ada', value2: 'Waco', value3: '250' });
    expect(whole.reply.content).toBe('Saved \u0001value1\u0002 in \u0001value2\u0002.');
    for (const [index, turn] of turns(LINUS).entries()) {
      const template = learned.value.find((candidate) => candidate.levels.length === 2 + 2 * index)!;
      const values = readValues(template.exemplar, key(turn.body).levels);
      if (!values.ok) throw new Error(values.reason);
      expect(Object.fromEntries(values.value)).toEqual({ value1: 'Linus', value2: 'Boston', value3: '750' });
      expect(key(turn.body, values.value).levels).toEqual(template.levels);
    }
    // The quantity comes back as a number: the third turn's template fills it from the request.
    expect(learned.value.find((template) => template.levels.length === 6)!.reply.toolCalls[0]!.arguments).toBe('{"field":"qty","value":"\\u0003\\u0001value3\\u0002"}');
  });

  it('does not learn from a value only a tool result brought: that is data the model may have decided on', async () => {
    const learned = induceTemplates(await stored({ ...ADA, result: 'ok, id 4411', final: 'Saved as 4411.' }), await stored({ ...ADA, result: 'ok, id 5522', final: 'Saved as 5522.' }));
    expect(learned).toEqual({ ok: false, reason: expect.stringContaining('"4411" did not come from a user, system or developer message') });
  });

  it('does not learn a value a tool result brought first, even when the user repeats it later: the turns between decided on it', async () => {
    // A refund agent: the order's total comes from a tool; the model asks for a manager above 1000;
    // the user then says the amount. Both teaching runs were above 1000.
    const refund = async (total: string) => {
      const tree = new MemoryConversationTree();
      const messages: Record<string, unknown>[] = [
        { role: 'system', content: 'You are a refund agent. Refunds above 1000 EUR need a manager.' },
        { role: 'user', content: 'Refund my last order.' },
      ];
      const ask = async (reply: StoredReply) => {
        const nodeId = await tree.store('ns', key({ model: 'm', messages: [...messages] }), reply);
        messages.push(reply.toolCalls.length > 0 ? { role: 'assistant', tool_calls: reply.toolCalls.map((call, index) => ({ id: `c${messages.length}${index}`, type: 'function', function: call })) } : { role: 'assistant', content: reply.content });
        return nodeId;
      };
      await ask({ model: 'm', finishReason: 'tool_calls', content: null, toolCalls: [{ name: 'get_last_order', arguments: '{}' }], usage });
      messages.push({ role: 'tool', tool_call_id: `c20`, content: `order total ${total} EUR` });
      await ask({ model: 'm', finishReason: 'stop', content: `Your last order was ${total} EUR. Refunds above 1000 EUR need a manager: shall I ask one to refund ${total} EUR?`, toolCalls: [], usage });
      messages.push({ role: 'user', content: `Yes, refund ${total} EUR.` });
      const end = await ask({ model: 'm', finishReason: 'tool_calls', content: null, toolCalls: [{ name: 'request_manager_refund', arguments: JSON.stringify({ amount: Number(total) }) }], usage });
      return (await tree.pathTo(end))!;
    };
    const learned = induceTemplates(await refund('2500'), await refund('1200'));
    expect(learned).toEqual({ ok: false, reason: expect.stringContaining('"2500" did not come from a user, system or developer message before anything else brought it') });
  });

  it('takes an address, a date or a decimal whole, so a third run whose value shares a part with the first is read', async () => {
    const learned = induceTemplates(await stored({ ...ADA, city: 'ada@acme.io' }), await stored({ ...GRACE, city: 'grace@beta.org' }));
    if (!learned.ok) throw new Error(learned.reason);
    expect(learned.value[0]!.exemplar.values).toEqual({ value1: 'Ada', value2: 'ada@acme.io', value3: '250' });
    const turn = turns({ ...LINUS, city: 'linus@acme.io' })[0]!;
    const first = learned.value.find((template) => template.levels.length === 2)!;
    const values = readValues(first.exemplar, key(turn.body).levels);
    expect(values.ok && Object.fromEntries(values.value)).toEqual({ value1: 'Linus', value2: 'linus@acme.io', value3: '750' });
  });

  it('does not learn a value the model never wrote: nothing shows how its answers depend on it', async () => {
    const learned = induceTemplates(await stored({ ...ADA, ref: 'K-1234' }), await stored({ ...GRACE, ref: 'K-5678' }));
    expect(learned).toEqual({ ok: false, reason: expect.stringContaining('the model never wrote "K-1234"') });
  });

  it('does not learn from conversations whose replies differ in more than values', async () => {
    expect(induceTemplates(await stored(ADA), await stored({ ...GRACE, final: `Could not save ${GRACE.first} today, sorry.` }))).toMatchObject({ ok: false, reason: expect.stringContaining('the replies differ in more than values') });
    // A value of two words where the other has one: not a difference in values it can tell.
    expect(induceTemplates(await stored(ADA), await stored({ ...GRACE, city: 'New York' }))).toMatchObject({ ok: false, reason: expect.stringContaining('another number of words') });
  });

  it('does not learn values too common to stand for one, or two that cannot be told apart', async () => {
    expect(induceTemplates(await stored(ADA), await stored({ ...GRACE, qty: '12' }))).toMatchObject({ ok: false, reason: expect.stringContaining('"12" is too common') });
    expect(induceTemplates(await stored(ADA), await stored({ ...GRACE, city: 'Grace' }))).toMatchObject({ ok: false, reason: expect.stringContaining('do not pair one to one') });
  });

  it('reads no values from a request that differs in anything else, or gives one variable two values', async () => {
    const learned = induceTemplates(await stored(ADA), await stored(GRACE));
    if (!learned.ok) throw new Error(learned.reason);
    const first = learned.value.find((template) => template.levels.length === 2)!;
    const other = turns(LINUS)[0]!.body;
    const reworded = { ...other, messages: [(other.messages as unknown[])[0], { role: 'user', content: 'Register the doctor: first Linus, city Boston, quantity 750.' }] };
    expect(readValues(first.exemplar, key(reworded).levels)).toMatchObject({ ok: false, reason: expect.stringContaining('"patient", which is not one of the template\'s values') });
    const twice = { ...other, messages: [(other.messages as unknown[])[0], { role: 'user', content: 'Register the patient: first Linus, city Boston, quantity 750.' }] };
    expect(readValues(first.exemplar, key(twice).levels)).toMatchObject({ ok: true });
    // A value of another form than the template learned on (letters and digits where names were, a
    // hyphenated name where single words were): not read.
    const coded = turns({ ...LINUS, first: 'R2D2' })[0]!.body;
    expect(readValues(first.exemplar, key(coded).levels)).toMatchObject({ ok: false, reason: expect.stringContaining('"R2D2" is not of the form of the template\'s "Ada"') });
    expect(readValues(first.exemplar, key(turns({ ...LINUS, first: 'Jo-Ann' })[0]!.body).levels)).toMatchObject({ ok: false });
    // A name in lower case where names were capitalized: the model may write it otherwise.
    expect(readValues(first.exemplar, key(turns({ ...LINUS, first: 'alan' })[0]!.body).levels)).toMatchObject({ ok: false, reason: expect.stringContaining('"alan" is not of the form') });
    // Where the exemplar's value stood in two places, the request must have one value in both.
    const third = learned.value.find((template) => template.levels.length === 4)!;
    const split = turns(LINUS)[1]!.body;
    const messages = structuredClone(split.messages) as { role: string; tool_calls?: { function: { arguments: string } }[] }[];
    messages[2]!.tool_calls![0]!.function.arguments = JSON.stringify({ field: 'first', value: 'Lina' });
    expect(readValues(third.exemplar, key({ ...split, messages }).levels)).toMatchObject({ ok: false, reason: expect.stringContaining('stands for two different values') });
  });
});

describe('the form of a value', () => {
  it('tells case, caseless scripts and the places of a compound\'s digits apart', () => {
    expect([valueForm('Ada'), valueForm('alan'), valueForm('JFK'), valueForm('McDonald'), valueForm('北京市')]).toEqual(['Aa', 'a', 'A', 'Ax', 'L']);
    expect(valueForm('2026-11-27')).toBe('9999-99-99');
    expect(valueForm('05-12-2026')).toBe('99-99-9999');
    expect(valueForm('250')).toBe(valueForm('1200'));
    expect(valueForm('ada@acme.io')).toBe('a@a.a');
    expect(valueForm('first_name')).toBe('a_a');
  });
});

describe('a learned template checked against the upstream', () => {
  it('agrees only with the very answer it would have served, whatever the arguments\' spacing', async () => {
    const learned = induceTemplates(await stored(ADA), await stored(GRACE));
    if (!learned.ok) throw new Error(learned.reason);
    const third = learned.value.find((template) => template.levels.length === 6)!;
    const values = new Map([['value1', 'Linus'], ['value2', 'Boston'], ['value3', '750']]);
    const answer = (args: string): StoredReply => ({ model: 'm', finishReason: 'tool_calls', content: null, toolCalls: [{ name: 'fill', arguments: args }], usage });
    expect(agrees(third.reply, values, answer('{"field": "qty", "value": 750}'))).toBe(true);
    expect(agrees(third.reply, values, answer('{"field":"qty","value":"750"}'))).toBe(false);
    expect(agrees(third.reply, values, answer('{"field":"qty","value":751}'))).toBe(false);
    expect(agrees(third.reply, values, { ...answer('{"field":"qty","value":750}'), finishReason: 'stop' })).toBe(false);
    const whole = learned.value.find((template) => template.levels.length === 8)!;
    expect(agrees(whole.reply, values, { model: 'm', finishReason: 'stop', content: 'Saved Linus in Boston.', toolCalls: [], usage })).toBe(true);
    expect(agrees(whole.reply, values, { model: 'm', finishReason: 'stop', content: 'Saved Linus in Boston!', toolCalls: [], usage })).toBe(false);
  });
});

describe('templates that overlap', () => {
  it('serve a request both read when both would answer it alike', async () => {
    const tree = new MemoryConversationTree();
    const book = (name: string, city: string) => ({ body: { model: 'm', messages: [{ role: 'user', content: `Book ${name} to ${city}.` }] }, reply: { model: 'm', finishReason: 'stop' as const, content: `Booked ${name} to ${city}.`, toolCalls: [], usage } });
    const store = async (name: string, city: string) => {
      const { body, reply } = book(name, city);
      const stored = key(body);
      await learnFrom(tree, 'ns', stored, await tree.store('ns', stored, reply), () => undefined);
    };
    // Two bookings to Waco teach a template with the city fixed; one to Boston, one with both as variables.
    await store('Ada', 'Waco');
    await store('Grace', 'Waco');
    await store('Alan', 'Boston');
    const templates = await tree.templatesAt('ns', key(book('Ada', 'Waco').body).shape, 1, 5);
    expect(templates.map((template) => Object.keys(template.exemplar.values).length).sort()).toEqual([1, 2]);
    for (const template of templates) await tree.judge(template.id, true);
    const request = book('Edsger', 'Waco').body;
    const reading = await lookupLearned(tree, 'ns', request, key(request));
    expect(reading).toMatchObject({ kind: 'hit' });
    if (reading.kind === 'hit') expect(renderReply(reading.reply, reading.values)).toMatchObject({ ok: true, value: { content: 'Booked Edsger to Waco.' } });
  });
});
