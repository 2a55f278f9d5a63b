import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/**
 * New requests start at most `perTurn` (a number, or asked each turn) at a time per turn of the event
 * loop; the others wait, in the order they came, for the next turns. A burst (hundreds of users
 * opening streams together) would otherwise run every request's first part (parsing, auth, validation,
 * its first reads) in one go before anything else is looked at: the answers to the first requests'
 * reads, and the chunks of the streams already open, would all wait behind the whole burst. Between two
 * handfuls of new requests, what has come in for those already started is handled. Without a burst
 * nothing waits.
 */
export function takeTurns(server: Server, perTurn: number | (() => number)): void {
  const limit = typeof perTurn === 'number' ? () => perTurn : perTurn;
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`takeTurns: the server has ${listeners.length} request listeners, expected 1`);
  const [handle] = listeners;
  server.removeAllListeners('request');
  let started = 0;
  let turnScheduled = false;
  let waiting: [IncomingMessage, ServerResponse][] = [];
  let head = 0;
  const turn = () => {
    started = 0;
    const most = limit();
    while (head < waiting.length && started < most) {
      const [req, res] = waiting[head];
      waiting[head++] = undefined as unknown as [IncomingMessage, ServerResponse];
      started++;
      handle(req, res);
    }
    if (head < waiting.length) {
      setImmediate(turn);
      return;
    }
    waiting = [];
    head = 0;
    turnScheduled = false;
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(turn);
    }
    if (started < limit() && head === waiting.length) {
      started++;
      handle(req, res);
      return;
    }
    waiting.push([req, res]);
  });
}
