import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/**
 * The model service the proxy forwards to. A request goes on as the client sent it (the client's
 * Authorization included, never stored or logged); only the headers that belong to one hop are
 * dropped. An upstream that cannot be reached is an UpstreamUnreachable naming its origin only.
 */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection', 'te', 'trailer']);

export class UpstreamUnreachable extends Error {}

export type Forwarded = { status: number; headers: Headers; body: ReadableStream<Uint8Array> | null };

export async function forward(upstream: URL, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer | undefined, signal?: AbortSignal): Promise<Forwarded> {
  const target = new URL(joinPath(upstream.pathname, path), upstream);
  const sent = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name) || name.startsWith('rote-')) continue;
    for (const one of Array.isArray(value) ? value : [value]) sent.append(name, one);
  }
  try {
    const response = await fetch(target, { method, headers: sent, body: body && body.length > 0 ? new Uint8Array(body) : undefined, redirect: 'manual', ...(signal ? { signal } : {}) });
    return { status: response.status, headers: response.headers, body: response.body };
  } catch (error) {
    if (signal?.aborted) throw error;
    const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
    throw new UpstreamUnreachable(`the upstream ${upstream.origin} could not be reached (${cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message})`);
  }
}

/** The client's path under the upstream's base path: /v1/chat/completions under https://host/openai is /openai/v1/chat/completions, under .../v1 once. */
function joinPath(base: string, path: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (trimmed.endsWith('/v1') && path.startsWith('/v1/')) return trimmed + path.slice(3);
  return trimmed + path;
}

/**
 * Writes the upstream's answer to the client as it arrives, with `extra` headers beside its own;
 * returns its bytes when `keep` asks for them. fetch has already undone the upstream's content
 * encoding, so that header and the length go.
 */
export async function relay(res: ServerResponse, answer: Forwarded, extra: Record<string, string>, keep = false): Promise<Buffer | undefined> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') headers[name] = value;
  });
  res.writeHead(answer.status, { ...headers, ...extra });
  const parts: Buffer[] = [];
  if (answer.body) {
    for await (const part of answer.body as unknown as AsyncIterable<Uint8Array>) {
      const bytes = Buffer.from(part);
      res.write(bytes);
      if (keep) parts.push(bytes);
    }
  }
  res.end();
  return keep ? Buffer.concat(parts) : undefined;
}
