import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tiny site on 127.0.0.1: its pages by path, and every request it got. Two sites are two origins. */
export type Site = { origin: string; hits: string[]; close(): Promise<void> };

export async function startSite(pages: (origin: string, other: () => string) => Record<string, string>, other: () => string = () => ''): Promise<Site> {
  const hits: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const body = pages(origin, other)[req.url?.split('?')[0] ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
