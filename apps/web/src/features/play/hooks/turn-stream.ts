import type { StreamEvent } from '@taleloom/contracts';
import { isApiClientError } from '../../../lib/api-client';
import { followTurn } from '../api/follow-turn';

// Waits between attempts to rejoin a stream that broke: short at first (a blip), longer while it stays down.
const BACKOFF_MS = [300, 600, 1200, 2500, 5000, 8000];

export interface Rejoin {
  storyId: string;
  /** The last event id the page read of the turn, and the turn's id (null: nothing of it yet). */
  from: string | null;
  turnId: string | null;
  /** Each event of the turn, once (a rejoin goes on exactly where the page was). */
  onEvent(event: StreamEvent): void;
  /** The connection broke and is being tried again (true), or is back (false). */
  onReconnecting(reconnecting: boolean): void;
  signal: AbortSignal;
}

/** How a rejoin ended: the turn's `done` or `error` came; the story has no turn to follow (or refused); or it was stopped. */
export type RejoinEnd = 'ended' | 'none' | 'stopped';

/**
 * Follows the story's turn over GET /api/llm/{id}/stream until it ends, whatever happens to the
 * connection: when it breaks (a network error, the browser offline, the tab put to sleep, the server
 * dropping a slow reader), it is tried again with backoff (at once when the browser is back online or
 * the page visible again), from the last event id read, so the text goes on in place with nothing lost
 * or repeated.
 */
export async function rejoinTurn(r: Rejoin): Promise<RejoinEnd> {
  let { from, turnId } = r;
  let failures = 0;
  let down = false;
  for (;;) {
    if (r.signal.aborted) return 'stopped';
    let ended = false;
    let gone = false;
    let read = false;
    // Going offline ends the connection at once (the browser may keep a dead one open for long).
    const connection = new AbortController();
    const drop = () => connection.abort();
    window.addEventListener('offline', drop);
    r.signal.addEventListener('abort', drop);
    try {
      await followTurn(
        r.storyId,
        from,
        turnId,
        (event, id) => {
          // This connection was dropped for reading too slowly: the turn goes on; rejoin.
          if (event.type === 'error' && event.code === 'STREAM_TOO_SLOW') return;
          // The turn was accepted or replaced elsewhere between two reads of it: the caller reads what is there now.
          if (event.type === 'error' && event.code === 'NO_RUNNING_TURN') {
            gone = true;
            return;
          }
          if (down) {
            down = false;
            r.onReconnecting(false);
          }
          read = true;
          if (id !== undefined) from = id;
          if (event.type === 'user') turnId = event.turnId;
          if (event.type === 'done' || event.type === 'error') ended = true;
          r.onEvent(event);
        },
        connection.signal,
      );
    } catch (error) {
      // Refused (no turn any more, not this user's story): nothing to rejoin. Busy or down: try again.
      if (isApiClientError(error) && error.status > 0 && error.status < 500 && error.status !== 429) {
        if (down) r.onReconnecting(false);
        return 'none';
      }
    } finally {
      window.removeEventListener('offline', drop);
      r.signal.removeEventListener('abort', drop);
    }
    if (ended) return 'ended';
    if (gone) {
      if (down) r.onReconnecting(false);
      return 'none';
    }
    if (r.signal.aborted) return 'stopped';
    if (!down) {
      down = true;
      r.onReconnecting(true);
    }
    failures = read ? 0 : failures + 1;
    await pause(BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)], r.signal);
  }
}

// Waits `ms`, or less: until the browser is back online or the page visible again; longer while offline.
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      document.removeEventListener('visibilitychange', visible);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const visible = () => {
      if (document.visibilityState === 'visible') done();
    };
    // Offline: the next try waits for the browser to say it is back (or the longest wait: it may be wrong).
    const timer = setTimeout(done, navigator.onLine === false ? BACKOFF_MS[BACKOFF_MS.length - 1] : ms);
    window.addEventListener('online', done);
    document.addEventListener('visibilitychange', visible);
    signal.addEventListener('abort', done);
  });
}
