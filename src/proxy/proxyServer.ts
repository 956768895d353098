import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleChatCompletions } from './chatCompletions.js';
import type { ConversationTree } from './conversationTree.js';
import { handleComputerUse, type ComputerContext } from './computerUse.js';
import { ComputerSessions } from './computerSessions.js';
import { readResponsesBody } from './responsesRequest.js';
import type { ProxyRunLog } from './proxyRuns.js';
import { sendOpenAIError } from './openaiError.js';
import { forward, relay, UpstreamUnreachable } from './upstream.js';
import { sendUnreachable } from './httpParts.js';

/**
 * `rote proxy`'s HTTP server: POST /v1/chat/completions and computer-use turns of POST
 * /v1/responses through the tree, every other request forwarded unchanged. It listens on 127.0.0.1 unless told otherwise.
 */
export type ProxyOptions = {
  upstream: URL;
  tree: ConversationTree;
  port?: number;
  host?: string;
  log?: (line: string) => void;
  /** Learn templates from conversations with no declared values (on unless false). */
  learn?: boolean;
  /** A namespace (sharedNamespace()) every key shares; each key has its own when none is given. */
  sharedNamespace?: string;
  /** Where a computer-use task seen to its end is kept as a run; none when not given. */
  runs?: ProxyRunLog;
};

export type RunningProxy = { url: string; close: () => Promise<void> };

/** The largest body read: a chat request with screenshots is large, not this large. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const context: ComputerContext = { upstream: options.upstream, tree: options.tree, log: options.log ?? (() => undefined), learn: options.learn, sharedNamespace: options.sharedNamespace, sessions: new ComputerSessions(), ...(options.runs ? { runs: options.runs } : {}) };
  const server: Server = createServer((req, res) => {
    handle(req, res, context).catch((error: unknown) => {
      // Only the error's kind: its message may quote the request (a failed query's parameters).
      context.log(`error: the proxy failed to handle a request (${(error as NodeJS.ErrnoException).code ?? (error as Error).name})`);
      if (!res.headersSent) sendOpenAIError(res, 500, { type: 'server_error', message: 'the proxy failed to handle this request' }, { 'x-should-retry': 'true', 'rote-cache': 'bypass' });
      else if (!res.writableEnded) res.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, context: ComputerContext): Promise<void> {
  const raw = await readBody(req);
  if (raw === undefined) return sendOpenAIError(res, 413, { type: 'invalid_request_error', message: `The request body is larger than ${MAX_BODY_BYTES} bytes.` }, { 'rote-cache': 'bypass' });
  const path = new URL(req.url ?? '/', 'http://proxy').pathname;
  if (req.method === 'POST' && /^\/(v1\/)?chat\/completions\/?$/.test(path)) return handleChatCompletions(req, res, raw, context);
  if (req.method === 'POST' && /^\/(v1\/)?responses\/?$/.test(path)) {
    const read = readResponsesBody(raw);
    if (!read.ok) return sendOpenAIError(res, 400, { type: 'invalid_request_error', ...read.error }, { 'rote-cache': 'bypass', 'rote-reason': 'the request was refused before it was looked up' });
    if (read.request.form) return handleComputerUse(req, res, raw, read.request, context);
  }
  // Anything else goes on as it came, answered as the upstream answers.
  try {
    const answer = await forward(context.upstream, req.method ?? 'GET', req.url ?? '/', req.headers, raw);
    await relay(res, answer, { 'rote-cache': 'bypass', 'rote-reason': 'only chat completions and computer-use turns are cached' });
  } catch (error) {
    if (error instanceof UpstreamUnreachable) return sendUnreachable(res, error, { 'rote-cache': 'bypass' });
    throw error;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) return undefined;
    parts.push(part);
  }
  return Buffer.concat(parts);
}
