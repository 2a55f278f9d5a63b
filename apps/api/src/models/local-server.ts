import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OpenAI-compatible server the API runs for itself on 127.0.0.1 (the offline demos). */
export interface LocalServer {
  /** Base URL, e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  close(): Promise<void>;
}

/** Serves `handle` on a free loopback port; a handler that throws ends its connection. */
export async function startLocalServer(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<LocalServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
