import { createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on now: for a process the test starts on a port of its own. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
