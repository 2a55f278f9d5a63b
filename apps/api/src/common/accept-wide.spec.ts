import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { countPerTurn, getBody as get, loopTurns } from '../../test/support/loop-turns';
import { acceptWide } from './accept-wide';

// A server whose loop is busy: every connection it takes costs 2 ms of CPU (the streams it serves).
function busyServer(): Server {
  const server = createServer((_req, res) => res.end('served'));
  server.on('connection', () => {
    const until = performance.now() + 2;
    while (performance.now() < until);
  });
  return server;
}

function listen(server: Server): Promise<number> {
  return new Promise((done) => server.listen(0, '127.0.0.1', 511, () => done((server.address() as AddressInfo).port)));
}

// Opens `n` connections at the same moment and resolves with the turn each was taken in, in order.
async function burstOfConnections(server: Server, port: number, n: number): Promise<number[]> {
  const turns = loopTurns();
  const taken: number[] = [];
  const all = new Promise<void>((done) =>
    server.on('connection', () => {
      taken.push(turns.now());
      if (taken.length === n) done();
    }),
  );
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i++) sockets.push(connect(port, '127.0.0.1').on('error', () => undefined));
  await all;
  turns.stop();
  for (const socket of sockets) socket.destroy();
  return taken;
}

function mostInOneTurn(taken: number[]): number {
  return Math.max(...countPerTurn(taken).values());
}

// A log line from acceptWide is a failure here: the helper process must run.
const failOnLog = (message: string) => {
  throw new Error(message);
};

function close(server: Server): Promise<void> {
  return new Promise((done) => server.close(() => done()));
}

describe('acceptWide: a burst of connections is taken in several per turn of the event loop', () => {
  it("Node 20 alone takes one connection per turn: 24 who connect together wait 24 turns of a busy loop", async () => {
    const server = busyServer();
    const port = await listen(server);
    const taken = await burstOfConnections(server, port, 24);
    await close(server);
    expect(mostInOneTurn(taken)).toBe(1);
    expect(new Set(taken).size).toBe(24);
  });

  it('with the listening socket open 8 times, the same burst is taken in a few turns, several per turn', async () => {
    const server = busyServer();
    const port = await listen(server);
    const wide = await acceptWide(server, 8, 511, failOnLog);
    expect(wide.extra).toBe(7);
    const taken = await burstOfConnections(server, port, 24);
    await close(server);
    expect(mostInOneTurn(taken)).toBeGreaterThanOrEqual(4);
    expect(new Set(taken).size).toBeLessThanOrEqual(8);
  });

  it('serves what comes in on every copy as the server itself, and takes no connection once the server is closed', async () => {
    const server = busyServer();
    const port = await listen(server);
    await acceptWide(server, 4, 511, failOnLog);
    const bodies = await Promise.all(Array.from({ length: 30 }, () => get(port)));
    expect(bodies).toEqual(Array.from({ length: 30 }, () => 'served'));
    await close(server);
    // No copy of the socket is left listening: the port refuses, as after any server.close().
    await expect(get(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('changes nothing for one accept per turn, or a server that is not listening', async () => {
    const server = busyServer();
    expect((await acceptWide(server, 8, 511, () => undefined)).extra).toBe(0);
    const port = await listen(server);
    expect((await acceptWide(server, 1, 511, () => undefined)).extra).toBe(0);
    expect(await get(port)).toBe('served');
    await close(server);
  });
});
