import { chatKey, type ChatKey } from './chatKey.js';
import type { StoredReply } from './chatReply.js';
import type { ConversationTree } from './conversationTree.js';
import type { DeclaredValues } from './declaredValues.js';
import { induceTemplates, readValues } from './templateInduction.js';

/**
 * Learned templates at work in the proxy: learning after a conversation with no declared values
 * is stored, and using them for a request with no declared values that the tree does not hold as
 * it is. The rules of both are in templateInduction.ts.
 */

/** How many stored conversations, and how many templates, one request is compared with: the newest. */
const COMPARED = 20;

export type LearnedHit = { kind: 'hit'; nodeId: string; reply: StoredReply; values: DeclaredValues } | { kind: 'none'; reason?: string };

/** The hit a learned template gives this request, when exactly one reading of it fits; none (with why, when in doubt) otherwise. */
export async function lookupLearned(tree: ConversationTree, namespace: string, body: Record<string, unknown>, rawKey: ChatKey): Promise<LearnedHit> {
  const templates = await tree.templatesAt(namespace, rawKey.shape, rawKey.levels.length, COMPARED);
  const fits: Extract<LearnedHit, { kind: 'hit' }>[] = [];
  for (const template of templates) {
    const values = readValues(template.exemplar, rawKey.levels);
    if (!values.ok) continue;
    const key = chatKey(body, values.value);
    if (!key.ok) continue;
    // Exact: the request with these values as variables is the template's very path.
    const found = await tree.lookup(namespace, key.value);
    if (found.kind === 'hit' && found.nodeId === template.nodeId) fits.push({ kind: 'hit', nodeId: found.nodeId, reply: found.reply, values: values.value });
  }
  if (fits.length === 0) return { kind: 'none' };
  const readings = new Set(fits.map((fit) => `${fit.nodeId}\n${JSON.stringify([...fit.values])}`));
  if (readings.size > 1) return { kind: 'none', reason: `${readings.size} learned templates read this request in different ways: forwarded rather than guessed` };
  return fits[0]!;
}

/**
 * After a conversation with no declared values was stored: compared with the newest stored ones of
 * its shape and length, and the templates of the first that differs from it only in values are
 * kept (one for it, and one for each earlier turn on its path). Never fails the request:
 * what goes wrong here is logged by kind and the conversation stays stored as it is.
 */
export async function learnFrom(tree: ConversationTree, namespace: string, key: ChatKey, nodeId: string, log: (line: string) => void): Promise<void> {
  try {
    const stored = await tree.pathTo(nodeId);
    if (!stored) return;
    for (const other of await tree.pathsAt(namespace, key.shape, key.levels.length, COMPARED + 1)) {
      if (other.nodeId === nodeId) continue;
      const templates = induceTemplates(other, stored);
      if (!templates.ok) continue;
      for (const template of templates.value) await tree.learn(namespace, key.shape, template);
      return log(`learned: ${templates.value.length} templates (requests of up to ${key.levels.length} messages) with ${Object.keys(templates.value[0]!.exemplar.values).length} values`);
    }
  } catch (error) {
    log(`learning failed (${(error as NodeJS.ErrnoException).code ?? (error as Error).name}); the conversation stays stored as it is`);
  }
}
