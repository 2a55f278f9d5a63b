import { ErrorCode } from '@taleloom/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClientError } from './api-client';
import { getErrorMessage } from './error-message';
import { i18n } from './i18n';
import { createSseParser, postStream, readStreamEvents } from './sse';

const enc = new TextEncoder();

function collect(chunks: (string | Uint8Array)[]) {
  const out: string[] = [];
  const p = createSseParser((d) => out.push(d));
  for (const c of chunks) p.push(typeof c === 'string' ? enc.encode(c) : c);
  p.end();
  return out;
}

describe('SSE parser', () => {
  it('reads events, joins multi-line data and skips comments and other fields', () => {
    expect(collect(['data: a\n\n: keepalive\n\nevent: x\ndata: b\ndata:c\nid: 1\n\n'])).toEqual(['a', 'b\nc']);
  });

  it("gives each event the last id read (an event without an id line keeps the one before, as the standard says)", () => {
    const out: [string, string | undefined][] = [];
    const p = createSseParser((d, id) => out.push([d, id]));
    p.push(enc.encode('data: a\n\nid: 3:0\ndata: b\n\ndata: c\n\nid: 7:2\ndata: d\n\n'));
    p.end();
    expect(out).toEqual([['a', undefined], ['b', '3:0'], ['c', '3:0'], ['d', '7:2']]);
  });

  it('survives events split anywhere, one byte at a time, with CRLF and CR endings', () => {
    const text = 'data: {"type":"delta","text":"héllo 世界"}\r\n\r\ndata: two\r\rdata: three\n\n';
    const bytes = enc.encode(text);
    const oneByOne = Array.from(bytes, (b) => new Uint8Array([b]));
    expect(collect(oneByOne)).toEqual(['{"type":"delta","text":"héllo 世界"}', 'two', 'three']);
    // Split inside a multi-byte character and between \r and \n.
    const cut = text.indexOf('世') + 1;
    const byteCut = enc.encode(text.slice(0, cut)).length - 1;
    expect(collect([bytes.slice(0, byteCut), bytes.slice(byteCut)])).toEqual(['{"type":"delta","text":"héllo 世界"}', 'two', 'three']);
    const crlf = text.indexOf('\r\n') + 1;
    expect(collect([text.slice(0, crlf), text.slice(crlf)])).toEqual(['{"type":"delta","text":"héllo 世界"}', 'two', 'three']);
  });

  it('drops an unterminated last event', () => {
    expect(collect(['data: done\n\ndata: half'])).toEqual(['done']);
  });

  it('turns a byte stream into typed events, skipping lines that are not events', async () => {
    const parts = ['data: {"type":"user","text":"Hi","role":"A","turnId":"t"}\n', '\ndata: not json\n\ndata: {"type":"del', 'ta","text":"x"}\n\n'];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(enc.encode(p));
        c.close();
      },
    });
    const onEvent = vi.fn();
    await readStreamEvents(body, onEvent);
    expect(onEvent.mock.calls.map((c) => c[0])).toEqual([
      { type: 'user', text: 'Hi', role: 'A', turnId: 't' },
      { type: 'delta', text: 'x' },
    ]);
  });
});

describe('postStream refused before the stream', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the code, details and params of the JSON error, so a rate limit can say how long to wait', async () => {
    const refusal = { status: 'error', code: ErrorCode.GENERATION_RATE_LIMITED, message: 'slow down', params: { seconds: 42, retryAfterSeconds: 42 } };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(refusal), { status: 429, headers: { 'Content-Type': 'application/json' } })));
    const error = await postStream('/llm/abc', { content: 'Go' }, () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ status: 429, code: ErrorCode.GENERATION_RATE_LIMITED, params: { seconds: 42 } });
    await i18n.changeLanguage('en');
    expect(getErrorMessage(error, i18n.t)).toContain('42 seconds');
  });
});
