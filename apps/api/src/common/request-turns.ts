import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/**
 * New requests start at most `perTurn` (a number, or asked each turn) at a time per turn of the event
 * loop; the others wait, in the order they came, for the next turns. A burst (hundreds of users
 * opening streams together) would otherwise run every request's first part (parsing, auth, validation,
 * its first reads) in one go before anything else is looked at: the answers to the first requests'
 * reads, and the chunks of the streams already open, would all wait behind the whole burst. Between two
 * handfuls of new requests, what has come in for those already started is handled. Without a burst
 * nothing waits. Answers a function that gives the server its listener back.
 */
// Requests waiting to be let in, over every server that takes turns: a burst is being admitted.
let waitingNow = 0;
// Work put off until the burst is let in (see afterBurst), in the order it was put off.
let deferred: { due: number; resolve: () => void }[] = [];

/** How many requests wait to be let in now (0: no burst is being admitted). */
export function requestsWaiting(): number {
  return waitingNow;
}

/**
 * Resolves once no request waits to be let in, or after `maxWaitMs` at most (null: no request waits
 * now, nothing to wait for). What a send can do later without delaying its first token (the checks of
 * a send whose provider request started early, which the relay waits for only once the provider has
 * answered) then no longer comes ahead of the provider requests of the rest of the burst.
 */
export function afterBurst(maxWaitMs: number): Promise<void> | null {
  if (waitingNow === 0) return null;
  return new Promise<void>((resolve) => deferred.push({ due: performance.now() + maxWaitMs, resolve }));
}

// Lets the deferred work go: all of it once nothing waits, else what has waited its longest.
function releaseDeferred(): void {
  if (deferred.length === 0) return;
  if (waitingNow === 0) {
    const all = deferred;
    deferred = [];
    for (const d of all) d.resolve();
    return;
  }
  const now = performance.now();
  let n = 0;
  while (n < deferred.length && deferred[n].due <= now) deferred[n++].resolve();
  if (n > 0) deferred = deferred.slice(n);
}

export function takeTurns(server: Server, perTurn: number | (() => number)): () => void {
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
      waitingNow--;
      started++;
      handle(req, res);
    }
    releaseDeferred();
    if (head < waiting.length) {
      setImmediate(turn);
      return;
    }
    waiting = [];
    head = 0;
    turnScheduled = false;
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
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
    waitingNow++;
  };
  server.on('request', onRequest);
  // Back to the listener as it was (a test's server); requests still waiting are let in by their turns.
  return () => {
    server.off('request', onRequest);
    server.on('request', handle);
  };
}
