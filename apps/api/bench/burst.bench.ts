/**
 * Streams opened in a burst (issue #17): N streams opened at the same instant, each on a fresh story
 * with a ~2.3 KB prologue, against a stub that answers like a real model (first token after 200 ms,
 * then 200 chunks 20 ms apart), beside the same burst sent straight to the stub in the same run.
 * Levels: 1 (sequential sends), 100, 500, 1000 at once, then 100 and 500 at once to a paid model (each
 * send holds power, then settles it). Each level gets a fresh database process and a fresh API process
 * (the built `dist/main.js`, as `pnpm start` runs it), a warm-up burst, then rounds.
 * Per level it prints the first token and the per-chunk latency added by the API (medians and p99s,
 * per round and the median of rounds), errors, and the CPU and peak RSS of the API and database
 * processes. Loopback only; every stream has a deadline; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:burst
 *   BENCH_BURST_LEVELS=1,100,500,1000,100p,500p   levels (1 = sequential; `p`: to the paid model)
 *   BENCH_BURST_ROUNDS=3                rounds per level (each: direct burst, then the API burst)
 *   BENCH_BURST_SEQ=20                  sends per side at level 1
 *   BENCH_BURST_CHUNKS=200 BENCH_BURST_CHUNK_MS=20 BENCH_BURST_FIRST_MS=200   the stub's answer
 *   BENCH_BURST_MODEL=free|paid         the platform model sent to (paid holds and settles power)
 *   BENCH_BURST_PER_USER=20             streams per user (1: every stream a user of its own)
 *   BENCH_BURST_LOG_LEVEL=info          the API's LOG_LEVEL (its default); its stdout is discarded, or
 *   BENCH_BURST_API_LOG=<file>          appended to this file
 *   BENCH_API_NODE_ARGS / BENCH_DB_NODE_ARGS / BENCH_RELAY_NODE_ARGS   e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
 *   BENCH_BURST_HEAP_DIR=/tmp/heap      after the rounds, one more burst with a heap snapshot of the API
 *                                       taken idle and with every stream open (not timed)
 *   BENCH_BURST_TIMELINE=1              prints the API and database CPU, API RSS, first tokens and the chunks' p99 latency every 250 ms
 *   BENCH_BURST_PROBE=1                 level 1: prints each API send's open, provider-reached and first-token times (wall ms)
 *   BENCH_WINDOW=1                      prints each API burst's window (monotonic µs), to cut a profile
 *   BENCH_BURST_DECILES=1               prints each API round's provider-reached and first-token deciles, and the
 *                                       per-chunk p99 of the streams' 1st, 2nd-5th, 6th-20th and later chunks
 *   BENCH_BURST_BUILDS="base=bench-builds/base/main.js,new="   builds compared in the same rounds (see BUILDS)
 *                                       a build's words may name BENCH_NODE=<path to node>: that build runs on that Node.js
 *   BENCH_BURST_RELAY=0                 without the bare relay (by default each round also sends the burst through a
 *                                       bare streaming relay, support/relay-process.ts: what a chat front end's proxy
 *                                       such as SillyTavern's does, with no accounts, stories, database or money)
 *   MONGODB_URI                         a real MongoDB instead (a database name per level; no DB figures)
 */
import 'reflect-metadata';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { StubBehaviour } from '../test/support/openai-stub';
import { databaseKind, startApi, startDatabase, startRelay, startStub, type Api, type Database, type Relay, type Stub } from './support/burst-processes';
import { printRound, printSummary, report, reportRelay, type Round } from './support/burst-report';
import {
  BUILDS,
  CHUNK_MS,
  CHUNKS,
  f,
  FIRST_MS,
  HEAP_DIR,
  LEVELS,
  mb,
  MODEL,
  modelNote,
  READ_REST_MS,
  ROUNDS,
  SEQ_N,
  sleep,
  state,
  STREAM_DEADLINE_MS,
  STREAMS_PER_USER,
  WARM_STREAMS,
  WITH_RELAY,
  type Build,
} from './support/burst-settings';
import { burst, firstTokensSoFar, openStream, PLACE_NAMES, summarise, timeline, type StreamResult, type StreamSpec } from './support/burst-streams';
import { ProcessWatch } from './support/process-stats';
import { signInAs } from './support/processes';
import { readProbe } from './support/read-probe';
import { pct } from './support/stats';

// The bare relay is warmed once, before the first level that uses it.
let relayWarm = false;

// A realistic prologue: a setting and four characters, ~2.3 KB.
export const PROLOGUE = [
  'Setting: Saltmere, a harbour town on a cold northern coast, in the last autumn before the railway comes. ' +
    'Smuggling keeps half the town fed; the customs house keeps the other half employed. Fog rolls in every ' +
    'evening and the lighthouse on Gull Rock has been dark for a month, which nobody official will explain.',
  'Mara Venn (27): a smuggler who captains the sloop Kestrel. Quick, proud, owes money to the wrong people. ' +
    'She speaks plainly, hates being pitied, and counts everything twice. She lost her father to the sea and ' +
    'does not believe he drowned. She wants enough coin to buy the Kestrel outright and leave Saltmere for good.',
  'Ilan Venn (31): her older brother, now the harbour master, sworn to the customs office. Careful, tired, ' +
    'kind in small ways he hides. He knows more about their father than he has ever told Mara, and he has been ' +
    'signing false manifests for a man he fears. He drinks alone in the customs house after midnight.',
  'Oswin Tarrow (60s): the money-lender who owns half the boats in the harbour through debts. Polite, patient, ' +
    'never raises his voice. Collects favours as carefully as coins. Keeps a ledger nobody has seen, and the ' +
    'lighthouse keeper was in it. He treats Mara like a promising investment.',
  'Pell (15): a dock runner who sells news to whoever pays. Loyal to Mara since she pulled him out of the water ' +
    'last winter. Hears everything, understands half of it, and exaggerates the rest. Wants to crew the Kestrel.',
  'Sister Anneke (40s): runs the seamen\'s mission by the fish market, feeds whoever comes, asks no questions and ' +
    'remembers every answer she was not given. She was the lighthouse keeper\'s friend and has his last letter, ' +
    'unopened, because it is addressed to Mara.',
  'Tone: tense, atmospheric, grounded; short scenes; dialogue that carries subtext. The sea is always present: ' +
    'the smell of tar and salt, the creak of ropes, the bell on the harbour mouth. Magic does not exist, but ' +
    'rumours of it do, and people act on rumours.',
  'Opening: Night. Mara waits at the end of the north pier with a lantern shuttered to a slit, listening for the ' +
    'oars of a rowboat that is two hours late. Behind her, a light is burning in the customs house window. ' +
    'Somewhere out past Gull Rock, a bell that should be silent rings once, and the water goes very still.',
].join('\n\n');

// ---------------------------------------------------------------- users and stories

async function signIn(api: Api, n: number, level: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const token = await signInAs(api.base, `burst${level}u${i}`);
    if (state.levelModel === 'paid') {
      await fetch(`${api.base}/api/user/check-in`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' });
    }
    tokens.push(token);
  }
  return tokens;
}

interface Send {
  token: string;
  story: string;
}

/** One fresh story per stream, 20 streams per user (stream i belongs to user floor(i / 20)). */
async function freshStories(api: Api, tokens: string[], n: number): Promise<Send[]> {
  const sends: Send[] = Array.from({ length: n }, (_, i) => ({ token: tokens[Math.floor(i / STREAMS_PER_USER) % tokens.length], story: '' }));
  let next = 0;
  const body = JSON.stringify({ name: 'Saltmere', prologue_and_characters: PROLOGUE });
  const worker = async () => {
    while (next < n) {
      const send = sends[next++];
      const res = await fetch(`${api.base}/api/llm`, { method: 'POST', headers: { Authorization: `Bearer ${send.token}`, 'Content-Type': 'application/json' }, body });
      if (!res.ok) throw new Error(`creating a story: ${res.status} ${(await res.text()).slice(0, 200)}`);
      send.story = ((await res.json()) as { data: { id: string } }).data.id;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return sends;
}

// ---------------------------------------------------------------- a level

const apiSpec = (api: Api, send: Send): StreamSpec => ({
  url: `${api.base}/api/llm/${send.story}`,
  headers: { Authorization: `Bearer ${send.token}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ role: 'Mara', content: 'I open the shutter and signal twice toward the water.', model_name: state.levelModel }),
  kind: 'api',
});

interface Target {
  build: Build;
  database: Database;
  api: Api;
  tokens: string[];
  rounds: Round[];
}

async function runLevel(level: number, stub: Stub, relay: Relay | null): Promise<void> {
  const sequential = level === 1;
  const n = sequential ? SEQ_N : level;
  console.log(`\n--- ${sequential ? `sequential (${SEQ_N} sends per side)` : `${level} streams opened at once`}${modelNote()} ---`);
  const targets: Target[] = [];
  const stopAll = async () => {
    for (const t of targets) {
      await t.api.stop();
      await t.database.stop();
    }
  };
  try {
    const behaviour: StubBehaviour = { stamp: true, chunks: Array(CHUNKS).fill('x'), firstDelayMs: FIRST_MS, delayMs: CHUNK_MS };
    await stub.set(behaviour);
    for (const build of BUILDS) {
      const database = await startDatabase(level);
      const api = await startApi(stub, database, build).catch(async (error: unknown) => {
        await database.stop();
        throw error;
      });
      const tokens = await signIn(api, Math.ceil(Math.max(n, WARM_STREAMS) / STREAMS_PER_USER), level);
      targets.push({ build, database, api, tokens, rounds: [] });
      // Warm-up, not timed: a fresh process compiles its hot paths during its first streams.
      const warm = await freshStories(api, tokens, WARM_STREAMS);
      await burst(warm.map((s) => apiSpec(api, s)));
    }
    // The direct streams send the stub exactly what the API sent it (the prompt it assembled).
    const directBody = JSON.stringify(await stub.lastBody());
    const directSpec = (): StreamSpec => ({ url: `${stub.baseURL}/chat/completions`, headers: { 'Content-Type': 'application/json' }, body: directBody, kind: 'direct', untilFirst: sequential });
    // The bare relay passes the stub's events through as they are: read as direct streams, to the end.
    const relaySpec = (): StreamSpec => ({ url: relay!.url, headers: { 'Content-Type': 'application/json' }, body: directBody, kind: 'direct' });
    if (relay && !relayWarm) {
      // A fresh process compiles its hot paths during its first streams (as the APIs' warm-ups).
      await burst(Array.from({ length: WARM_STREAMS }, relaySpec));
      relayWarm = true;
    }
    const roundCount = ROUNDS;
    for (let r = 0; r < roundCount; r++) {
      const sends = new Map<Target, Send[]>();
      for (const t of targets) sends.set(t, await freshStories(t.api, t.tokens, n));
      await sleep(1000);
      // With several builds, each round starts with another one (the machine's load drifts).
      const order = targets.map((_, i) => targets[(i + r) % targets.length]);
      if (sequential) {
        // Alternating, so every side sees the same machine: a direct send, then one through each API.
        const d: StreamResult[] = [];
        const v = new Map<Target, StreamResult[]>(targets.map((t) => [t, []]));
        const watches = targets.map((t) => ({ t, api: new ProcessWatch(t.api.pid, true), db: t.database.pid ? new ProcessWatch(t.database.pid) : null }));
        const stubWatch = new ProcessWatch(stub.pid);
        const relayWatch = relay ? new ProcessWatch(relay.pid) : null;
        const relayed: StreamResult[] = [];
        const window0 = process.hrtime.bigint();
        const reached = new Map<Target, number[]>(targets.map((t) => [t, []]));
        const directReached: number[] = [];
        // One stream alone, into `results`, and when its request reached the stub (into `reachedAt`).
        const alone = async (spec: StreamSpec, results: StreamResult[], reachedAt: number[]) => {
          await stub.arrivals();
          const result = await openStream(spec, Date.now() + STREAM_DEADLINE_MS);
          results.push(result);
          const [at] = await stub.arrivals();
          if (at !== undefined) reachedAt.push(at - result.openedAt);
          return { result, at };
        };
        for (let i = 0; i < n; i++) {
          await alone(directSpec(), d, directReached);
          if (relay) relayed.push(await openStream(relaySpec(), Date.now() + STREAM_DEADLINE_MS));
          for (const t of order) {
            const { result, at } = await alone(apiSpec(t.api, sends.get(t)![i]), v.get(t)!, reached.get(t)!);
            if (process.env.BENCH_BURST_PROBE) console.log(`SEND ${t.build.label} ${result.openedAt.toFixed(3)} ${at?.toFixed(3)} ${(result.openedAt + result.firstToken).toFixed(3)}`);
          }
        }
        if (process.env.BENCH_WINDOW) console.log(`WINDOW ${level} ${window0 / 1000n} ${process.hrtime.bigint() / 1000n}`);
        const stubStats = stubWatch.stop();
        const relayRound = relayWatch ? { result: summarise(relayed, NaN), stats: relayWatch.stop() } : null;
        const direct = { ...summarise(d, NaN), arrivals: directReached };
        for (const w of watches) {
          const api = summarise(v.get(w.t)!, NaN);
          api.arrivals = reached.get(w.t)!;
          w.t.rounds.push({ direct, relay: relayRound, api, apiStats: w.api.stop(), dbStats: w.db?.stop() ?? null, stubStats, reads: { burst: [], rest: [], errors: 0 } });
        }
      } else {
        const stubWatch = new ProcessWatch(stub.pid);
        const direct = await burst(Array.from({ length: n }, directSpec), stub);
        const stubStats = stubWatch.stop();
        let relayRound: Round['relay'] = null;
        if (relay) {
          await sleep(1000);
          const relayWatch = new ProcessWatch(relay.pid);
          const result = await burst(Array.from({ length: n }, relaySpec), stub);
          relayRound = { result, stats: relayWatch.stop() };
        }
        for (const t of order) {
          await sleep(500);
          // The read at rest, then the same read beside the burst.
          const atRest = readProbe(t.api.base, t.tokens);
          await sleep(READ_REST_MS);
          const rest = await atRest.stop();
          await sleep(500);
          const beside = readProbe(t.api.base, t.tokens);
          // CPU and memory of the API and the database are read over the API burst only.
          const apiWatch = new ProcessWatch(t.api.pid, true);
          const dbWatch = t.database.pid ? new ProcessWatch(t.database.pid) : null;
          const window0 = process.hrtime.bigint();
          const endTimeline = timeline({ api: t.api.pid, db: t.database.pid });
          const clientWatch = new ProcessWatch(process.pid);
          const viaApi = await burst(sends.get(t)!.map((s) => apiSpec(t.api, s)), stub);
          state.clientCpu = clientWatch.stop().cpuPercent;
          const during = await beside.stop();
          endTimeline();
          if (process.env.BENCH_WINDOW) console.log(`WINDOW ${level} ${t.build.label} ${window0 / 1000n} ${process.hrtime.bigint() / 1000n}`);
          t.rounds.push({ direct, relay: relayRound, api: viaApi, apiStats: apiWatch.stop(), dbStats: dbWatch?.stop() ?? null, stubStats, reads: { burst: during.times, rest: rest.times, errors: rest.errors + during.errors } });
        }
      }
      for (const t of targets) {
        const round = t.rounds.at(-1)!;
        printRound(level, r, round, t.build);
        if (process.env.BENCH_BURST_DECILES) {
          const d = (v: number[]) => [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 100].map((p) => f(pct(v, p), 0)).join(' ');
          console.log(`   deciles (0 10 .. 90 95 99 100): provider reached ${d(round.api.arrivals)}; first token ${d(round.api.firstTokens)}`);
          const over = pct(round.api.latencies, 99);
          const places = round.api.byPlace.map((l, i) => `${PLACE_NAMES[i]}: p99 ${f(pct(l, 99), 1)} ms, ${l.filter((v) => v > over).length} of ${l.length} over the p99`);
          console.log(`   chunks by their place in the stream (the round's p99 ${f(over, 1)} ms): ${places.join('; ')}`);
        }
      }
      await sleep(1500);
    }
    reportRelay(level, targets[0].rounds);
    for (const t of targets) report(level, t.rounds, t.build);
    if (HEAP_DIR && !sequential) {
      for (const t of targets) {
        await t.api.stop();
        t.api = await heapRound(level, stub, t.database, t.tokens.length, t.build);
      }
    }
  } finally {
    await stopAll();
  }
}

// One more burst on a fresh API started with --heapsnapshot-signal: a snapshot while idle (after a
// warm-up), one with every stream open (once all have had their first token). Not timed.
async function heapRound(level: number, stub: Stub, database: Database, users: number, build: Build): Promise<Api> {
  const dir = join(HEAP_DIR!, `burst-${level}${BUILDS.length > 1 ? `-${build.label}` : ''}`);
  mkdirSync(dir, { recursive: true });
  const api = await startApi(stub, database, build, dir);
  // A new process signs with a new secret (its own DATA_DIR): the users sign in again.
  const tokens = await signIn(api, users, level);
  const snap = async (label: string) => {
    const before = new Set(readdirSync(dir));
    api.process.kill('SIGUSR2');
    // Written when the file stops growing.
    for (let last = -1, waited = 0; ; waited++) {
      if (waited > 120) throw new Error(`no heap snapshot in ${dir} after 120 s`);
      await sleep(1000);
      const file = readdirSync(dir).find((x) => !before.has(x) && x.endsWith('.heapsnapshot'));
      if (!file) continue;
      const size = statSync(join(dir, file)).size;
      if (size === last && size > 0) {
        console.log(`   heap snapshot (${label}): ${join(dir, file)} (${f(mb(size))} MB)`);
        return;
      }
      last = size;
    }
  };
  const warm = await freshStories(api, tokens, WARM_STREAMS);
  await burst(warm.map((s) => apiSpec(api, s)));
  await sleep(2000);
  await snap('idle');
  const sends = await freshStories(api, tokens, level);
  const seen0 = firstTokensSoFar();
  const running = burst(sends.map((s) => apiSpec(api, s)));
  // Once every stream has had its first token (all are open and relaying), or after 30 s.
  for (let waited = 0; firstTokensSoFar() - seen0 < level && waited < 30_000; waited += 50) await sleep(50);
  await snap(`${level} streams open`);
  await running;
  return api;
}

export async function run(): Promise<void> {
  for (const build of BUILDS) if (!existsSync(build.main)) throw new Error(`${build.main} does not exist (apps/api not built? run pnpm build)`);
  const started = Date.now();
  console.log(
    `Burst benchmark: levels ${LEVELS.map((l) => `${l.n}${l.paid ? ' (paid)' : ''}`).join(', ')}; ${ROUNDS} round(s) each; stub: first token after ${FIRST_MS} ms, ${CHUNKS} chunks ${CHUNK_MS} ms apart;` +
      ` model ${MODEL}; prologue ${PROLOGUE.length} chars; ${STREAMS_PER_USER} streams per user; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} CPUs`,
  );
  const stub = await startStub();
  const relay = WITH_RELAY ? await startRelay(stub) : null;
  try {
    for (const level of LEVELS) {
      state.levelModel = level.paid ? 'paid' : MODEL;
      // The bare relay has no model: its figures are those of the free levels.
      await runLevel(level.n, stub, level.paid ? null : relay);
    }
  } finally {
    await relay?.stop();
    await stub.stop();
  }
  console.log(`\nBurst benchmark done in ${Math.round((Date.now() - started) / 1000)} s (database: ${databaseKind()})`);
}

if (require.main === module) {
  run()
    .then(async () => {
      const { printTable } = await import('./support/report');
      if (process.env.BENCH_BURST_RECORDS) printTable();
      printSummary();
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
