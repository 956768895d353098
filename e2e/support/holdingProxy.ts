import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy on 127.0.0.1 in front of an app, that can hold one chosen form post without
 * passing it on: the post's run is then under way, past every step but its last, for as long as
 * the test likes. The app only ever sees a held post if the proxy lets it go, so a process killed
 * while its post is held has not submitted anything: a kill lands mid-run, with no race.
 */
export type HoldingProxy = {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Holds the first post whose body `matches`; resolves when it arrives. */
  holdNext(matches: (body: string) => boolean): Promise<void>;
  close(): Promise<void>;
};

export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const upstream = new URL(target);
  let hold: { matches: (body: string) => boolean; arrived: () => void } | undefined;
  const held = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && hold?.matches(body.toString('utf8'))) {
        hold.arrived();
        hold = undefined;
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forwarded.on('error', () => res.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    holdNext: (matches) => new Promise<void>((arrived) => (hold = { matches, arrived })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
