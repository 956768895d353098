import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../e2e/support/storeHarness.js';
import { freshStoreEachTest } from '../../e2e/support/storeSuite.js';
import { chatKey } from './chatKey.js';
import type { StoredReply } from './chatReply.js';
import { conversationFileSchema, exportConversations, importConversations, referenceProblems } from './conversationFile.js';
import { StoreConversationTree } from './storeConversationTree.js';

/** A conversation tree and its learned templates through a file: what is written, what comes back, what is refused. */
const reply = (text: string): StoredReply => ({ model: 'm', finishReason: 'stop', content: text, toolCalls: [], usage: { promptTokens: 10, completionTokens: 2 } });
const NS = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);

function key(text: string, values: ReadonlyMap<string, string> = new Map()) {
  const made = chatKey({ model: 'm', messages: [{ role: 'user', content: text }] }, values);
  if (!made.ok) throw new Error(made.reason);
  return made.value;
}

describe.each(DIALECTS)('a conversation file on %s', (dialect) => {
  const fresh = freshStoreEachTest(dialect);
  if (!fresh) return;

  it('exports conversations and templates, imports them under another namespace, and checks an imported template again', async () => {
    const tree = new StoreConversationTree(fresh.store.conversations);
    const raw = key('Register Ada from Waco.');
    await tree.store(NS, raw, reply('Saved Ada in Waco.'));
    const values = new Map([['value1', 'Ada'], ['value2', 'Waco']]);
    const template = { levels: key('Register Ada from Waco.', values).levels, reply: reply('Saved \u0001value1\u0002 in \u0001value2\u0002.'), exemplar: { levels: raw.levels, values: Object.fromEntries(values) } };
    await tree.learn(NS, raw.shape, template);
    await tree.judge((await tree.templatesAt(NS, raw.shape, 1, 5))[0]!.id, true);

    const file = conversationFileSchema.parse(JSON.parse(JSON.stringify(await exportConversations(fresh.store.conversations, NS))));
    expect(file.conversations).toEqual([{ namespace: NS, shape: raw.shape, levels: raw.levels, reply: reply('Saved Ada in Waco.') }]);
    expect(file.templates).toEqual([{ namespace: NS, shape: raw.shape, exemplar: template.exemplar, reply: template.reply, refuted: false }]);
    expect(referenceProblems(file)).toEqual([]);

    expect(await importConversations(fresh.store.conversations, file, OTHER)).toEqual({ conversations: 1, templates: 1 });
    expect(await tree.lookup(OTHER, raw)).toMatchObject({ kind: 'hit', reply: { content: 'Saved Ada in Waco.' } });
    // Checked again where it serves: a file says what was learned, not that it is right here.
    expect(await tree.templatesAt(OTHER, raw.shape, 1, 5)).toEqual([expect.objectContaining({ confirmations: 0, reply: template.reply })]);
    // Imported twice: the conversation is shared, the template not doubled.
    expect(await importConversations(fresh.store.conversations, file, OTHER)).toEqual({ conversations: 1, templates: 0 });

    // A refuted template travels as refuted: the store it goes to never learns it again.
    const THIRD = 'c'.repeat(64);
    await tree.judge((await tree.templatesAt(NS, raw.shape, 1, 5))[0]!.id, false);
    const refuted = conversationFileSchema.parse(JSON.parse(JSON.stringify(await exportConversations(fresh.store.conversations, NS))));
    expect(refuted.templates).toEqual([expect.objectContaining({ refuted: true })]);
    expect(await importConversations(fresh.store.conversations, refuted, THIRD)).toEqual({ conversations: 1, templates: 0 });
    expect(await tree.templatesAt(THIRD, raw.shape, 1, 5)).toEqual([]);
    expect(await tree.learn(THIRD, raw.shape, template)).toBe('known');
    expect(await tree.templatesAt(THIRD, raw.shape, 1, 5)).toEqual([]);
  });

  it('refuses a template whose values the proxy would never learn or that do not stand in its exemplar', () => {
    const raw = key('Register Ada from Waco.');
    const file = (values: Record<string, string>) => ({ format: 'rote-proxy-conversations' as const, version: 1 as const, conversations: [], templates: [{ namespace: NS, shape: raw.shape, exemplar: { levels: raw.levels, values }, reply: reply('Saved.'), refuted: false }] });
    expect(referenceProblems(file({ value1: 'Ada', value2: 'Waco' }))).toEqual([]);
    expect(referenceProblems(file({ value1: 'Ad' }))).toEqual(['templates[0].exemplar.values: a value too common to stand for one (true, false or under three characters)']);
    expect(referenceProblems(file({ value1: 'Ada', value2: 'Ada' }))).toEqual([expect.stringContaining('have the same value')]);
    expect(referenceProblems(file({ value1: 'Boston' }))).toEqual(['templates[0].exemplar: its values do not all stand in its messages']);
  });
});
