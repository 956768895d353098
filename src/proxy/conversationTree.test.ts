import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../e2e/support/storeHarness.js';
import { freshStoreEachTest } from '../../e2e/support/storeSuite.js';
import { chatKey, type ChatKey } from './chatKey.js';
import type { StoredReply } from './chatReply.js';
import { MemoryConversationTree, type ConversationTree } from './conversationTree.js';
import { StoreConversationTree } from './storeConversationTree.js';
import { templatePathHash } from './templateInduction.js';

/**
 * The tree's behaviour, the same in memory and in the store on both dialects: a whole match is a
 * hit, a miss says where the request left the tree, branches hang where they left it, and
 * namespaces and request shapes never share a node.
 */
const reply = (text: string): StoredReply => ({ model: 'm', finishReason: 'stop', content: text, toolCalls: [], usage: { promptTokens: 100, completionTokens: 20 } });

function key(messages: string[], settings: Record<string, unknown> = {}, values: ReadonlyMap<string, string> = new Map([['first', 'Ada']])): ChatKey {
  const result = chatKey({ model: 'm', ...settings, messages: messages.map((content, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content })) }, values);
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}

function behaves(open: () => ConversationTree) {
  let tree: ConversationTree;
  beforeEach(() => {
    tree = open();
  });

  it('serves a whole match, says where a request left it, and branches where it left', async () => {
    expect(await tree.lookup('ns', key(['Register Ada.']))).toMatchObject({ kind: 'miss', depth: 0 });
    await tree.store('ns', key(['Register Ada.', 'Which city?', 'Waco']), reply('Saved.'));
    // Known messages with no reply of their own: a miss at the end, not a hit.
    expect(await tree.lookup('ns', key(['Register Ada.', 'Which city?']))).toMatchObject({ kind: 'miss', depth: 2, reason: 'every message is known, but no reply to them is stored' });
    const hit = await tree.lookup('ns', key(['Register Ada.', 'Which city?', 'Waco']));
    expect(hit).toMatchObject({ kind: 'hit', reply: { content: 'Saved.' } });
    expect(await tree.lookup('ns', key(['Register Ada.', 'Which city?', 'Ames']))).toMatchObject({ kind: 'miss', depth: 2, reason: 'message 2 is new here' });
    await tree.store('ns', key(['Register Ada.', 'Which city?', 'Ames']), reply('Saved in Ames.'));
    expect(await tree.lookup('ns', key(['Register Ada.', 'Which city?', 'Ames']))).toMatchObject({ kind: 'hit', reply: { content: 'Saved in Ames.' } });
    expect(await tree.lookup('ns', key(['Register Ada.', 'Which city?', 'Waco']))).toMatchObject({ kind: 'hit', reply: { content: 'Saved.' } });
    if (hit.kind === 'hit') await tree.served(hit.nodeId, hit.reply);
  });

  it('keeps namespaces and request shapes apart', async () => {
    await tree.store('ns', key(['Register Ada.']), reply('Saved.'));
    expect(await tree.lookup('other', key(['Register Ada.']))).toMatchObject({ kind: 'miss', depth: 0 });
    expect(await tree.lookup('ns', key(['Register Ada.'], { temperature: 0.5 }))).toMatchObject({ kind: 'miss', depth: 0 });
    expect(await tree.lookup('ns', key(['Register Ada.']))).toMatchObject({ kind: 'hit' });
  });

  it('reads a stored path back with the reply of each turn, and keeps learned templates apart from the tree', async () => {
    await tree.store('ns', key(['Register Ada.']), reply('Which city?'));
    const whole = key(['Register Ada.', 'Which city?', 'Waco']);
    const end = await tree.store('ns', whole, reply('Saved.'));
    expect(await tree.pathTo(end)).toEqual({ nodeId: end, levels: whole.levels, reply: reply('Saved.'), replies: [reply('Which city?'), null, reply('Saved.')] });
    expect((await tree.pathsAt('ns', whole.shape, 3, 5)).map((path) => path.nodeId)).toEqual([end]);
    expect(await tree.pathsAt('ns', whole.shape, 2, 5)).toEqual([]);
    const templated = key(['Register Ada.', 'Which city?', 'Waco'], {}, new Map([['value1', 'Ada'], ['value2', 'Waco']]));
    const template = { levels: templated.levels, reply: reply('Saved \u0001value1\u0002.'), exemplar: { levels: whole.levels, values: { value1: 'Ada', value2: 'Waco' } } };
    expect(await tree.learn('ns', whole.shape, template)).toBe('added');
    expect(await tree.learn('ns', whole.shape, template)).toBe('known');
    const [kept, ...more] = await tree.templatesAt('ns', whole.shape, 3, 5);
    expect(more).toEqual([]);
    expect(kept).toEqual({ id: expect.any(String), pathHash: templatePathHash(templated.levels), exemplar: template.exemplar, reply: template.reply, confirmations: 0 });
    await tree.judge(kept!.id, true);
    expect((await tree.templatesAt('ns', whole.shape, 3, 5))[0]!.confirmations).toBe(1);
    expect(await tree.templatesAt('ns', whole.shape, 2, 5)).toEqual([]);
    expect(await tree.templatesAt('other', whole.shape, 3, 5)).toEqual([]);
    // Not in the tree: a client that declares value1 and value2 does not reach it.
    expect(await tree.lookup('ns', templated)).toMatchObject({ kind: 'miss' });
    // Another pair that would answer the same messages otherwise: the kept one is refuted, and neither serves.
    expect(await tree.learn('ns', whole.shape, { ...template, reply: reply('Refused \u0001value1\u0002.') })).toBe('refuted');
    expect(await tree.templatesAt('ns', whole.shape, 3, 5)).toEqual([]);
  });

  it('a message that repeats at another depth is another node', async () => {
    await tree.store('ns', key(['ok', 'ok', 'ok']), reply('three'));
    expect(await tree.lookup('ns', key(['ok', 'ok']))).toMatchObject({ kind: 'miss', depth: 2 });
    expect(await tree.lookup('ns', key(['ok', 'ok', 'ok']))).toMatchObject({ kind: 'hit', reply: { content: 'three' } });
    expect(await tree.lookup('ns', key(['ok', 'ok', 'ok', 'ok']))).toMatchObject({ kind: 'miss', depth: 3 });
  });
}

describe('the conversation tree in memory', () => behaves(() => new MemoryConversationTree()));

describe.each(DIALECTS)('the conversation tree in the store on %s', (dialect) => {
  const fresh = freshStoreEachTest(dialect);
  if (!fresh) return;
  behaves(() => new StoreConversationTree(fresh.store.conversations));

  it('forgets one branch: the node and every conversation through it, or a learned template', async () => {
    const tree = new StoreConversationTree(fresh.store.conversations);
    const waco = key(['Register Ada.', 'Which city?', 'Waco']);
    const ames = key(['Register Ada.', 'Which city?', 'Ames']);
    await tree.store('ns', waco, reply('Saved in Waco.'));
    const amesNode = await tree.store('ns', ames, reply('Saved in Ames.'));
    await tree.store('ns', key(['Register Ada.', 'Which city?', 'Ames', 'Saved in Ames.', 'And Bo?']), reply('Saved Bo.'));
    expect(await fresh.store.conversations.clearBranch(amesNode)).toEqual({ nodes: 3, templates: 0 });
    expect(await tree.lookup('ns', ames)).toMatchObject({ kind: 'miss', depth: 2 });
    expect(await tree.lookup('ns', waco)).toMatchObject({ kind: 'hit' });
    const templated = key(['Register Ada.', 'Which city?', 'Waco'], {}, new Map([['value1', 'Waco']]));
    await tree.learn('ns', waco.shape, { levels: templated.levels, reply: reply('Saved in \u0001value1\u0002.'), exemplar: { levels: waco.levels, values: { value1: 'Waco' } } });
    const [learned] = await tree.templatesAt('ns', waco.shape, 3, 5);
    expect(await fresh.store.conversations.clearBranch(learned!.id)).toEqual({ nodes: 0, templates: 1 });
    expect(await tree.templatesAt('ns', waco.shape, 3, 5)).toEqual([]);
    expect(await fresh.store.conversations.clearBranch('00000000-0000-4000-8000-000000000000')).toEqual({ nodes: 0, templates: 0 });
  });

  it('stores the same path once when two write it at once, counts hits and tokens, and clears a namespace', async () => {
    const tree = new StoreConversationTree(fresh.store.conversations);
    const path = key(['Register Ada.', 'Which city?', 'Waco']);
    await Promise.all([tree.store('ns', path, reply('Saved.')), tree.store('ns', path, reply('Saved.')), tree.store('other', path, reply('Saved.'))]);
    expect(await fresh.store.conversations.totals()).toEqual({ nodes: 6, replies: 2, hits: 0, tokensSaved: 0, templates: 0 });
    const hit = await tree.lookup('ns', path);
    if (hit.kind !== 'hit') throw new Error('expected a hit');
    await tree.served(hit.nodeId, hit.reply);
    await tree.served(hit.nodeId, hit.reply);
    expect(await fresh.store.conversations.totals()).toEqual({ nodes: 6, replies: 2, hits: 2, tokensSaved: 240, templates: 0 });
    expect(await fresh.store.conversations.namespaceTotals()).toEqual([
      { namespace: 'ns', nodes: 3, replies: 1, hits: 2, tokensSaved: 240, templates: 0, lastHitAt: expect.any(Number) },
      { namespace: 'other', nodes: 3, replies: 1, hits: 0, tokensSaved: 0, templates: 0, lastHitAt: null },
    ]);
    // A template's hits count with the tree's, and still count once it is refuted.
    const templated = key(['Register Ada.', 'Which city?', 'Waco'], {}, new Map([['value1', 'Ada']]));
    await tree.learn('ns', path.shape, { levels: templated.levels, reply: reply('Saved \u0001value1\u0002.'), exemplar: { levels: path.levels, values: { value1: 'Ada' } } });
    const [learned] = await tree.templatesAt('ns', path.shape, 3, 5);
    await tree.servedByTemplate(learned!.id, reply('Saved.'));
    expect(await fresh.store.conversations.totals()).toMatchObject({ hits: 3, tokensSaved: 360, templates: 1 });
    await tree.judge(learned!.id, false);
    expect(await fresh.store.conversations.totals()).toMatchObject({ hits: 3, tokensSaved: 360, templates: 0 });
    expect(await fresh.store.conversations.clear('ns')).toBe(3);
    expect(await tree.lookup('ns', path)).toMatchObject({ kind: 'miss', depth: 0 });
    expect(await tree.lookup('other', path)).toMatchObject({ kind: 'hit' });
  });
});
