// For tests of what happens per turn of the event loop (request-turns, accept-wide).
import { request } from 'node:http';

/** A ticker that counts turns of the event loop (one setImmediate after another). */
export function loopTurns(): { now: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => (running = false) };
}

/** How many of `turns` (the turn each thing happened in) fell in each turn. */
export function countPerTurn(turns: readonly number[]): Map<number, number> {
  const perTurn = new Map<number, number>();
  for (const turn of turns) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
  return perTurn;
}

/** GET http://127.0.0.1:`port``path` on a connection of its own; resolves with the body. */
export function getBody(port: number, path = '/'): Promise<string> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => done(body));
    });
    req.on('error', fail);
    req.end();
  });
}
