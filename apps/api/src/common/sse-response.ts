import { ErrorCode, type Language, type StreamEvent } from '@taleloom/contracts';
import type { Response } from 'express';
import { errorMessage } from './error-messages';

// A comment line now and then keeps proxies from closing a quiet stream (a slow model, a fold).
const KEEPALIVE_MS = 15_000;
// What may wait in this process for a client that reads too slowly; past it, the connection is
// dropped with STREAM_TOO_SLOW (the client rejoins from its last event id) instead of growing memory.
export const SLOW_READER_BYTES = 256 * 1024;

/** Something that emits stream events until `done` or `error` (a generation, a task request); a turn's events come with their id. */
export interface EventSource {
  subscribe(listener: (event: StreamEvent, id?: string) => void): () => void;
}

/**
 * Answers `text/event-stream` and relays the source's events, one JSON object per `data:` line (after
 * an `id:` line when the event has one), until `done` or `error`. When the client goes away only the
 * relaying stops: the source runs on. A client that reads too slowly gets STREAM_TOO_SLOW (in
 * `language`) and the end of the answer.
 */
export function relayEvents(res: Response, source: EventSource, language: Language = 'en'): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  let unsubscribe: (() => void) | undefined;
  let closed = false;
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
  const stop = () => {
    closed = true;
    clearInterval(keepalive);
    unsubscribe?.();
  };
  res.on('close', stop);
  // On the next turn of the event loop: the source's own I/O started in this one (a generation's
  // provider request) goes out before these writes. Its first events wait for the subscription.
  setImmediate(() => {
    if (closed) return;
    res.socket?.setNoDelay(true);
    // The events of one go (a provider's read that held several chunks, a turn's usage and done, the
    // events sent before the subscription) are written together once it is over: one write, not one
    // each. The last one ends the answer in the same write.
    let frames = '';
    let last = false;
    const write = () => {
      const pending = frames;
      frames = '';
      if (res.destroyed || res.writableEnded) return;
      // A write that throws ends the answer, not the process (it runs in a promise's callback).
      try {
        if (last) res.end(pending);
        else writeChunk(res, pending);
      } catch {
        res.destroy();
      }
    };
    unsubscribe = source.subscribe((event: StreamEvent, id?: string) => {
      if (last) return;
      if (!frames) void Promise.resolve().then(write);
      if (res.writableLength + (res.socket?.writableLength ?? 0) + frames.length > SLOW_READER_BYTES) {
        event = { type: 'error', code: ErrorCode.STREAM_TOO_SLOW, message: errorMessage(ErrorCode.STREAM_TOO_SLOW, language) };
        id = undefined;
      }
      frames += id === undefined ? `data: ${JSON.stringify(event)}\n\n` : `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;
      if (event.type === 'done' || event.type === 'error') {
        last = true;
        stop();
      }
    });
    // The headers go with the first events (one write); with none yet, on their own, so the client
    // knows at once that its stream is open.
    if (!frames && !closed) res.flushHeaders();
  });
}

type Outgoing = Response & { chunkedEncoding?: boolean; outputData?: unknown[] };

/**
 * Events, written to the socket as one HTTP/1.1 chunk (size, data, CRLF in one
 * write), not through `res.write`, which corks the socket, writes the chunk in four pieces and uncorks
 * it on the next tick (a writev of four buffers). With 500 streams open this took the API's CPU per
 * stream from 18.7 to 16.5 ms (pnpm bench:burst). Only once the headers are out (the first event
 * carries them), nothing of the answer waits in the response's own queue (a request pipelined behind
 * another) and the response is chunked; otherwise `res.write`.
 */
function writeChunk(res: Outgoing, frame: string): void {
  const socket = res.socket;
  if (socket && res.headersSent && res.chunkedEncoding && !res.outputData?.length && !socket.writableCorked && !socket.destroyed) {
    socket.write(`${Buffer.byteLength(frame).toString(16)}\r\n${frame}\r\n`);
  } else {
    res.write(frame);
  }
}
