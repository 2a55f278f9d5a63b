// The play benchmark's many-stream clients (part 2: per-chunk latency with concurrent streams).
import { Agent, request as httpRequest } from 'node:http';
import { wallClock } from '../../test/support/openai-stub';
import { SseBlocks } from '../../test/support/sse-blocks';

// The many-stream clients use node:http, not fetch: fetch's web streams cost the benchmark process
// several times the CPU per event, and on a small machine the clients would then starve the API they
// measure. Direct and via-API streams use the same client.
// One connection per stream (a stream is one long request): a kept-alive socket reused after the
// server's idle timeout would fail with "socket hang up".
const streamAgent = new Agent({ keepAlive: false, maxSockets: Infinity });

interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** POSTs and calls `onData` with each SSE `data:` payload at its arrival time; answers the status and, on a refusal, the body. */
function postSse(req: StreamRequest, onData: (data: string, at: number) => void): Promise<{ status: number; refusal?: string }> {
  return new Promise((done, fail) => {
    const r = httpRequest(req.url, { method: 'POST', agent: streamAgent, headers: { ...req.headers, 'Content-Length': Buffer.byteLength(req.body) } }, (res) => {
      res.setEncoding('utf8');
      const sse = new SseBlocks();
      res.on('data', (text: string) => {
        const at = wallClock();
        for (const { data } of sse.push(text)) onData(data, at);
      });
      res.on('end', () => done(res.statusCode === 200 ? { status: 200 } : { status: res.statusCode ?? 0, refusal: sse.rest }));
      res.on('error', fail);
    });
    r.on('error', fail);
    r.end(req.body);
  });
}

// The streams open within `spreadMs` (one chunk interval), spread evenly, as independent users' streams would be:
// all are open at once, but their chunks do not arrive in lockstep (the stub's timers would otherwise
// send every stream's chunk at the same instant, a burst no real load has).
export async function streamMany(n: number, spreadMs: number, open: (i: number) => StreamRequest, isChunk: (data: string) => string | null) {
  const latencies: number[] = [];
  let errors = 0;
  let completed = 0;
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i / n) * spreadMs));
      try {
        let sawEnd = false;
        const res = await postSse(open(i), (data, at) => {
          if (data.startsWith('{"type":"error"')) errors++;
          if (data.startsWith('{"type":"done"') || data === '[DONE]') sawEnd = true;
          const stamp = isChunk(data);
          if (stamp) latencies.push(at - Number(stamp));
        });
        if (res.status !== 200) {
          errors++;
          if (errors === 1) console.log(`   first refusal: ${res.status} ${(res.refusal ?? '').slice(0, 200)}`);
          return;
        }
        if (sawEnd) completed++;
        else {
          errors++;
          if (errors === 1) console.log('   first failure: a stream ended without done');
        }
      } catch (error) {
        errors++;
        if (errors === 1) console.log(`   first failure: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  return { latencies, errors, completed };
}
