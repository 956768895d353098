import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatContext } from './chatCompletions.js';
import { canonical, describeAction, focusAfter, kindOf, readAction, templateAction, type ComputerAction } from './computerActions.js';
import { askUpstream, skippedNote, upstreamRequest } from './computerUpstream.js';
import { isOwnId, mintId, type ComputerSession, type ComputerSessions, type PendingCall, type UpstreamCall } from './computerSessions.js';
import { cropOf, keep, keyOf, markCompleted, readableAction, stepOf, taskTemplate } from './computerRecording.js';
import { chooseStep, computerNodeOf, toStoredReply, type ComputerNode, type ComputerStep, type LiveScreen } from './computerStep.js';
import { ambiguity, parseDeclaredValues } from './declaredValues.js';
import { templateJsonText } from './jsonTemplates.js';
import type { ProxyRunLog } from './proxyRuns.js';
import { isJsonObject } from '../params/jsonValues.js';
import { namespaceOf } from './namespace.js';
import { sendOpenAIError } from './openaiError.js';
import type { ResponsesRequest } from './responsesRequest.js';
import { computerCall, sendResponse, servedResponse } from './responsesWire.js';
import { cropPng, decodeScreenshot, fieldAt, type Screenshot } from '../checks/screenshotCrop.js';
import { forward, relay, UpstreamUnreachable } from './upstream.js';
import { headerOf, headerSafe, parseObject, sendUnreachable } from './httpParts.js';

/**
 * POST /v1/responses with a computer tool: each turn of an agent that drives a screen. A turn is
 * served from the tree when the task and the actions so far are a stored path, and the screenshot
 * the agent just sent passes the stored step's check (computerStep.ts); otherwise it goes to the
 * upstream (computerUpstream.ts), whose answer is kept as a step at that point. One action per
 * response, for both tools, so every action follows a screenshot of its own. The final message
 * is never served: it may report what is on the page.
 */
type Json = Record<string, unknown>;
export type ComputerContext = ChatContext & { sessions: ComputerSessions; /** Where a task seen to its end is kept as a run (the store's runs); none in memory. */ runs?: ProxyRunLog };
type Said = { cache: 'hit' | 'miss' | 'bypass'; reason?: string; node?: string };

export async function handleComputerUse(req: IncomingMessage, res: ServerResponse, raw: Buffer, request: ResponsesRequest, context: ComputerContext): Promise<void> {
  const arrived = performance.now();
  const refuse = (status: number, message: string, param: string | null, code: string | null) => sendOpenAIError(res, status, { type: 'invalid_request_error', message, param, code }, { 'rote-cache': 'bypass', 'rote-reason': 'the request was refused before it was looked up' });
  const declared = parseDeclaredValues(headerOf(req, 'rote-params'));
  if (!declared.ok) return refuse(400, declared.reason, 'Rote-Params', 'invalid_rote_params');
  const previous = request.previousResponseId;
  // A conversation begun past the proxy (its ids are the upstream's) is the upstream's to go on with.
  if (previous !== undefined && !isOwnId(previous)) return passThrough(req, res, raw, context, 'the previous response is not one the proxy gave');
  const answered = request.answersCall;
  const session = previous !== undefined ? context.sessions.ofResponse(previous) : answered !== undefined ? context.sessions.ofCall(answered) : undefined;
  if (previous !== undefined && !session) return refuse(400, `Previous response with id '${previous}' not found.`, 'previous_response_id', 'previous_response_not_found');
  // The proxy keeps one line of a task: an earlier response of it (a fork), or one of a task that has ended, is not one it can go on from.
  if (previous !== undefined && session && (session.latestResponseId !== previous || !session.pending)) return refuse(400, `Response '${previous}' is not the latest of its computer-use task: the proxy continues a task only from its latest response.`, 'previous_response_id', 'previous_response_not_latest');
  if (session?.pending && answered !== session.pending.callId) return refuse(400, `No tool output found for computer call ${session.pending.callId}.`, 'input', null);
  if (!session && answered !== undefined) {
    const known = context.sessions.ofAnyCall(answered);
    // The whole conversation sent again after the task's final message (a next prompt): it goes on upstream, from that message.
    if (known?.final) return continueAfterFinal(req, res, request, context, known.final, refuse);
    if (known) return refuse(400, `Computer call ${answered} is not the latest of its computer-use task: the proxy continues a task only from its latest call.`, 'input', 'previous_response_not_latest');
    // An output for a call the proxy does not know (another proxy's, or before a restart) never starts a task of its own.
    return passThrough(req, res, raw, context, 'the computer call it answers is not one the proxy gave');
  }
  if (session?.pending && !session.pending.upstream && request.acknowledged.length > 0) {
    return refuse(400, `The request acknowledges a safety check for computer call ${session.pending.callId}, which asked for none: the proxy served it from its cache, and a safety check is never served.`, 'input', 'unknown_safety_check');
  }
  if (session?.busy) return refuse(409, `Another request answering computer call ${session.pending?.callId ?? ''} is being answered: send one request per call.`, 'input', 'conflict');
  const namespace = namespaceOf(req, context.sharedNamespace);
  const bypass = ambiguity(declared.value) ?? (namespace === undefined ? 'the request carries no API key: it has no tree of its own' : undefined) ?? (typeof request.body.temperature === 'number' && request.body.temperature > 1 ? `temperature is ${request.body.temperature}: the request asks for varied answers` : undefined);
  if (bypass && !session) return passThrough(req, res, raw, context, bypass);
  const started = session ? { ok: true as const, value: session } : startSession(request, namespace!, declared.value);
  if (!started.ok) return passThrough(req, res, raw, context, started.reason);
  const live = started.value;
  live.busy = true;
  try {
    await answerTurn(req, res, context, request, live, arrived, bypass);
  } finally {
    live.busy = false;
  }
}

/** One turn of a session the request was matched to: the rest of an upstream batch, a step from the tree, or the upstream's answer. */
async function answerTurn(req: IncomingMessage, res: ServerResponse, context: ComputerContext, request: ResponsesRequest, live: ComputerSession, arrived: number, bypass: string | undefined): Promise<void> {
  const body = request.body;
  const screen = request.screenshot ? await decodeScreenshot(request.screenshot.dataUrl) : undefined;
  const acknowledged = acknowledgedChecks(live.pending, request.acknowledged);
  const held = live.pending?.upstream;
  if (held) for (const check of acknowledged) if (!held.acknowledged.includes(check)) held.acknowledged.push(check);
  // New input beside the screenshot (a user's message): the cache knows nothing of it, the upstream
  // must read it, and nothing of the task after it is served or kept.
  const beside = request.extra.length > 0 ? 'the request carries new input beside the screenshot' : undefined;
  if (beside) live.offPath = true;
  // Typed values' masks belong to the page they were typed on.
  const url = request.screenshot?.currentUrl;
  if (url !== undefined && live.url !== undefined && url !== live.url) live.masks = [];
  if (url !== undefined) live.url = url;
  // The rest of the upstream's batch, one action at a time: not the cache's, the model's own answer.
  if (held && held.rest.length > 0 && !beside) {
    const [action, ...rest] = held.rest;
    // Every action of a batch that came with a safety check carries it: none of them is ever served.
    const step = await stepOf(live, action!, screen, request.screenshot?.currentUrl, held.checks.length);
    await keep(context, live, step);
    return handOut(res, body, context, live, action!, { ...held, rest }, [], { cache: 'miss', reason: "the rest of the upstream's batch, one action at a time" }, screen, { arrived, crop: cropOf(step) });
  }
  // Input beside the screenshot in the middle of a batch: the rest is not done, and the model is told so.
  const extra = held && held.rest.length > 0 ? [skippedNote(held), ...request.extra] : request.extra;
  if (held && held.rest.length > 0) held.rest = [];
  const here: LiveScreen = { ...(screen ? { screen } : {}), ...(request.screenshot?.currentUrl !== undefined ? { url: request.screenshot.currentUrl } : {}), ...(live.focus ? { focus: live.focus } : {}), masks: live.masks };
  const passed = bypass ?? beside ?? (live.offPath ? 'the task took input the cache knows nothing of: nothing after it is served' : undefined);
  const found = passed ? { kind: 'miss' as const, reason: passed } : await lookup(context, live, here);
  if (found.kind === 'serve') {
    await context.tree.served(found.nodeId, toStoredReply(found.node)).catch(() => context.log('hit: the store could not count it'));
    context.log(`hit: computer step ${live.levels.length} from the tree (node ${found.nodeId})`);
    const crop = screen && found.step.crop ? await cropPng(screen, found.step.crop.box, [...found.step.masks, ...live.masks]) : undefined;
    return handOut(res, body, context, live, found.action, undefined, [], { cache: 'hit', node: found.nodeId }, screen, { arrived, crop }, found.node.model);
  }
  return forwardTurn(req, res, context, request, live, screen, found.reason, arrived, extra);
}

/**
 * A conversation sent whole again after its computer-use task ended (the agent's next prompt): the
 * upstream's final response is where it goes on, with the items after that response's own, under
 * the upstream's ids. Nothing of it is the cache's.
 */
async function continueAfterFinal(req: IncomingMessage, res: ServerResponse, request: ResponsesRequest, context: ComputerContext, final: { responseId: string; itemIds: string[] }, refuse: (status: number, message: string, param: string | null, code: string | null) => void): Promise<void> {
  const last = request.input.map((item) => (typeof item.id === 'string' && final.itemIds.includes(item.id) ? 1 : 0)).lastIndexOf(1);
  if (last === -1) return refuse(400, 'The conversation goes on after its computer-use task ended, but without the final message the proxy passed on: send it with the rest, or use previous_response_id.', 'input', null);
  const body = { ...request.body, previous_response_id: final.responseId, input: request.input.slice(last + 1) };
  return passThrough(req, res, Buffer.from(JSON.stringify(body)), context, 'the conversation goes on after its computer-use task ended');
}

function startSession(request: ResponsesRequest, namespace: string, values: ComputerSession['values']): { ok: true; value: ComputerSession } | { ok: false; reason: string } {
  // The task: the messages before the first item that is not one (a client sends them first).
  const firstOther = request.input.findIndex((item) => !('role' in item) || (item.type !== undefined && item.type !== 'message'));
  const taskItems = request.input.slice(0, firstOther === -1 ? undefined : firstOther).filter((item) => item.role !== 'assistant');
  // A screenshot sent with the task is this run's, checked as the first step's screenshot: not part of the key, and never stored.
  // Templated leaf by leaf, so the level stays JSON (a file export reads it back) whatever the values hold.
  const task = templateJsonText(canonical({ instructions: request.body.instructions ?? null, items: taskItems.map(withoutImages) }), values);
  if (!task.ok) return { ok: false, reason: task.reason };
  const shape = createHash('sha256')
    .update(canonical({ computerUse: 1, model: request.body.model, form: request.form, display: request.display ?? null, environment: toolOf(request)?.environment ?? null }))
    .digest('hex');
  return { ok: true, value: { namespace, shape, form: request.form!, values, taskItems, levels: [task.value.text], done: [], masks: [], startedAt: Date.now(), turns: [], upstreamCalls: 0, tokens: { input: 0, output: 0 } } };
}

function toolOf(request: ResponsesRequest): Json | undefined {
  return ((request.body.tools as unknown[] | undefined) ?? []).filter(isJsonObject).find((tool) => tool.type === 'computer_use_preview' || tool.type === 'computer');
}

type Found = { kind: 'serve'; nodeId: string; node: ComputerNode; step: ComputerStep; action: ComputerAction } | { kind: 'miss'; reason: string };

async function lookup(context: ComputerContext, session: ComputerSession, live: LiveScreen): Promise<Found> {
  const found = await context.tree.lookup(session.namespace, keyOf(session));
  if (found.kind === 'miss') return { kind: 'miss', reason: found.depth === 0 ? 'no task like this one is stored' : `the step after action ${found.depth - 1} is new here` };
  const node = computerNodeOf(found.reply);
  if (!node) return { kind: 'miss', reason: 'what is stored here is not a computer step' };
  const choice = await chooseStep(node, live, session.values);
  return choice.kind === 'serve' ? { kind: 'serve', nodeId: found.nodeId, node, step: choice.step, action: choice.action } : choice;
}





/**
 * Gives the client one computer call, under ids of the proxy's own, and moves the session past it:
 * the action is a level of the tree from now on, a pointed one is where later keys go, and a
 * typed one's field shows a value from now on (masked in later checks).
 */
function handOut(res: ServerResponse, body: Json, context: ComputerContext, session: ComputerSession, action: ComputerAction, upstream: UpstreamCall | undefined, checks: Json[], said: Said, screen: Screenshot | undefined, turn: { arrived: number; crop: Buffer | undefined }, model?: string, extra: Json[] = []): void {
  const templated = templateAction(action, session.values);
  session.turns.push({ kind: said.cache === 'hit' ? 'cached' : 'agent', action: templated.ok ? readableAction(templated.value.template) : { type: action.type }, intent: describeAction(templated.ok ? readableAction(templated.value.template) : action), ...(said.reason ? { reason: said.reason } : {}), ...(turn.crop ? { crop: turn.crop } : {}), durationMs: performance.now() - turn.arrived });
  const kind = kindOf(action);
  if (kind === 'keyed' && action.type === 'type' && screen && session.focus) {
    const field = fieldAt(screen, session.focus);
    if (field) session.masks.push(field);
  }
  session.focus = focusAfter(action, session.focus);
  session.levels = [...session.levels, templated.ok ? templated.value.level : canonical(action)];
  session.done = [...session.done, describeAction(action)];
  const pending: PendingCall = { callId: mintId('call'), checkIds: checks.map((check) => String(check.id)), ...(upstream ? { upstream } : {}) };
  session.pending = pending;
  const id = mintId('resp');
  session.latestResponseId = id;
  const output = [...extra, computerCall(session.form, { id: mintId('cu'), callId: pending.callId, action, checks })];
  context.sessions.remember(id, session);
  sendResponse(res, body, servedResponse(body, { id, model: model ?? String(body.model), output }), headersOf(said));
}

/** The upstream's checks the client acknowledged, from the ids it saw. */
function acknowledgedChecks(pending: PendingCall | undefined, acknowledged: readonly string[]): Json[] {
  const checks = pending?.upstream?.checks ?? [];
  return checks.filter((check) => acknowledged.includes(check.ours)).map((check) => check.theirs);
}

async function forwardTurn(req: IncomingMessage, res: ServerResponse, context: ComputerContext, request: ResponsesRequest, session: ComputerSession, screen: Screenshot | undefined, reason: string, arrived: number, extra: Json[]): Promise<void> {
  const ask = upstreamRequest(request.body, session, request.screenshot, extra, request.rawOutput);
  const said: Said = { cache: 'miss', reason };
  let answer;
  try {
    answer = await askUpstream(context.upstream, new URL(req.url ?? '/v1/responses', 'http://proxy').pathname, req.headers, ask);
  } catch (error) {
    if (error instanceof UpstreamUnreachable) return sendUnreachable(res, error, headersOf(said));
    throw error;
  }
  if (answer.status !== 200) {
    // Passed on as it came, and nothing of it kept; the session still waits for the same call.
    await relay(res, answer, headersOf(said));
    return;
  }
  const text = Buffer.from(await new Response(answer.body).arrayBuffer()).toString('utf8');
  const response = parseObject(text);
  const output = Array.isArray(response?.output) ? (response.output as Json[]) : undefined;
  if (!response || !output || typeof response.id !== 'string') return sendOpenAIError(res, 502, { type: 'upstream_error', message: 'the upstream answered with a body that is not a response', code: 'upstream_bad_response' }, headersOf(said));
  context.log(`miss: computer step ${session.levels.length} forwarded (${ask.continued ? 'the upstream conversation goes on' : 'a new upstream conversation'}; ${reason})`);
  const calls = output.filter((item) => item.type === 'computer_call');
  const others = output.filter((item) => item.type !== 'computer_call' && item.type !== 'reasoning' && item.type !== 'message');
  // What the model said beside its call (its reasoning, a message): passed on under the proxy's ids.
  const reasoning = output.filter((item) => item.type === 'reasoning' || item.type === 'message').map((item) => ({ ...item, id: mintId(item.type === 'message' ? 'msg' : 'rs') }));
  const model = typeof response.model === 'string' ? response.model : String(request.body.model);
  const usage = usageOf(response.usage);
  session.upstreamCalls++;
  session.tokens.input += usage.promptTokens;
  session.tokens.output += usage.completionTokens;
  if (calls.length === 1 && others.length === 0) {
    const call = calls[0]!;
    const actions = (Array.isArray(call.actions) ? call.actions : [call.action]).map(readAction);
    const checks = (Array.isArray(call.pending_safety_checks) ? (call.pending_safety_checks as Json[]) : []).map((theirs) => ({ ours: mintId('cu_sc'), theirs }));
    if (actions.length > 0 && actions.every((action) => action.ok)) {
      const [first, ...rest] = actions.map((action) => (action as { ok: true; value: ComputerAction }).value);
      const step = await stepOf(session, first!, screen, request.screenshot?.currentUrl, checks.length);
      await keep(context, session, step, model, usage);
      const upstream: UpstreamCall = { responseId: response.id, callId: String(call.call_id), checks, acknowledged: [], rest, size: actions.length, chained: request.body.store !== false };
      return handOut(res, request.body, context, session, first!, upstream, checks.map((check) => ({ ...check.theirs, id: check.ours })), said, screen, { arrived, crop: cropOf(step) }, model, reasoning);
    }
  }
  // A final message (never kept: it may report what the page showed), or an answer the proxy does
  // not key (several calls, a function call): the session ends, and the client gets the upstream's
  // response under the upstream's own ids, so whatever it sends next goes on with the upstream.
  session.pending = undefined;
  session.final = { responseId: response.id, itemIds: output.flatMap((item) => (typeof item.id === 'string' ? [item.id] : [])) };
  sendResponse(res, request.body, { ...response, previous_response_id: request.body.previous_response_id ?? null }, headersOf(said));
  if (calls.length === 0 && others.length === 0) {
    await markCompleted(context, session);
    await context.runs?.record({ task: `rote proxy: ${taskTemplate(session)}`, startedAt: session.startedAt, turns: session.turns, upstreamCalls: session.upstreamCalls, inputTokens: session.tokens.input, outputTokens: session.tokens.output }).catch(() => context.log('final: the store could not keep the run'));
  }
}

async function passThrough(req: IncomingMessage, res: ServerResponse, raw: Buffer, context: ComputerContext, reason: string): Promise<void> {
  const said: Said = { cache: 'bypass', reason };
  try {
    const answer = await forward(context.upstream, req.method ?? 'POST', req.url ?? '/', req.headers, raw);
    await relay(res, answer, headersOf(said));
  } catch (error) {
    if (error instanceof UpstreamUnreachable) return sendUnreachable(res, error, headersOf(said));
    throw error;
  }
}

function headersOf(said: Said): Record<string, string> {
  return { 'rote-cache': said.cache, ...(said.reason ? { 'rote-reason': headerSafe(said.reason) } : {}), ...(said.node ? { 'rote-node': said.node } : {}) };
}

function usageOf(usage: unknown): { promptTokens: number; completionTokens: number } {
  const read = (usage ?? {}) as { input_tokens?: unknown; output_tokens?: unknown };
  return { promptTokens: typeof read.input_tokens === 'number' ? read.input_tokens : 0, completionTokens: typeof read.output_tokens === 'number' ? read.output_tokens : 0 };
}

/** A message with its images as bare parts (`{"type":"input_image"}`): the key holds no screenshot. */
function withoutImages(item: Json): Json {
  if (!Array.isArray(item.content)) return item;
  return { ...item, content: (item.content as unknown[]).map((part) => (typeof part === 'object' && part !== null && (part as Json).type === 'input_image' ? { type: 'input_image' } : part)) };
}
