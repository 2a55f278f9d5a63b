import type { StreamEvent } from '@taleloom/contracts';
import express from 'express';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { relayEvents, type EventSource } from './sse-response';

// A source that emits the given events: some in one go (the same tick), some on later turns.
function source(events: StreamEvent[][]): EventSource {
  return {
    subscribe(listener) {
      let stopped = false;
      void (async () => {
        for (const group of events) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          if (stopped) return;
          for (const event of group) listener(event);
        }
      })();
      return () => {
        stopped = true;
      };
    },
  };
}

const deltas = (from: number, n: number): StreamEvent[] => Array.from({ length: n }, (_, i) => ({ type: 'delta', text: `piece ${from + i} — 片段 ` }));
const groups: StreamEvent[][] = [
  [{ type: 'user', text: 'Hello', role: '', turnId: 't' }, ...deltas(0, 3)],
  ...Array.from({ length: 20 }, (_, i) => deltas(3 + i, 1)),
  [...deltas(23, 2), { type: 'usage', promptTokens: 1, completionTokens: 25, cost: 0 }, { type: 'done', turnId: 't' }],
];
// An event as relayEvents writes it.
const frameOf = (e: StreamEvent) => `data: ${JSON.stringify(e)}\n\n`;
const expected = groups.flat().map(frameOf).join('');

// An HTTP/1.1 chunked body, checked chunk by chunk: each size line names exactly the bytes that follow.
function dechunk(raw: Buffer): string {
  return chunksOf(raw).join('');
}

// The chunks of an HTTP/1.1 chunked body, each as its text.
function chunksOf(raw: Buffer): string[] {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) throw new Error(`no size line at ${at}`);
    const size = parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error(`bad size line at ${at}`);
    at = eol + 2;
    if (size === 0) return parts.map((part) => part.toString('utf8'));
    parts.push(raw.subarray(at, at + size));
    at += size;
    if (raw.subarray(at, at + 2).toString('latin1') !== '\r\n') throw new Error(`chunk of ${size} bytes not followed by CRLF`);
    at += 2;
  }
}

// Sends raw request bytes and reads the connection to its end (the server closes it after the last answer).
async function exchange(port: number, request: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  const data: Buffer[] = [];
  socket.on('data', (d: Buffer) => data.push(d));
  socket.write(request);
  await once(socket, 'close');
  return Buffer.concat(data).toString('latin1');
}

describe('relayEvents', () => {
  let floodStopped = false;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.get('/slow', (_req, res) => {
      // Answers while the pipelined stream behind it is producing its events (some wait in its queue, some come after).
      setTimeout(() => res.type('text/plain').send('first answer'), 20);
    });
    app.get('/stream', (_req, res) => relayEvents(res, source(groups)));
    // Events of 4 KB as fast as the loop turns, until the relaying stops (at most 64 MB).
    app.get('/flood', (_req, res) =>
      relayEvents(res, {
        subscribe(listener) {
          let stopped = false;
          const piece = 'x'.repeat(4096);
          let sent = 0;
          const next = () => {
            if (stopped || sent++ > 16_000) return;
            listener({ type: 'delta', text: piece }, String(sent));
            setImmediate(next);
          };
          setImmediate(next);
          return () => {
            stopped = true;
            floodStopped = true;
          };
        },
      }, 'zh-CN'),
    );
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('relays every event in order as well-formed HTTP/1.1 chunks', async () => {
    const raw = await exchange(port, 'GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const [head, ...rest] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(head.toLowerCase()).toContain('content-type: text/event-stream');
    expect(dechunk(Buffer.from(rest.join('\r\n\r\n'), 'latin1'))).toBe(expected);
  });

  it('writes the events that come in one go (one provider read, usage and done) as one chunk, the last with the end', async () => {
    const raw = await exchange(port, 'GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const body = Buffer.from(raw.slice(raw.indexOf('\r\n\r\n') + 4), 'latin1');
    expect(chunksOf(body)).toEqual(groups.map((group) => group.map(frameOf).join('')));
    expect(raw.endsWith('\r\n0\r\n\r\n')).toBe(true);
  });

  it('reads the same through an HTTP client', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/stream`);
    expect(await res.text()).toBe(expected);
  });

  it('answers an HTTP/1.0 client (no chunked encoding) with the plain events', async () => {
    const raw = await exchange(port, 'GET /stream HTTP/1.0\r\nHost: x\r\n\r\n');
    const [head, ...rest] = raw.split('\r\n\r\n');
    expect(head.toLowerCase()).not.toContain('transfer-encoding');
    expect(Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8')).toBe(expected);
  });

  it('keeps a stream pipelined behind a slower answer after that answer', async () => {
    const raw = await exchange(port, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const second = raw.indexOf('HTTP/1.1 200', 1);
    expect(raw.slice(0, second)).toContain('first answer');
    const body = raw.slice(raw.indexOf('\r\n\r\n', second) + 4);
    expect(dechunk(Buffer.from(body, 'latin1'))).toBe(expected);
  });

  it('drops a client that reads too slowly with STREAM_TOO_SLOW instead of keeping its events in memory', async () => {
    const socket = connect(port, '127.0.0.1');
    const data: Buffer[] = [];
    socket.write('GET /flood HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    // The client reads nothing for a while: the socket's buffers fill, then the server's.
    socket.pause();
    for (let waited = 0; !floodStopped && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(floodStopped).toBe(true);
    socket.on('data', (d: Buffer) => data.push(d));
    socket.resume();
    await once(socket, 'close');
    const body = Buffer.concat(data).toString('utf8');
    const last = body.slice(body.lastIndexOf('data: ') + 6, body.lastIndexOf('}') + 1);
    expect(JSON.parse(last)).toEqual({ type: 'error', code: 'STREAM_TOO_SLOW', message: '网络太慢，跟不上故事的生成。重新连接后会从中断处继续。' });
    // Far less than the 64 MB the source would have sent.
    expect(body.length).toBeLessThan(32 * 1024 * 1024);
  });
});
