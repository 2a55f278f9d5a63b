import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countPerTurn, getBody as get, loopTurns } from '../../test/support/loop-turns';
import { takeTurns } from './request-turns';

describe('takeTurns: a burst of requests starts a handful per turn of the event loop', () => {
  let server: Server;
  afterEach(() => new Promise((r) => server.close(r)));

  it('starts at most perTurn of a burst in one turn, the rest in later turns in the order they came, with I/O handled in between', async () => {
    const started: { n: number; turn: number }[] = [];
    const turns = loopTurns();
    let pending = 20;
    let finished!: () => void;
    const all = new Promise<void>((r) => (finished = r));
    server = createServer((req) => {
      started.push({ n: Number(req.url), turn: turns.now() });
      if (--pending === 0) finished();
    });
    takeTurns(server, 3);
    // Twenty requests in the same turn (what a poll of the sockets hands over in a burst).
    for (let n = 0; n < 20; n++) server.emit('request', { url: String(n) } as IncomingMessage, {} as ServerResponse);
    // Three started at once, none more in this turn.
    expect(started.map((s) => s.n)).toEqual([0, 1, 2]);
    // Something else waiting for the loop (queued after the burst) runs before the burst is through.
    const between = new Promise<number>((r) => setImmediate(() => r(started.length)));
    await all;
    turns.stop();
    expect(started.map((s) => s.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    const perTurn = countPerTurn(started.map((s) => s.turn));
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(3);
    expect(perTurn.size).toBeGreaterThanOrEqual(7);
    expect(await between).toBeLessThan(20);
  });

  it('asks a perTurn function each turn: a burst goes 8 a turn, then one a turn once streams relay', async () => {
    const started: number[] = [];
    const turns = loopTurns();
    let relaying = 0;
    let pending = 30;
    let finished!: () => void;
    const all = new Promise<void>((r) => (finished = r));
    server = createServer(() => {
      started.push(turns.now());
      if (--pending === 0) finished();
    });
    takeTurns(server, () => (relaying > 0 ? 1 : 8));
    for (let n = 0; n < 30; n++) server.emit('request', { url: String(n) } as IncomingMessage, {} as ServerResponse);
    expect(started).toHaveLength(8);
    // A stream starts relaying chunks: the rest of the burst comes in one a turn.
    relaying = 1;
    await all;
    turns.stop();
    const perTurn = countPerTurn(started.slice(8));
    expect(Math.max(...perTurn.values())).toBe(1);
    expect(perTurn.size).toBe(22);
  });

  it('answers requests over real connections, a lone one at once, and refuses a server with other request listeners', async () => {
    server = createServer((req, res) => res.end(req.url));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    takeTurns(server, 1);
    const { port } = server.address() as AddressInfo;
    expect(await get(port, '/one')).toBe('/one');
    const paths = Array.from({ length: 10 }, (_, i) => `/r${i}`);
    expect(await Promise.all(paths.map((p) => get(port, p)))).toEqual(paths);
    const other = createServer(() => undefined);
    other.on('request', () => undefined);
    expect(() => takeTurns(other, 8)).toThrow(/2 request listeners/);
  });
});
