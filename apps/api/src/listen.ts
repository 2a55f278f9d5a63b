import type { INestApplication } from '@nestjs/common';
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';

// An accept queue longer than Node's 511: users who open streams together (a class, a post going
// viral) connect at once, and the connections past it would be dropped and retried a second later
// (the kernel caps it at net.core.somaxconn).
const LISTEN_BACKLOG = 4096;
// Listening sockets on the API's port (SO_REUSEPORT; Node.js 22.12 and later).
export const LISTENERS = 16;

/** Whether this Node.js listens with SO_REUSEPORT (`reusePort`: 22.12 and later, 23.1 and later). */
export function hasReusePort(version = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/**
 * Listens on PORT with LISTENERS sockets where Node.js can (SO_REUSEPORT; the kernel spreads new
 * connections over them), each handing its connections to the app's one HTTP server. libuv takes in
 * one connection per socket per turn of the event loop, and a loop busy with running streams turns
 * a few dozen times a second: 500 users connecting at once waited seconds in the kernel's queue with
 * one socket. Kept because measured (docs/performance.md, bench:burst on Node.js 24, same rounds): a
 * burst's median first token 1.1 s earlier at 100 at once (764 against 1840 ms added) and 4.1 s earlier at
 * 500 (2376 against 6460 ms), for a per-chunk p99 of running streams 100 to 175 ms worse. A worker of
 * several (API_WORKERS) listens as node:cluster has it: the first process takes connections in, on a
 * loop that does nothing else.
 * Answers the port (PORT=0: the one the system chose) and how to stop the other sockets (before the
 * app closes: no connection is taken in past the start of a stop).
 */
export async function listenWide(app: INestApplication, port: number, host: string): Promise<{ port: number; stopMore(): void }> {
  const wide = hasReusePort() && !cluster.isWorker;
  // Nest hands its argument to server.listen, which takes an options object.
  const listen = app.listen.bind(app) as unknown as (options: object) => Promise<unknown>;
  await listen({ port, host, backlog: LISTEN_BACKLOG, ...(wide ? { reusePort: true } : {}) });
  const server = app.getHttpServer() as Server;
  const bound = (server.address() as AddressInfo).port;
  const more: NetServer[] = [];
  const stopMore = () => {
    for (const socket of more.splice(0)) socket.close();
  };
  if (!wide) return { port: bound, stopMore };
  for (let i = 1; i < LISTENERS; i++) {
    const socket = createServer((connection) => server.emit('connection', connection));
    await new Promise<void>((listening, failed) => {
      socket.once('error', failed);
      socket.listen({ port: bound, host, backlog: LISTEN_BACKLOG, reusePort: true }, () => listening());
    });
    more.push(socket);
  }
  server.once('close', stopMore);
  return { port: bound, stopMore };
}
