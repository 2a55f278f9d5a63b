// The burst benchmark's streams: one stream opened and followed to its end (first token, per-chunk
// latency from the stub's stamps), a burst of them opened at once, and the optional CPU timeline.
import { Agent, request as httpRequest } from 'node:http';
import type { Stub } from './burst-processes';
import { f, mb, STREAM_DEADLINE_MS, wallClock } from './burst-settings';
import { cpuSeconds, processTree, rssBytes } from './process-stats';
import { pct } from './stats';
import { SseBlocks } from '../../test/support/sse-blocks';

// One connection per stream, no keep-alive: each stream is a new client, as in a burst of users.
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

export interface StreamResult {
  /** Wall-clock time the request was opened. */
  openedAt: number;
  /** Request sent to first token (ms); NaN when none came. */
  firstToken: number;
  /** Per chunk: arrival minus the stub's send time (ms). */
  latencies: number[];
  error: string | null;
}

export interface StreamSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** 'api': TaleLoom's events; 'direct': the provider's chunks. */
  kind: 'api' | 'direct';
  /** Close after the first token (a direct stream at level 1: the stub stops sending). */
  untilFirst?: boolean;
}

// The stub's stamp, `t=<ms>;`, in a chunk's text.
export function stampOf(event: string): number {
  const at = event.indexOf('t=');
  if (at < 0) return NaN;
  return Number(event.slice(at + 2, event.indexOf(';', at)));
}

// First tokens received so far (the timeline counts them).
let firstTokensSeen = 0;
export const firstTokensSoFar = () => firstTokensSeen;
// The chunk latencies seen since the timeline's last line (only while a timeline runs).
let windowLatencies: number[] | null = null;

/**
 * With BENCH_BURST_TIMELINE: every 250 ms, the API's and the database's CPU (% of one core) over the
 * last 250 ms, the API's RSS and how many streams have had their first token.
 */
export function timeline(pids: { api: number; db: number | null }): () => void {
  if (!process.env.BENCH_BURST_TIMELINE) return () => undefined;
  const t0 = performance.now();
  const seen0 = firstTokensSeen;
  // A multi-process API: its processes summed.
  const apiCpu = () => processTree(pids.api).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const apiRss = () => processTree(pids.api).reduce((sum, pid) => sum + rssBytes(pid), 0);
  let last = { api: apiCpu(), db: pids.db ? cpuSeconds(pids.db) : NaN };
  const lines: string[] = [];
  windowLatencies = [];
  const timer = setInterval(() => {
    const now = { api: apiCpu(), db: pids.db ? cpuSeconds(pids.db) : NaN };
    lines.push(
      `${f((performance.now() - t0) / 1000, 2)}s api ${f((now.api - last.api) * 400, 0)}% db ${f((now.db - last.db) * 400, 0)}% rss ${f(mb(apiRss()), 0)} first ${firstTokensSeen - seen0} chunk p99 ${f(pct(windowLatencies!, 99), 0)}`,
    );
    windowLatencies = [];
    last = now;
  }, 250);
  return () => {
    clearInterval(timer);
    windowLatencies = null;
    console.log(`   timeline: ${lines.join(' | ')}`);
  };
}

/** Opens one stream now and follows it to its end (or its deadline). */
export function openStream(spec: StreamSpec, deadline: number): Promise<StreamResult> {
  return new Promise((done) => {
    const t0 = wallClock();
    const out: StreamResult = { openedAt: t0, firstToken: NaN, latencies: [], error: null };
    let ended = false;
    let sawEnd = false;
    const finish = (error: string | null) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      out.error = error;
      done(out);
    };
    const timer = setTimeout(() => {
      finish('deadline');
      req.destroy();
    }, Math.max(1, deadline - Date.now()));
    const req = httpRequest(spec.url, { method: 'POST', agent, headers: { ...spec.headers, 'Content-Length': Buffer.byteLength(spec.body) } }, (res) => {
      res.setEncoding('utf8');
      const sse = new SseBlocks();
      res.on('data', (text: string) => {
        const at = wallClock();
        for (const { data: event } of sse.push(text)) {
          let chunk = false;
          if (spec.kind === 'api') {
            if (event.startsWith('{"type":"delta"')) chunk = true;
            else if (event.startsWith('{"type":"done"')) sawEnd = true;
            else if (event.startsWith('{"type":"error"')) return finish(`error event: ${event.slice(0, 194)}`);
          } else if (event.startsWith('[DONE]')) sawEnd = true;
          else if (event.includes('"content":"t=')) chunk = true;
          if (!chunk) continue;
          const stamp = stampOf(event);
          out.latencies.push(at - stamp);
          windowLatencies?.push(at - stamp);
          if (Number.isNaN(out.firstToken)) {
            out.firstToken = at - t0;
            firstTokensSeen++;
            if (spec.untilFirst) {
              finish(null);
              res.destroy();
              return;
            }
          }
        }
      });
      res.on('end', () => {
        if (res.statusCode !== 200) finish(`status ${res.statusCode}: ${sse.rest.slice(0, 200)}`);
        else finish(sawEnd ? null : 'ended without done');
      });
      res.on('error', (e) => finish(e.message));
      res.on('aborted', () => finish('aborted'));
    });
    req.on('error', (e) => finish((e as NodeJS.ErrnoException).code ?? e.message));
    req.end(spec.body);
  });
}

export interface BurstResult {
  /** When the requests reached the stub, ms after the burst was opened (the API's work before its provider call). */
  arrivals: number[];
  firstTokens: number[];
  latencies: number[];
  errors: number;
  errorKinds: Map<string, number>;
  seconds: number;
  /** Per-chunk latencies by the chunk's place in its stream (BENCH_BURST_DECILES): 1st, 2nd-5th, 6th-20th, the rest. */
  byPlace: number[][];
}

// The places BurstResult.byPlace groups the chunks by: a chunk goes in the first group whose end is past its index.
export const PLACE_ENDS = [1, 5, 20, Infinity];
export const PLACE_NAMES = ['1st', '2nd-5th', '6th-20th', 'later'];

export function summarise(results: StreamResult[], seconds: number): BurstResult {
  const errorKinds = new Map<string, number>();
  const latencies: number[] = [];
  for (const r of results) {
    if (r.error) {
      const kind = r.error.slice(0, 80);
      errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
    }
    for (const l of r.latencies) latencies.push(l);
  }
  const byPlace: number[][] = PLACE_ENDS.map(() => []);
  for (const r of results) r.latencies.forEach((l, i) => byPlace[PLACE_ENDS.findIndex((end) => i < end)].push(l));
  return { arrivals: [], firstTokens: results.map((r) => r.firstToken).filter(Number.isFinite), latencies, errors: results.filter((r) => r.error).length, errorKinds, seconds, byPlace };
}

/** Every stream opened in the same tick of the event loop; with the stub, when each request reached it. */
export async function burst(specs: StreamSpec[], stub?: Stub): Promise<BurstResult> {
  await stub?.arrivals();
  const t0 = Date.now();
  const wall0 = wallClock();
  const deadline = t0 + STREAM_DEADLINE_MS;
  const results = await Promise.all(specs.map((s) => openStream(s, deadline)));
  const out = summarise(results, (Date.now() - t0) / 1000);
  if (stub) out.arrivals = (await stub.arrivals()).map((at) => at - wall0);
  return out;
}
