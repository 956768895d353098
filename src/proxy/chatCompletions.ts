import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chatKey, type ChatKey } from './chatKey.js';
import { readChatBody } from './chatRequest.js';
import { bypassReason, renderReply, storableReply, type StoredReply } from './chatReply.js';
import { chunksOf, completionOfStream } from './chatStream.js';
import type { ConversationTree } from './conversationTree.js';
import { agrees, learnFrom, lookupLearned } from './learnedTemplates.js';
import { ambiguity, parseDeclaredValues, type DeclaredValues } from './declaredValues.js';
import { namespaceOf } from './namespace.js';
import { sendOpenAIError } from './openaiError.js';
import { forward, relay, UpstreamUnreachable, type Forwarded } from './upstream.js';
import { headerOf, headerSafe, parseObject, sendUnreachable } from './httpParts.js';

/**
 * POST /v1/chat/completions: served from the namespace's tree when the whole conversation is in
 * it with a reply, forwarded otherwise (the reply then kept as a branch where the request left the
 * tree). Every answer says `Rote-Cache: hit | miss | bypass`, and a miss or a bypass `Rote-Reason`.
 */
export type ChatContext = {
  upstream: URL;
  tree: ConversationTree;
  log: (line: string) => void;
  /** Learn templates from stored conversations with no declared values, and use them (on unless false). */
  learn?: boolean;
  /** The namespace every key shares, when the operator says so (`--namespace`); each key has its own otherwise. */
  sharedNamespace?: string;
};

export async function handleChatCompletions(req: IncomingMessage, res: ServerResponse, raw: Buffer, context: ChatContext): Promise<void> {
  const refused = { 'rote-cache': 'bypass', 'rote-reason': 'the request was refused before it was looked up' };
  const read = readChatBody(raw);
  if (!read.ok) return sendOpenAIError(res, 400, { type: 'invalid_request_error', ...read.error }, refused);
  const declared = parseDeclaredValues(headerOf(req, 'rote-params'));
  if (!declared.ok) return sendOpenAIError(res, 400, { type: 'invalid_request_error', message: declared.reason, param: 'Rote-Params', code: 'invalid_rote_params' }, refused);
  const body = read.body;
  const values = declared.value;
  const namespace = namespaceOf(req, context.sharedNamespace);
  const bypass = bypassReason(body) ?? ambiguity(values) ?? (namespace === undefined ? 'the request carries no API key (Authorization, api-key or x-api-key): it has no tree of its own' : undefined);
  if (bypass) return passThrough(req, res, raw, context, { cache: 'bypass', reason: bypass });
  const key = chatKey(body, values);
  if (!key.ok || namespace === undefined) return passThrough(req, res, raw, context, { cache: 'bypass', reason: key.ok ? 'no API key' : key.reason });
  const found = await context.tree.lookup(namespace, key.value);
  if (found.kind === 'hit') {
    const served = serveHit(res, body, found.reply, values, { 'rote-node': found.nodeId });
    if (served === undefined) return countHit(context, found, key.value);
    // A stored reply these values cannot fill (it needs one the request did not declare): forwarded.
    return passThrough(req, res, raw, context, { cache: 'miss', reason: served }, { namespace, key: key.value, values });
  }
  // No values declared and not stored as it is: a template learned from the store may read them.
  if (values.size === 0 && context.learn !== false) {
    const learned = await lookupLearned(context.tree, namespace, body, key.value, context.log);
    if (learned.kind === 'hit' && serveHit(res, body, learned.reply, learned.values, { 'rote-template': learned.templateId }) === undefined) return countLearnedHit(context, learned.templateId, learned.reply, key.value);
    if (learned.kind === 'check') return passThrough(req, res, raw, context, { cache: 'miss', reason: 'a learned template reads this request, and is checked against the upstream\'s answer before it serves one' }, { namespace, key: key.value, values, check: learned });
    if (learned.kind === 'none' && learned.reason) return passThrough(req, res, raw, context, { cache: 'miss', reason: learned.reason }, { namespace, key: key.value, values });
  }
  return passThrough(req, res, raw, context, { cache: 'miss', reason: found.reason }, { namespace, key: key.value, values });
}

/** Writes a hit as the client asked (JSON or a stream); undefined once sent, or why these values cannot fill the reply (nothing sent). */
function serveHit(res: ServerResponse, body: Record<string, unknown>, reply: StoredReply, values: DeclaredValues, from: Record<string, string>): string | undefined {
  const served = renderReply(reply, values);
  if (!served.ok) return served.reason;
  const meta = { id: `chatcmpl-rote${randomBytes(12).toString('hex')}`, created: Math.floor(Date.now() / 1000), model: reply.model, finishReason: reply.finishReason };
  if (body.stream === true) {
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'rote-cache': 'hit', ...from });
    for (const chunk of chunksOf(served.value, { ...meta, includeUsage })) res.write(chunk);
    res.end();
    return undefined;
  }
  const message = { role: 'assistant', content: served.value.content, refusal: null, annotations: [], ...(served.value.toolCalls.length > 0 ? { tool_calls: served.value.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) } : {}) };
  const completion = { id: meta.id, object: 'chat.completion', created: meta.created, model: meta.model, choices: [{ index: 0, message, logprobs: null, finish_reason: meta.finishReason }], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, system_fingerprint: null };
  res.writeHead(200, { 'content-type': 'application/json', 'rote-cache': 'hit', ...from });
  res.end(JSON.stringify(completion));
  return undefined;
}

type Keep = {
  namespace: string;
  key: ChatKey;
  values: DeclaredValues;
  /** A learned template that read this request: the upstream's answer confirms or refutes it. */
  check?: { templateId: string; reply: StoredReply; values: DeclaredValues };
};

/** Counted once the client has its answer: a count that fails is logged, and the answer stands. */
async function countHit(context: ChatContext, found: { nodeId: string; reply: StoredReply }, key: ChatKey): Promise<void> {
  await context.tree.served(found.nodeId, found.reply).catch(() => context.log('hit: the store could not count it'));
  context.log(`hit: ${key.levels.length} messages from the tree (node ${found.nodeId}), ${found.reply.usage.promptTokens + found.reply.usage.completionTokens} tokens saved`);
}

async function countLearnedHit(context: ChatContext, templateId: string, reply: StoredReply, key: ChatKey): Promise<void> {
  await context.tree.servedByTemplate(templateId, reply).catch(() => context.log('hit: the store could not count it'));
  context.log(`hit: ${key.levels.length} messages from a learned template (${templateId}), ${reply.usage.promptTokens + reply.usage.completionTokens} tokens saved`);
}

/** Forwards the request unchanged and copies the answer back; a whole, successful answer is kept when `keep` says where. */
async function passThrough(req: IncomingMessage, res: ServerResponse, raw: Buffer, context: ChatContext, said: { cache: 'miss' | 'bypass'; reason: string }, keep?: Keep): Promise<void> {
  const headers = { 'rote-cache': said.cache, 'rote-reason': headerSafe(said.reason) };
  let answer: Forwarded;
  try {
    answer = await forward(context.upstream, req.method ?? 'POST', req.url ?? '/', req.headers, raw);
  } catch (error) {
    if (error instanceof UpstreamUnreachable) return sendUnreachable(res, error, headers);
    throw error;
  }
  const bytes = await relay(res, answer, headers, keep !== undefined);
  // An error is passed through and never kept; so is anything that is not a whole answer.
  if (!keep || !bytes || answer.status !== 200) return;
  const text = bytes.toString('utf8');
  const completion = (answer.headers.get('content-type') ?? '').includes('text/event-stream') ? completionOfStream(text) : parseObject(text);
  if (!completion) return context.log('miss: the answer could not be read, not kept');
  const stored = storableReply(completion, keep.values, keep.key.used);
  if (!stored.ok) return context.log(`miss: not kept, ${stored.reason}`);
  if (keep.check) {
    const agreed = agrees(keep.check.reply, keep.check.values, stored.value);
    await context.tree.judge(keep.check.templateId, agreed).catch(() => context.log('check: the store could not keep the verdict'));
    context.log(agreed ? 'check: the upstream answered as the learned template would have; it serves from now on' : 'check: the upstream answered otherwise than the learned template would have; it is never used');
  }
  // The client has its answer whatever happens here; a store that fails only loses the branch.
  const kept = await context.tree.store(keep.namespace, keep.key, stored.value).catch(() => undefined);
  context.log(kept ? `miss: kept at message ${keep.key.levels.length} (node ${kept}; ${said.reason})` : 'miss: the store could not keep the answer');
  // A conversation with no values declared in it: another one like it may show which parts are values.
  if (kept && keep.key.used.size === 0 && context.learn !== false) await learnFrom(context.tree, keep.namespace, keep.key, kept, context.log);
}
