import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

// Requests waiting to be let in, over every server that takes turns: a burst is being admitted.
let waitingNow = 0;
// Work put off until the burst is let in (see afterBurst), in the order it was put off.
let deferred: { due: number; go: () => void; gone: boolean }[] = [];

/** How many requests wait to be let in now (0: no burst is being admitted). */
export function requestsWaiting(): number {
  return waitingNow;
}

/** Work put off by afterBurst: `promise` resolves when it may go; `go` lets it go now (once is enough). */
export interface Deferral {
  readonly promise: Promise<void>;
  go(): void;
}

/**
 * Puts work off until no request waits to be let in, or `maxWaitMs` at most, or its `go` (null: no
 * request waits now, nothing to wait for). What a send can do later without delaying its first token
 * (the checks of a send whose provider request started early, which its relay waits for only once the
 * provider answers) then no longer comes ahead of the provider requests of the rest of the burst.
 */
export function afterBurst(maxWaitMs: number): Deferral | null {
  if (waitingNow === 0) return null;
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  const entry = {
    due: performance.now() + maxWaitMs,
    gone: false,
    go: () => {
      if (entry.gone) return;
      entry.gone = true;
      resolve();
    },
  };
  deferred.push(entry);
  return { promise, go: entry.go };
}

// How many of the put-off pieces of work may go in one turn (the limit of the last server to take turns).
let releasePerTurn: () => number = () => 8;
let pumping = false;

// Lets put-off work go, in the order it was put off, at most `releasePerTurn` a turn: all of it once
// nothing waits, else what has waited its longest. Let go all at once, the checks of a whole burst (a
// millisecond of work each) would make one long turn that every open stream's chunks wait behind.
function releaseDeferred(): void {
  const most = Math.max(1, releasePerTurn());
  const now = performance.now();
  let n = 0;
  let released = 0;
  for (; n < deferred.length; n++) {
    const d = deferred[n];
    // What its own `go` let go already takes no place in this turn's handful.
    if (d.gone) continue;
    if (released === most || (waitingNow > 0 && d.due > now)) break;
    d.go();
    released++;
  }
  if (n > 0) deferred = deferred.slice(n);
  // No burst waits any more (the turns of takeTurns stop): the rest goes in turns of its own.
  if (waitingNow === 0 && deferred.length > 0 && !pumping) {
    pumping = true;
    setImmediate(() => {
      pumping = false;
      releaseDeferred();
    });
  }
}

/**
 * New requests start at most `perTurn` (a number, or asked each turn) at a time per turn of the event
 * loop; the others wait, in the order they came, for the next turns. The work they put off (afterBurst)
 * goes at most `deferredPerTurn` a turn (by default as many as requests start). A burst (hundreds of users
 * opening streams together) would otherwise run every request's first part (parsing, auth, validation,
 * its first reads) in one go before anything else is looked at: the answers to the first requests'
 * reads, and the chunks of the streams already open, would all wait behind the whole burst. Between two
 * handfuls of new requests, what has come in for those already started is handled. Without a burst
 * nothing waits. Answers a function that gives the server its listener back.
 */
export function takeTurns(server: Server, perTurn: number | (() => number), deferredPerTurn: number | (() => number) = perTurn): () => void {
  const limit = typeof perTurn === 'number' ? () => perTurn : perTurn;
  releasePerTurn = typeof deferredPerTurn === 'number' ? () => deferredPerTurn : deferredPerTurn;
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
