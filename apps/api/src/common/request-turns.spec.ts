import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countPerTurn, getBody as get, loopTurns } from '../../test/support/loop-turns';
import { afterBurst, requestsWaiting, takeTurns } from './request-turns';

describe('takeTurns: a burst of requests starts a handful per turn of the event loop', () => {
  let server: Server;
  afterEach(() => new Promise((r) => server.close(r)));
  // A server taking `perTurn` requests a turn (and letting put-off work go `deferredPerTurn` a turn), ten
  // of which came at once (most still wait); a turn counter.
  const burstOfTen = (perTurn: number, deferredPerTurn = perTurn) => {
    const turns = loopTurns();
    server = createServer(() => undefined);
    takeTurns(server, perTurn, deferredPerTurn);
    for (let n = 0; n < 10; n++) server.emit('request', { url: String(n) } as IncomingMessage, {} as ServerResponse);
    return turns;
  };
  // Twenty pieces of work put off during such a burst (each for at most `maxWaitMs`): how many went in each turn.
  const releaseTwenty = async (turns: ReturnType<typeof loopTurns>, maxWaitMs: number) => {
    const released: number[] = [];
    await Promise.all(Array.from({ length: 20 }, () => afterBurst(maxWaitMs)!.promise.then(() => void released.push(turns.now()))));
    turns.stop();
    expect(released).toHaveLength(20);
    return countPerTurn(released);
  };

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

  it('afterBurst: nothing to wait for without a burst; put-off work goes once the burst is let in, in the order it was put off', async () => {
    expect(afterBurst(100)).toBeNull();
    const turns = loopTurns();
    const order: string[] = [];
    server = createServer((req) => void order.push(`in ${req.url}`));
    takeTurns(server, 2);
    for (let n = 0; n < 12; n++) server.emit('request', { url: String(n) } as IncomingMessage, {} as ServerResponse);
    expect(requestsWaiting()).toBe(10);
    // What the first requests started puts off its checks while the rest of the burst waits.
    const put = ['a', 'b'].map((name) => afterBurst(10_000)!.promise.then(() => void order.push(`checks ${name}`)));
    await Promise.all(put);
    turns.stop();
    expect(requestsWaiting()).toBe(0);
    // Every request of the burst was let in before the checks put off during it.
    expect(order).toEqual([...Array.from({ length: 12 }, (_, n) => `in ${n}`), 'checks a', 'checks b']);
  });

  it('afterBurst: put-off work waits no longer than its bound while a burst goes on', async () => {
    const turns = loopTurns();
    // One request a turn, each ~0.1 ms of work: a burst that outlasts the bound.
    server = createServer(() => {
      const until = performance.now() + 0.1;
      while (performance.now() < until);
    });
    takeTurns(server, 1);
    const many = 3000;
    for (let n = 0; n < many; n++) server.emit('request', { url: String(n) } as IncomingMessage, {} as ServerResponse);
    const startedAt = performance.now();
    const put = afterBurst(20);
    expect(put).not.toBeNull();
    await put!.promise;
    const waited = performance.now() - startedAt;
    // Released by its bound, while most of the burst still waits.
    expect(waited).toBeGreaterThanOrEqual(19);
    expect(requestsWaiting()).toBeGreaterThan(0);
    await new Promise<void>((r) => {
      const check = () => (requestsWaiting() === 0 ? r() : setImmediate(check));
      check();
    });
    turns.stop();
  });

  it('afterBurst: lets put-off work go a handful a turn (as many as requests are let in), never all of a burst in one turn', async () => {
    const perTurn = await releaseTwenty(burstOfTen(3), 10_000);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(3);
    expect(perTurn.size).toBeGreaterThanOrEqual(7);
  });

  it('afterBurst: with its own limit, put-off work goes that many a turn while requests start one a turn', async () => {
    const perTurn = await releaseTwenty(burstOfTen(1, 5), 0);
    expect(Math.max(...perTurn.values())).toBe(5);
    expect(perTurn.size).toBeLessThanOrEqual(5);
  });

  it("afterBurst: a deferral's go lets it go at once, and it takes no place in a later turn's handful", async () => {
    const turns = burstOfTen(1);
    const order: string[] = [];
    const first = afterBurst(10_000)!;
    const second = afterBurst(10_000)!;
    void first.promise.then(() => void order.push('first'));
    void second.promise.then(() => void order.push('second'));
    second.go();
    second.go();
    await second.promise;
    expect(order).toEqual(['second']);
    expect(requestsWaiting()).toBeGreaterThan(0);
    await first.promise;
    turns.stop();
    expect(order).toEqual(['second', 'first']);
  });
});
