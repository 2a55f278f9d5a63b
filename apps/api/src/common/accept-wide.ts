import { spawn } from 'node:child_process';
import cluster from 'node:cluster';
import type { Server as HttpServer } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * The helper process (run with `node -e`): it sends every listening handle it is given back to its
 * parent, closes its own copy once sent, and leaves when it has returned them all. It never listens
 * on them itself (a raw handle is not a server), so it never accepts a connection.
 */
const HELPER_SOURCE = `
process.on('disconnect', () => process.exit(0));
let returned = 0;
process.on('message', (message, handle) => {
  if (!handle) return;
  process.send('back', handle, undefined, () => {
    handle.close();
    if (++returned === message.of) process.disconnect();
  });
});
`;

// The helper hands the handles back within milliseconds; past this the server goes on with one.
const HELPER_TIMEOUT_MS = 10_000;

/** What `acceptWide` did: how many more times the listening socket is open (they close with the server). */
export interface WideAccept {
  extra: number;
}

// The fields of node:net's Server that shape the sockets it accepts (set from the server's options).
type SocketOptions = {
  allowHalfOpen: boolean;
  pauseOnConnect: boolean;
  noDelay: boolean;
  keepAlive: boolean;
  keepAliveInitialDelay: number;
  highWaterMark: number;
};

/**
 * Lets a listening server accept up to `count` connections per turn of the event loop instead of one.
 *
 * Since libuv 1.45 (Node 20), a listening socket accepts ONE connection each time the event loop polls
 * (libuv pull request #3696, "don't accept() connections in a loop"). A loop that spends 5 ms a turn on
 * the streams it already serves then takes in a burst of 500 users who connect at the same moment 5 ms
 * apart, 2.5 s for the last one, while they wait in the kernel's accept queue: each one's provider
 * request, and so its first token, waits for it. Node 20 cannot open a second socket on the same port
 * (SO_REUSEPORT came in Node 22.12), so this opens the same listening socket `count - 1` more times:
 * a short-lived helper process is sent its handle and sends it back, and every copy that comes back is
 * a new file descriptor of the same socket. Each is polled on its own, so each accepts one connection
 * per turn, and every connection accepted on a copy is handed to `server` as its own ('connection'),
 * so it is served, counted and closed exactly as one the server accepted. The copies close with the
 * server (`server.close()`), so a graceful stop takes no new connection on them either.
 *
 * Without a burst nothing changes but this: a lone new connection wakes every copy, and all but one
 * find nothing to accept (one cheap failed accept() each). Not in a worker of node:cluster (its
 * connections come from the first process) and not when the helper cannot run: then the server goes
 * on accepting one connection per turn, as Node does by default.
 */
export async function acceptWide(server: HttpServer, count: number, backlog: number, log: (message: string) => void): Promise<WideAccept> {
  const none: WideAccept = { extra: 0 };
  const handle = (server as unknown as { _handle?: unknown })._handle;
  if (count <= 1 || cluster.isWorker || !handle || !server.listening) return none;
  const wanted = count - 1;
  let copies: unknown[];
  try {
    copies = await copiesOf(handle, wanted);
  } catch (error) {
    log(`accepting one connection per turn of the event loop: ${error instanceof Error ? error.message : String(error)}`);
    return none;
  }
  const options = server as unknown as SocketOptions;
  const extras = copies.map((copy) => {
    const extra = new NetServer({
      allowHalfOpen: options.allowHalfOpen,
      pauseOnConnect: options.pauseOnConnect,
      noDelay: options.noDelay,
      keepAlive: options.keepAlive,
      keepAliveInitialDelay: options.keepAliveInitialDelay,
      highWaterMark: options.highWaterMark,
    });
    extra.on('connection', (socket) => server.emit('connection', socket));
    extra.on('error', (error) => log(`an extra handle of the listening socket: ${error.message}`));
    // listen() again on the same socket: the backlog is the server's (listen() would set Node's 511).
    extra.listen(copy as never, backlog);
    return extra;
  });
  // The server stops listening: so do its copies (a socket stays open while any descriptor of it is).
  const closeServer = server.close.bind(server);
  server.close = ((callback?: (error?: Error) => void) => {
    for (const extra of extras) extra.close();
    return closeServer(callback);
  }) as HttpServer['close'];
  return { extra: extras.length };
}

// `wanted` new descriptors of the listening socket `handle`, through the helper process.
function copiesOf(handle: unknown, wanted: number): Promise<unknown[]> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-e', HELPER_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const copies: unknown[] = [];
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!error) return done(copies);
      for (const copy of copies) (copy as { close(): void }).close();
      child.kill();
      fail(error);
    };
    const timer = setTimeout(() => finish(new Error(`the helper process returned ${copies.length} of ${wanted} handles in ${HELPER_TIMEOUT_MS} ms`)), HELPER_TIMEOUT_MS);
    child.on('error', (error) => finish(error));
    child.on('exit', (code, signal) => {
      if (copies.length < wanted) finish(new Error(`the helper process exited (${signal ?? code}) after returning ${copies.length} of ${wanted} handles`));
    });
    child.on('message', (_message, copy) => {
      if (!copy || settled) return;
      copies.push(copy);
      if (copies.length === wanted) finish();
    });
    for (let i = 0; i < wanted; i++) child.send({ of: wanted }, handle as never);
  });
}
