/**
 * Play under load, against the local OpenAI-compatible stub, with direct-to-stub measured in the same run:
 *   1. time to first token added by the API (free and paid models: the paid path holds power first);
 *   2. per-chunk added latency with 100 and 1000 concurrent streams on one API process, and errors;
 *   3. memory per open stream (the API process's RSS while 1000 streams are open);
 *   4. prompt assembly for a 1,000,000-character story;
 *   5. opening that story on /play in Chromium (when the web app is built and Chromium is installed).
 * The API runs as its own process (as in production); the stub and the clients run here.
 * Prints figures; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:play      (BENCH_TTFT_N, BENCH_STREAMS=100,1000, BENCH_STREAM_ROUNDS, BENCH_PARTS, BENCH_PLAY_TRACE, MONGODB_URI;
 *   BENCH_API_NODE_ARGS / BENCH_DB_NODE_ARGS, e.g. --cpu-prof, for the API and database processes)
 */
import 'reflect-metadata';
import { assemblePrompt } from '../src/play/context/prompt-builder';
import { TokenCounter } from '../src/generation/token-counter';
import { startOpenAIStub, wallClock, type OpenAIStub } from '../test/support/openai-stub';
import { benchBrowserOpen } from './support/browser-open';
import { streamMany } from './support/many-streams';
import { authJson, createStories, longStory, ms, openDatabase, readStream, rssOf, startApi, type Api } from './support/play-api';
import { benchStory } from './support/prompt-story';
import { record } from './support/report';
import { pct } from './support/stats';

const TTFT_N = Number(process.env.BENCH_TTFT_N ?? 200);
// As many warm-up sends as timed ones: a fresh process is still optimising its hot paths for a while.
const WARM_N = Number(process.env.BENCH_WARM_N ?? TTFT_N);
const STREAM_LEVELS = (process.env.BENCH_STREAMS ?? '100,1000').split(',').map(Number);
const CHUNKS = 40;
const STREAM_ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 3);
const CHUNK_DELAY_MS = 25;

// The direct baseline sends the stub what the API sends it (the prompt the API assembled, as captured
// by the stub), so the difference is the API's own work, not the provider's work on a longer prompt.
let directBody = JSON.stringify({ model: 'free', stream: true, messages: [{ role: 'user', content: 'Go' }] });

async function directFirstToken(stub: OpenAIStub): Promise<number> {
  const t0 = wallClock();
  const res = await fetch(`${stub.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: directBody,
  });
  let first = NaN;
  await readStream(res, (data, at) => {
    if (data.includes('"content":"') && !data.includes('"content":""')) {
      first = at - t0;
      return true;
    }
  });
  return first;
}

let refusalShown = false;

async function apiFirstToken(api: Api, story: string, model: string, regenerate = false): Promise<number> {
  const t0 = wallClock();
  const res = await fetch(`${api.base}/api/llm/${story}`, {
    method: 'POST',
    headers: authJson(api),
    body: JSON.stringify({ role: 'Mara', content: 'Go', model_name: model, regenerate }),
  });
  if (!res.ok) {
    if (!refusalShown) console.log(`   first refusal: ${res.status} ${(await res.text()).slice(0, 200)}`);
    refusalShown = true;
    return NaN;
  }
  let first = NaN;
  await readStream(res, (data, at) => {
    if (data.startsWith('{"type":"delta"') && Number.isNaN(first)) first = at - t0;
    return data.startsWith('{"type":"done"') || data.startsWith('{"type":"error"');
  });
  return first;
}

async function benchTtft(api: Api, stub: OpenAIStub) {
  stub.set({ delayMs: 0 });
  const stories = { free: await createStories(api, TTFT_N), paid: await createStories(api, TTFT_N) };
  const direct: number[] = [];
  const rows: Record<string, number[]> = { 'free, first send': [], 'paid, first send': [], 'free, next send': [], 'paid, next send': [] };
  // One send through the API on a story of its own shows what the API asks the stub for.
  const [probe] = await createStories(api, 1);
  await apiFirstToken(api, probe, 'free');
  directBody = JSON.stringify(stub.bodies.at(-1));
  for (let i = 0; i < 20; i++) await directFirstToken(stub);
  // Both sides warm (a fresh process compiles its hot paths on first use): a first and a next send on
  // stories of their own, of each kind, before anything is timed.
  const warm = { free: await createStories(api, WARM_N), paid: await createStories(api, WARM_N) };
  for (const regenerate of [false, true]) {
    if (regenerate) await new Promise((r) => setTimeout(r, 1100));
    for (const kind of ['free', 'paid'] as const) for (const story of warm[kind]) await apiFirstToken(api, story, kind, regenerate);
  }
  // A story's first send, and a later one (a regenerate, over a second later, as the throttle wants).
  for (const round of ['first', 'next'] as const) {
    if (round === 'next') await new Promise((r) => setTimeout(r, 1100));
    for (let i = 0; i < TTFT_N; i++) {
      for (const kind of ['free', 'paid'] as const) {
        direct.push(await directFirstToken(stub));
        rows[`${kind}, ${round} send`].push(await apiFirstToken(api, stories[kind][i], kind, round === 'next'));
      }
    }
  }
  // Baselines in the same run: what one plain request and one authenticated read cost.
  const timed = async (url: string, headers: Record<string, string> = {}) => {
    const t0 = wallClock();
    await (await fetch(url, { headers })).arrayBuffer();
    return wallClock() - t0;
  };
  const baselines: Record<string, number[]> = { 'GET /api/health': [], 'GET /api/user/user-info (auth + 1 read)': [] };
  for (let i = 0; i < TTFT_N; i++) {
    baselines['GET /api/health'].push(await timed(`${api.base}/api/health`));
    baselines['GET /api/user/user-info (auth + 1 read)'].push(await timed(`${api.base}/api/user/user-info`, { Authorization: `Bearer ${api.token}` }));
  }
  const d50 = pct(direct, 50);
  const d99 = pct(direct, 99);
  console.log(`\n1. Time to first token (${TTFT_N} sequential sends per row; target: added p50 < 5 ms, p99 < 20 ms)`);
  console.log(`   direct to stub (the API's request body, ${directBody.length} bytes)  p50 ${ms(d50)}  p99 ${ms(d99)}`);
  for (const [label, values] of Object.entries(baselines)) console.log(`   baseline ${label.padEnd(40)} p50 ${ms(pct(values, 50))}  p99 ${ms(pct(values, 99))}`);
  for (const [label, values] of Object.entries(baselines)) {
    record({ suite: 'play', measure: `baseline: ${label}`, unit: 'ms', median: pct(values, 50), p99: pct(values, 99) });
  }
  for (const [label, values] of Object.entries(rows)) {
    const added50 = pct(values, 50) - d50;
    const added99 = pct(values, 99) - d99;
    console.log(`   via API, ${label.padEnd(16)} p50 ${ms(pct(values, 50))}  p99 ${ms(pct(values, 99))}  -> added p50 ${ms(added50)}  p99 ${ms(added99)}`);
    record({
      suite: 'play',
      measure: `time to first token, ${label}`,
      unit: 'ms',
      median: pct(values, 50),
      p99: pct(values, 99),
      baseline: { label: 'direct to stub', median: d50, p99: d99 },
      // No target: the goal above is for a short story's send; this row shows what a long one adds.
      note: `added p50 ${added50.toFixed(2)} ms, p99 ${added99.toFixed(2)} ms`,
    });
  }
}


/**
 * 1b. Time to first token on a story of 1,000,000 characters (a long session's story): sequential sends
 * over a few such stories (each 1.2 s after its last), regenerates and then continues (each accepting
 * the last reply into the text), beside the direct baseline with the prompt the API sends for them.
 */
async function benchLongTtft(api: Api, stub: OpenAIStub, text: string) {
  stub.set({ delayMs: 0 });
  const n = Math.max(10, Math.round(TTFT_N / 10));
  const stories: string[] = [];
  for (let i = 0; i < 5; i++) stories.push(await longStory(api, text));
  // Sends on a story come at least a second apart (SEND_TOO_FAST): its creation's turns were sends too.
  const gapMs = 1200;
  await new Promise((r) => setTimeout(r, gapMs));
  for (const story of stories) await apiFirstToken(api, story, 'free');
  const body = JSON.stringify(stub.bodies.at(-1));
  const saved = directBody;
  directBody = body;
  const rows = { regenerate: { direct: [] as number[], api: [] as number[] }, continue: { direct: [] as number[], api: [] as number[] } };
  try {
    for (let i = 0; i < 5; i++) await directFirstToken(stub);
    let window0 = 0n;
    for (const kind of ['regenerate', 'continue'] as const) {
      // Warm-up and timed sends alike: a send on each story in turn.
      for (let round = 0; round < 2 + Math.ceil(n / stories.length); round++) {
        // BENCH_WINDOW=continue: the continues' span instead.
        if (round === 2 && kind === (process.env.BENCH_WINDOW === 'continue' ? 'continue' : 'regenerate')) window0 = process.hrtime.bigint();
        const started = Date.now();
        for (const story of stories) {
          const d = await directFirstToken(stub);
          const a = await apiFirstToken(api, story, 'free', kind === 'regenerate');
          if (round >= 2) {
            rows[kind].direct.push(d);
            rows[kind].api.push(a);
          }
        }
        await new Promise((r) => setTimeout(r, Math.max(0, gapMs - (Date.now() - started))));
      }
    }
    // BENCH_WINDOW: from the timed sends' start (the regenerates', or the continues') to the end (monotonic µs), to cut a profile of the API.
    if (process.env.BENCH_WINDOW) console.log(`WINDOW longttft ${window0 / 1000n} ${process.hrtime.bigint() / 1000n}`);
  } finally {
    directBody = saved;
  }
  console.log(`\n1b. Time to first token on a 1,000,000-character story (sequential sends over ${stories.length} stories; prompt ${body.length} bytes)`);
  for (const [kind, row] of Object.entries(rows)) {
    const d50 = pct(row.direct, 50);
    const d99 = pct(row.direct, 99);
    const added50 = pct(row.api, 50) - d50;
    const added99 = pct(row.api, 99) - d99;
    const label = kind === 'regenerate' ? 'a regenerate' : 'a continue (the last reply accepted)';
    console.log(`   ${label}, ${row.api.length} sends: direct p50 ${ms(d50)}  p99 ${ms(d99)}; via API p50 ${ms(pct(row.api, 50))}  p99 ${ms(pct(row.api, 99))}  -> added p50 ${ms(added50)}  p99 ${ms(added99)}`);
    record({
      suite: 'play',
      measure: `time to first token, free, ${label}, 1,000,000-character story`,
      unit: 'ms',
      median: pct(row.api, 50),
      p99: pct(row.api, 99),
      baseline: { label: 'direct to stub', median: d50, p99: d99 },
      target: 'added p50 < 5 ms, p99 < 20 ms',
      met: added50 < 5 && added99 < 20,
      note: `added p50 ${added50.toFixed(2)} ms, p99 ${added99.toFixed(2)} ms`,
    });
  }
}


async function benchConcurrency(api: Api, stub: OpenAIStub) {
  console.log(`\n2. Per-chunk latency with concurrent streams (${CHUNKS} chunks, ${CHUNK_DELAY_MS} ms apart; latency = arrival - send time at the stub)`);
  let memoryLine = '';
  // A warm-up round, not timed: the first streams of a fresh process run while its hot paths compile.
  const warm = await createStories(api, 100);
  stub.set({ chunks: Array(CHUNKS).fill('x'), delayMs: CHUNK_DELAY_MS });
  await streamMany(warm.length, CHUNK_DELAY_MS, (i) => ({ url: `${api.base}/api/llm/${warm[i]}`, headers: authJson(api), body: JSON.stringify({ role: 'Mara', content: 'Go', model_name: 'free' }) }), () => null);
  for (const n of STREAM_LEVELS) {
    // Several rounds, their chunks pooled: one round on a small machine swings with whatever else it
    // does at that moment; each round's own p99 is printed too.
    const direct = { latencies: [] as number[], errors: 0 };
    const viaApi = { latencies: [] as number[], errors: 0, completed: 0 };
    const roundP99s: string[] = [];
    let rssBefore = 0;
    let rssPeak = 0;
    for (let round = 0; round < STREAM_ROUNDS; round++) {
      const stories = await createStories(api, n);
      stub.set({ stamp: true, chunks: Array(CHUNKS).fill('x'), delayMs: CHUNK_DELAY_MS });
      const stampOf = (text: string) => /t=([\d.]+);/.exec(text)?.[1] ?? null;
      const d = await streamMany(
        n,
        CHUNK_DELAY_MS,
        () => ({ url: `${stub.baseURL}/chat/completions`, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ model: 'free', stream: true, messages: [{ role: 'user', content: 'Go' }] }) }),
        (data) => (data.includes('"content":"t=') ? stampOf(data) : null),
      );
      const before = rssOf(api.pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(api.pid));
      }, 50);
      const winStart = process.hrtime.bigint();
      const v = await streamMany(
        n,
        CHUNK_DELAY_MS,
        (i) => ({ url: `${api.base}/api/llm/${stories[i]}`, headers: authJson(api), body: JSON.stringify({ role: 'Mara', content: 'Go', model_name: 'free' }) }),
        (data) => (data.startsWith('{"type":"delta"') ? stampOf(data) : null),
      );
      clearInterval(sampler);
      if (process.env.BENCH_WINDOW) console.log(`WINDOW ${n} ${winStart / 1000n} ${process.hrtime.bigint() / 1000n}`);
      // Memory is read on the first round: later ones reuse what it grew.
      if (round === 0) [rssBefore, rssPeak] = [before, peak];
      direct.latencies.push(...d.latencies);
      direct.errors += d.errors;
      viaApi.latencies.push(...v.latencies);
      viaApi.errors += v.errors;
      viaApi.completed += v.completed;
      roundP99s.push(`${(pct(v.latencies, 99) - pct(d.latencies, 99)).toFixed(1)}`);
    }
    const added99 = pct(viaApi.latencies, 99) - pct(direct.latencies, 99);
    console.log(
      `   ${String(n).padStart(4)} streams x ${STREAM_ROUNDS}  direct p50 ${ms(pct(direct.latencies, 50))} p99 ${ms(pct(direct.latencies, 99))} (${direct.errors} errors)` +
        `  | via API p50 ${ms(pct(viaApi.latencies, 50))} p99 ${ms(pct(viaApi.latencies, 99))}, ${viaApi.completed}/${n * STREAM_ROUNDS} completed, ${viaApi.errors} errors` +
        `  -> added p99 ${ms(added99)} (rounds: ${roundP99s.join(', ')} ms; target < 50 ms, no errors)`,
    );
    record({
      suite: 'play',
      measure: `per-chunk latency, ${n} concurrent streams (${STREAM_ROUNDS} rounds pooled)`,
      unit: 'ms',
      median: pct(viaApi.latencies, 50),
      p99: pct(viaApi.latencies, 99),
      baseline: { label: 'direct to stub', median: pct(direct.latencies, 50), p99: pct(direct.latencies, 99) },
      target: 'added p99 < 50 ms, no errors',
      met: added99 < 50 && viaApi.errors === 0 && viaApi.completed === n * STREAM_ROUNDS,
      note: `added p99 ${added99.toFixed(2)} ms (rounds: ${roundP99s.join(', ')} ms), ${viaApi.completed}/${n * STREAM_ROUNDS} completed, ${viaApi.errors} errors`,
    });
    if (n === Math.max(...STREAM_LEVELS)) {
      record({ suite: 'play', measure: `memory per open stream (API RSS growth with ${n} open, after warm-up)`, unit: 'KB', median: (rssPeak - rssBefore) / n / 1024 });
      memoryLine = `\n3. Memory per open stream: API RSS ${(rssBefore / 1048576).toFixed(1)} MB before, ${(rssPeak / 1048576).toFixed(1)} MB peak with ${n} streams open -> ${((rssPeak - rssBefore) / n / 1024).toFixed(1)} KB per stream`;
    }
  }
  console.log(memoryLine);
}

function novel(chars: number): string {
  const sentences = [
    'The tide came in slowly over the black stones of the harbour.',
    'Somewhere a bell rang twice and then fell silent.',
    'Mara counted the coins again, though she knew the sum by heart.',
    'Ilan watched from the customs house, his lamp burning late.',
  ];
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const s = `${sentences[i % sentences.length]} (${i})${i % 6 === 5 ? '\n\n' : ' '}`;
    out.push(s);
    n += s.length;
  }
  return out.join('').slice(0, chars);
}

function benchAssembly(text: string) {
  const story = benchStory(text);
  console.log(`\n4. Prompt assembly, ${text.length.toLocaleString('en')}-character story`);
  for (const window of [8192, 32_000, 128_000]) {
    const counter = new TokenCounter();
    const budget = { contextWindow: window, maxOutput: 1000 };
    let t0 = performance.now();
    assemblePrompt(story, { role: 'Mara', content: 'Go on.' }, budget, 0, counter);
    const cold = performance.now() - t0;
    const times: number[] = [];
    let grown = story;
    for (let i = 0; i < 30; i++) {
      // Each turn appends a little, as play does.
      grown = { ...grown, main_text: `${grown.main_text}\nMara: line ${i}. The reply came back slowly.` };
      t0 = performance.now();
      assemblePrompt(grown, { role: 'Mara', content: `Go on ${i}.` }, budget, 0, counter);
      times.push(performance.now() - t0);
    }
    console.log(`   context ${String(window).padStart(6)} tokens: first ${ms(cold)}, then p50 ${ms(pct(times, 50))} p99 ${ms(pct(times, 99))}   (target p50 < 50 ms)`);
    record({
      suite: 'play',
      measure: `prompt assembly, ${text.length.toLocaleString('en')} chars, ${window}-token context`,
      unit: 'ms',
      median: pct(times, 50),
      p99: pct(times, 99),
      target: 'p50 < 50 ms',
      met: pct(times, 50) < 50,
      note: `first (cold) ${cold.toFixed(1)} ms`,
    });
  }
}


export async function run(): Promise<void> {
  // MONGODB_URI (a real MongoDB, or the harness's database) when given, else an in-memory embedded
  // database in its own process.
  const database = await openDatabase();
  const stub = await startOpenAIStub();
  const api = await startApi(stub, database).catch(async (error: unknown) => {
    await stub.close();
    await database.stop();
    throw error;
  });
  const text = novel(1_000_000);
  try {
    console.log(`Play benchmark: API pid ${api.pid} at ${api.base}, stub at ${stub.baseURL}`);
    const parts = (process.env.BENCH_PARTS ?? 'ttft,longttft,streams,assembly,browser').split(',');
    if (parts.includes('ttft')) await benchTtft(api, stub);
    if (parts.includes('longttft')) await benchLongTtft(api, stub, text);
    if (parts.includes('streams')) await benchConcurrency(api, stub);
    if (parts.includes('assembly')) benchAssembly(text);
    if (parts.includes('browser')) await benchBrowserOpen(api, text);
  } finally {
    await api.stop();
    await stub.close();
    await database.stop();
  }
}

if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
