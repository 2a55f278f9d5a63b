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
 *   BENCH_BURST_RELAY=0                 without the bare relay (by default each round also sends the burst through a
 *                                       bare streaming relay, support/relay-process.ts: what a chat front end's proxy
 *                                       such as SillyTavern's does, with no accounts, stories, database or money)
 *   MONGODB_URI                         a real MongoDB instead (a database name per level; no DB figures)
 */
import 'reflect-metadata';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StubBehaviour } from '../test/support/openai-stub';
import { cpuSeconds, ProcessWatch, processTree, rssBytes } from './support/process-stats';
import { apiProcessEnv, freePort, signInAs, startDatabaseProcess, stopProcess, waitHealthy } from './support/processes';
import { record } from './support/report';
import { pct } from './support/stats';
import { startFlags } from './support/start-flags';

// A level with a `p` (`500p`) sends to the paid platform model: each send holds power and settles it.
const LEVELS = (process.env.BENCH_BURST_LEVELS ?? '1,100,500,1000,100p,500p')
  .split(',')
  .map((l) => /^(\d+)(p?)$/.exec(l.trim()))
  .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) > 0)
  .map((m) => ({ n: Number(m[1]), paid: m[2] === 'p' }));
const ROUNDS = Number(process.env.BENCH_BURST_ROUNDS ?? 3);
const SEQ_N = Number(process.env.BENCH_BURST_SEQ ?? 20);
const CHUNKS = Number(process.env.BENCH_BURST_CHUNKS ?? 200);
const CHUNK_MS = Number(process.env.BENCH_BURST_CHUNK_MS ?? 20);
const FIRST_MS = Number(process.env.BENCH_BURST_FIRST_MS ?? 200);
const MODEL = process.env.BENCH_BURST_MODEL === 'paid' ? 'paid' : 'free';
// The model of the level being run (MODEL, or paid for a `p` level).
let levelModel: 'free' | 'paid' = MODEL;
const modelNote = () => (levelModel === 'paid' ? ', paid model' : '');
const LOG_LEVEL = process.env.BENCH_BURST_LOG_LEVEL ?? 'info';
const HEAP_DIR = process.env.BENCH_BURST_HEAP_DIR;
const API_LOG = process.env.BENCH_BURST_API_LOG;
// As the independent harness: 20 streams per user (the per-user send limit raised).
const STREAMS_PER_USER = Number(process.env.BENCH_BURST_PER_USER ?? 20);
const WARM_STREAMS = Number(process.env.BENCH_BURST_WARM ?? 100);
const WITH_RELAY = process.env.BENCH_BURST_RELAY !== '0';
let relayWarm = false;
// A stream that has not ended by then is cut and counted as an error: the bench always ends.
const STREAM_DEADLINE_MS = Number(process.env.BENCH_BURST_DEADLINE_MS ?? 120_000);
const apiDir = resolve(__dirname, '..');
// The plain read timed beside each burst (and at rest, just before it): READERS signed-in clients
// reading their story list one after another, READ_PAUSE_MS apart, on kept-alive connections.
const READERS = Number(process.env.BENCH_BURST_READERS ?? 50);
const READ_PAUSE_MS = Number(process.env.BENCH_BURST_READ_PAUSE_MS ?? 100);
const READ_REST_MS = Number(process.env.BENCH_BURST_READ_REST_MS ?? 2000);

/** An API build to measure: its entry point, extra node arguments and environment (e.g. API_WORKERS=2). */
interface Build {
  label: string;
  main: string;
  nodeArgs: string[];
  env: Record<string, string>;
}

/**
 * BENCH_BURST_BUILDS compares builds in one run, each with its own database and API process, every
 * round measuring each of them against the same direct burst (in a rotating order):
 * `label=path/to/main.js[ node args][ NAME=value],label2=...`; `label=` alone is the built dist/main.js;
 * NAME=value words are set in the API's environment (API_WORKERS=2: several processes on one port,
 * whose CPU and peak RSS are summed).
 * e.g. BENCH_BURST_BUILDS="base=bench-builds/base/main.js,new=,cores=dist/main.js API_WORKERS=2".
 */
// The node flags of `pnpm start`.
const START_FLAGS = startFlags();
const BUILDS: Build[] = (process.env.BENCH_BURST_BUILDS ?? 'api=')
  .split(',')
  .filter(Boolean)
  .map((spec) => {
    const [label, rest = ''] = spec.split(/=(.*)/s);
    const words = rest.trim().split(/\s+/).filter(Boolean);
    const env = Object.fromEntries(words.filter((w) => /^[A-Z][A-Z0-9_]*=/.test(w)).map((w) => w.split(/=(.*)/s).slice(0, 2)));
    const [given, ...nodeArgs] = words.filter((w) => !/^[A-Z][A-Z0-9_]*=/.test(w));
    const main = given ? resolve(apiDir, given) : join(apiDir, 'dist', 'main.js');
    // The current build runs with the flags `pnpm start` gives it; a copied one with those given after its path.
    const current = main === join(apiDir, 'dist', 'main.js');
    return { label: label.trim(), main, nodeArgs: current ? [...START_FLAGS.filter((f) => !nodeArgs.includes(f)), ...nodeArgs] : nodeArgs, env };
  });

const wallClock = () => performance.timeOrigin + performance.now();
const median = (values: readonly number[]) => pct(values.filter(Number.isFinite), 50);
const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const mb = (bytes: number) => bytes / 1048576;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

// ---------------------------------------------------------------- processes

interface Stub {
  baseURL: string;
  pid: number;
  set(b: StubBehaviour): Promise<void>;
  lastBody(): Promise<unknown>;
  /** Wall-clock arrival times of the chat requests since the last call. */
  arrivals(): Promise<number[]>;
  stop(): Promise<void>;
}

/**
 * A support process of this benchmark (support/<file>), forked with IPC: its first message (what it
 * says once it listens), and its stop (it exits when this process lets go of it).
 */
async function forkSupport<Hello>(
  file: string,
  args: string[],
  name: string,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; hello: Hello; stop(): Promise<void> }> {
  const child = own(fork(join(__dirname, 'support', file), args, { cwd: apiDir, execArgv: ['-r', '@swc-node/register', ...nodeArgs], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const hello = await new Promise<Hello>((done, fail) => {
    child.once('message', (m: Hello) => done(m));
    child.once('exit', (code) => fail(new Error(`the ${name} exited with ${code}`)));
  });
  const stop = async () => {
    child.disconnect();
    await new Promise((r) => child.once('exit', r));
  };
  return { child, hello, stop };
}

async function startStub(): Promise<Stub> {
  const { child, hello, stop } = await forkSupport<{ url: string }>('stub-process.ts', [], 'stub');
  const ask = <T>(message: object, key: string) =>
    new Promise<T>((done) => {
      const on = (m: Record<string, unknown>) => {
        if (key in m) {
          child.off('message', on);
          done(m[key] as T);
        }
      };
      child.on('message', on);
      child.send(message);
    });
  return {
    baseURL: hello.url,
    pid: child.pid!,
    set: async (b) => void (await ask<boolean>({ set: b }, 'ok')),
    lastBody: () => ask<unknown>({ lastBody: true }, 'body'),
    arrivals: () => ask<number[]>({ arrivals: true }, 'arrivals'),
    stop,
  };
}

interface Relay {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

// The bare relay (support/relay-process.ts) in a process of its own, sending on to the stub.
async function startRelay(stub: Stub): Promise<Relay> {
  const nodeArgs = (process.env.BENCH_RELAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const { child, hello, stop } = await forkSupport<{ port: number }>('relay-process.ts', [stub.baseURL], 'relay', nodeArgs);
  return { url: `http://127.0.0.1:${hello.port}/chat/completions`, pid: child.pid!, stop };
}

interface Database {
  uri: string;
  pid: number | null;
  stop(): Promise<void>;
}

// The embedded database in a process of its own (a fresh one per level), or MONGODB_URI with a database name per level.
async function startDatabase(level: number): Promise<Database> {
  if (process.env.MONGODB_URI) {
    const uri = new URL(process.env.MONGODB_URI);
    uri.pathname = `/bench_burst_${level}_${Date.now().toString(36)}`;
    return { uri: uri.toString(), pid: null, stop: async () => undefined };
  }
  const database = await startDatabaseProcess();
  own(database.child);
  databaseKind = database.kind || databaseKind;
  return { uri: database.uri, pid: database.child.pid!, stop: database.stop };
}

let databaseKind = process.env.MONGODB_URI ? 'MONGODB_URI' : 'embedded';

// Every process this benchmark starts, stopped with it whatever happens.
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
// Stopped from outside (Ctrl+C, kill): the processes it started go with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
function own(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

interface Api {
  base: string;
  pid: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

async function startApi(stub: Stub, database: Database, build: Build, heapDir?: string): Promise<Api> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-bench-burst-'));
  const model = (value: string, points: number) => ({ label: value, value, points, contextWindow: 8192, maxOutput: 512, baseURL: stub.baseURL });
  const nodeArgs = [
    ...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ...build.nodeArgs,
    ...(heapDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapDir}`] : []),
  ];
  const child = own(spawn(process.execPath, [...nodeArgs, build.main], {
    cwd: apiDir,
    env: {
      ...apiProcessEnv(port, dataDir, database.uri, LOG_LEVEL),
      MODELS_JSON: JSON.stringify([model('free', 0), model('paid', 10)]),
      WEB_DIST_DIR: join(tmpdir(), 'no-web'),
      // The limits raised, as in the harness: the engine is measured, not the per-user or per-IP limits.
      GENERATION_USER_PER_MINUTE: '1000000',
      LOGIN_IP_PER_MINUTE: '1000000',
      ...build.env,
    },
    stdio: ['ignore', API_LOG ? openSync(API_LOG, 'a') : 'ignore', 'inherit'],
  }));
  child.on('exit', (code, signal) => {
    if (!stopping) console.log(`   the API process exited by itself (code ${code}, signal ${signal})${API_LOG ? `; its log: ${API_LOG}` : '; BENCH_BURST_API_LOG=<file> keeps its log'}`);
  });
  let stopping = false;
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(child, base);
  return {
    base,
    pid: child.pid!,
    process: child,
    stop: async () => {
      stopping = true;
      if (await stopProcess(child, 15_000)) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- users and stories

async function signIn(api: Api, n: number, level: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const token = await signInAs(api.base, `burst${level}u${i}`);
    if (levelModel === 'paid') {
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

// ---------------------------------------------------------------- streams

// One connection per stream, no keep-alive: each stream is a new client, as in a burst of users.
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

interface StreamResult {
  /** Wall-clock time the request was opened. */
  openedAt: number;
  /** Request sent to first token (ms); NaN when none came. */
  firstToken: number;
  /** Per chunk: arrival minus the stub's send time (ms). */
  latencies: number[];
  error: string | null;
}

interface StreamSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** 'api': TaleLoom's events; 'direct': the provider's chunks. */
  kind: 'api' | 'direct';
  /** Close after the first token (a direct stream at level 1: the stub stops sending). */
  untilFirst?: boolean;
}

// The stub's stamp, `t=<ms>;`, in a chunk's text.
function stampOf(event: string): number {
  const at = event.indexOf('t=');
  if (at < 0) return NaN;
  return Number(event.slice(at + 2, event.indexOf(';', at)));
}

// The benchmark's own CPU (its clients) over the last API burst, % of one core.
let clientCpu = NaN;
// First tokens received so far (the timeline counts them).
let firstTokensSeen = 0;
// The chunk latencies seen since the timeline's last line (only while a timeline runs).
let windowLatencies: number[] | null = null;

/**
 * With BENCH_BURST_TIMELINE: every 250 ms, the API's and the database's CPU (% of one core) over the
 * last 250 ms, the API's RSS and how many streams have had their first token.
 */
function timeline(pids: { api: number; db: number | null }): () => void {
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
function openStream(spec: StreamSpec, deadline: number): Promise<StreamResult> {
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
      let buffer = '';
      res.on('data', (text: string) => {
        const at = wallClock();
        buffer += text;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let chunk = false;
          if (spec.kind === 'api') {
            if (event.startsWith('data: {"type":"delta"')) chunk = true;
            else if (event.startsWith('data: {"type":"done"')) sawEnd = true;
            else if (event.startsWith('data: {"type":"error"')) return finish(`error event: ${event.slice(6, 200)}`);
          } else if (event.startsWith('data: [DONE]')) sawEnd = true;
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
        if (res.statusCode !== 200) finish(`status ${res.statusCode}: ${buffer.slice(0, 200)}`);
        else finish(sawEnd ? null : 'ended without done');
      });
      res.on('error', (e) => finish(e.message));
      res.on('aborted', () => finish('aborted'));
    });
    req.on('error', (e) => finish((e as NodeJS.ErrnoException).code ?? e.message));
    req.end(spec.body);
  });
}

interface BurstResult {
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
const PLACE_ENDS = [1, 5, 20, Infinity];
const PLACE_NAMES = ['1st', '2nd-5th', '6th-20th', 'later'];

function summarise(results: StreamResult[], seconds: number): BurstResult {
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
async function burst(specs: StreamSpec[], stub?: Stub): Promise<BurstResult> {
  await stub?.arrivals();
  const t0 = Date.now();
  const wall0 = wallClock();
  const deadline = t0 + STREAM_DEADLINE_MS;
  const results = await Promise.all(specs.map((s) => openStream(s, deadline)));
  const out = summarise(results, (Date.now() - t0) / 1000);
  if (stub) out.arrivals = (await stub.arrivals()).map((at) => at - wall0);
  return out;
}


const readAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** READERS clients reading GET /api/user/story-list over and over until stopped: each read's time (ms). */
function readProbe(base: string, tokens: string[]): { stop(): Promise<{ times: number[]; errors: number }> } {
  let going = true;
  let errors = 0;
  const times: number[] = [];
  const one = (token: string) =>
    new Promise<void>((done) => {
      const t0 = performance.now();
      const req = httpRequest(`${base}/api/user/story-list`, { agent: readAgent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) times.push(performance.now() - t0);
          else errors++;
          done();
        });
        res.on('error', () => (errors++, done()));
      });
      req.on('error', () => (errors++, done()));
      req.end();
    });
  const client = async (i: number) => {
    while (going) {
      await one(tokens[i % tokens.length]);
      if (going) await sleep(READ_PAUSE_MS);
    }
  };
  const clients = Array.from({ length: READERS }, (_, i) => client(i));
  return {
    stop: async () => {
      going = false;
      await Promise.all(clients);
      return { times, errors };
    },
  };
}

// ---------------------------------------------------------------- a level

interface Round {
  /** The same burst through the bare relay (null: BENCH_BURST_RELAY=0). */
  relay: { result: BurstResult; stats: ReturnType<ProcessWatch['stop']> } | null;
  direct: BurstResult;
  api: BurstResult;
  apiStats: ReturnType<ProcessWatch['stop']>;
  dbStats: ReturnType<ProcessWatch['stop']> | null;
  stubStats: ReturnType<ProcessWatch['stop']>;
  /** The story list's read times (ms) beside the API burst and at rest just before it (empty at level 1). */
  reads: { burst: number[]; rest: number[]; errors: number };
}

const apiSpec = (api: Api, send: Send): StreamSpec => ({
  url: `${api.base}/api/llm/${send.story}`,
  headers: { Authorization: `Bearer ${send.token}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ role: 'Mara', content: 'I open the shutter and signal twice toward the water.', model_name: levelModel }),
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
          clientCpu = clientWatch.stop().cpuPercent;
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
  const seen0 = firstTokensSeen;
  const running = burst(sends.map((s) => apiSpec(api, s)));
  // Once every stream has had its first token (all are open and relaying), or after 30 s.
  for (let waited = 0; firstTokensSeen - seen0 < level && waited < 30_000; waited += 50) await sleep(50);
  await snap(`${level} streams open`);
  await running;
  return api;
}

function printRound(level: number, r: number, round: Round, build: Build): void {
  const { direct, api, reads } = round;
  const tag = BUILDS.length > 1 ? ` [${build.label}]` : '';
  const errors = [...api.errorKinds].map(([k, v]) => `${v}x ${k}`).join('; ');
  const read = reads.rest.length ? `; read p50/p99 rest ${f(pct(reads.rest, 50), 0)}/${f(pct(reads.rest, 99), 0)} burst ${f(pct(reads.burst, 50), 0)}/${f(pct(reads.burst, 99), 0)} ms${reads.errors ? ` (${reads.errors} failed)` : ''}` : '';
  console.log(
    `   round ${r + 1}${tag}: first token added p50 ${f(pct(api.firstTokens, 50) - pct(direct.firstTokens, 50))} p99 ${f(pct(api.firstTokens, 99) - pct(direct.firstTokens, 99))} ms;` +
      ` chunk p99 added ${f(pct(api.latencies, 99) - pct(direct.latencies, 99))} ms${read}; errors ${api.errors}${errors ? ` (${errors})` : ''}${direct.errors ? `, direct errors ${direct.errors}` : ''};` +
      ` API ${f(round.apiStats.cpuPercent, 0)}% CPU, peak ${f(mb(round.apiStats.peakRss), 0)} MB` +
      (round.dbStats ? `; DB ${f(round.dbStats.cpuPercent, 0)}% CPU` : '') +
      `; client ${f(clientCpu, 0)}%${level > 1 ? `; ${f(api.seconds)} s` : ''}`,
  );
  if (round.relay && build === BUILDS[0]) {
    const { result: relayed, stats } = round.relay;
    console.log(
      `   round ${r + 1} bare relay: first token added p50 ${f(pct(relayed.firstTokens, 50) - pct(direct.firstTokens, 50))} p99 ${f(pct(relayed.firstTokens, 99) - pct(direct.firstTokens, 99))} ms;` +
        ` chunk p99 added ${f(pct(relayed.latencies, 99) - pct(direct.latencies, 99))} ms; errors ${relayed.errors}; relay ${f(stats.cpuPercent, 0)}% CPU, peak ${f(mb(stats.peakRss), 0)} MB`,
    );
  }
}

/** One row of the closing table: a side's medians over the rounds of a level, with their min-max. */
interface SummaryRow {
  level: string;
  side: string;
  cells: string[];
}
const summary: SummaryRow[] = [];
const SUMMARY_HEAD = ['first token added p50', 'first token p50', 'chunk p99 added', 'read p99 burst', 'read p99 rest', 'errors', 'peak RSS MB'];
// "median [min-max]" of a figure over rounds.
function spread(values: number[], digits = 0): string {
  const v = values.filter(Number.isFinite);
  if (!v.length) return 'n/a';
  return `${f(median(v), digits)} [${f(Math.min(...v), digits)}-${f(Math.max(...v), digits)}]`;
}

function summaryRow(level: string, side: string, rounds: Round[], pick: (r: Round) => BurstResult, peak: number, reads: boolean): void {
  summary.push({
    level,
    side,
    cells: [
      spread(rounds.map((r) => pct(pick(r).firstTokens, 50) - pct(r.direct.firstTokens, 50))),
      spread(rounds.map((r) => pct(pick(r).firstTokens, 50))),
      spread(rounds.map((r) => pct(pick(r).latencies, 99) - pct(r.direct.latencies, 99)), 1),
      reads ? spread(rounds.map((r) => pct(r.reads.burst, 99))) : '',
      reads ? spread(rounds.map((r) => pct(r.reads.rest, 99))) : '',
      String(rounds.reduce((sum, r) => sum + pick(r).errors, 0)),
      f(mb(peak), 0),
    ],
  });
}

function printSummary(): void {
  if (!summary.length) return;
  console.log(`\n| level | side | ${SUMMARY_HEAD.join(' | ')} |\n|${'---|'.repeat(SUMMARY_HEAD.length + 2)}`);
  for (const row of summary) console.log(`| ${row.level} | ${row.side} | ${row.cells.join(' | ')} |`);
  console.log('(ms; median of rounds [min-max over rounds]; read: GET /api/user/story-list by the readers)');
}

/**
 * The latency figures of one side of the rounds (the API's, the bare relay's) and the same rounds' direct
 * burst, as medians of rounds: first token and per-chunk latency, what the side added to them, errors.
 */
function sideFigures(rounds: Round[], side: (r: Round) => BurstResult) {
  const of = (pick: (r: Round) => number) => median(rounds.map(pick));
  return {
    d50: of((r) => pct(r.direct.firstTokens, 50)),
    d99: of((r) => pct(r.direct.firstTokens, 99)),
    a50: of((r) => pct(side(r).firstTokens, 50)),
    a99: of((r) => pct(side(r).firstTokens, 99)),
    add50: of((r) => pct(side(r).firstTokens, 50) - pct(r.direct.firstTokens, 50)),
    add99: of((r) => pct(side(r).firstTokens, 99) - pct(r.direct.firstTokens, 99)),
    c50: of((r) => pct(side(r).latencies, 50)),
    c99: of((r) => pct(side(r).latencies, 99)),
    dc50: of((r) => pct(r.direct.latencies, 50)),
    dc99: of((r) => pct(r.direct.latencies, 99)),
    addC99: of((r) => pct(side(r).latencies, 99) - pct(r.direct.latencies, 99)),
    errors: rounds.reduce((sum, r) => sum + side(r).errors, 0),
    streams: rounds.reduce((sum, r) => sum + side(r).firstTokens.length + side(r).errors, 0),
    /** Per round: "rounds: a, b, c" of `pick`. */
    rounded: (pick: (r: Round) => number) => `rounds: ${rounds.map((r) => f(pick(r))).join(', ')}`,
  };
}

// The bare relay's figures of a level (the same in every build's rounds): the reference beside the API's.
function reportRelay(level: number, rounds: Round[]): void {
  const withRelay = rounds.filter((r) => r.relay);
  if (!withRelay.length) return;
  const of = (pick: (r: Round) => number) => median(withRelay.map(pick));
  const relayed = (r: Round) => r.relay!.result;
  const label = `bare relay, ${level === 1 ? `sequential (${SEQ_N} sends)` : `${level} opened at once`}`;
  const { d50, d99, a50, a99, add50, add99, c50, c99, dc50, dc99, addC99, errors, streams, rounded } = sideFigures(withRelay, relayed);
  const cpu = of((r) => r.relay!.stats.cpuPercent);
  const ms = of((r) => (r.relay!.stats.cpuSeconds * 1000) / Math.max(1, relayed(r).firstTokens.length + relayed(r).errors));
  const peak = Math.max(...withRelay.map((r) => r.relay!.stats.peakRss));
  summaryRow(level === 1 ? '1' : String(level), 'bare relay', withRelay, relayed, peak, false);
  console.log(
    `   ${label}, median of ${withRelay.length} round(s): first token added p50 ${f(add50)} ms, p99 ${f(add99)} ms; per-chunk added p99 ${f(addC99)} ms;` +
      ` errors ${errors}/${streams}; relay ${f(cpu, 0)}% CPU (${f(ms, 2)} ms a stream), peak RSS ${f(mb(peak))} MB`,
  );
  record({
    suite: 'burst',
    measure: `first token, ${label}`,
    unit: 'ms',
    median: a50,
    p99: a99,
    baseline: { label: 'direct to stub', median: d50, p99: d99 },
    note: `added p50 ${f(add50)} ms (${rounded((r) => pct(relayed(r).firstTokens, 50) - pct(r.direct.firstTokens, 50))}), added p99 ${f(add99)} ms; errors ${errors}/${streams}`,
  });
  record({
    suite: 'burst',
    measure: `per-chunk latency, ${label}`,
    unit: 'ms',
    median: c50,
    p99: c99,
    baseline: { label: 'direct to stub', median: dc50, p99: dc99 },
    note: `added p99 ${f(addC99)} ms (${rounded((r) => pct(relayed(r).latencies, 99) - pct(r.direct.latencies, 99))})`,
  });
  record({ suite: 'burst', measure: `relay process CPU time per stream, ${label}`, unit: 'ms', median: ms, note: `CPU ${f(cpu, 0)} % of one core; peak RSS ${f(mb(peak))} MB` });
}

function report(level: number, rounds: Round[], build: Build): void {
  const of = (pick: (r: Round) => number) => median(rounds.map(pick));
  const label = (level === 1 ? `sequential (${SEQ_N} sends)` : `${level} opened at once`) + modelNote() + (BUILDS.length > 1 ? ` [${build.label}]` : '');
  const { d50, d99, a50, a99, add50, add99, c50, c99, dc50, dc99, addC99, errors, streams, rounded } = sideFigures(rounds, (r) => r.api);
  const apiCpu = of((r) => r.apiStats.cpuPercent);
  const perStream = (r: Round, s: { cpuSeconds: number } | null) => (s ? (s.cpuSeconds * 1000) / Math.max(1, r.api.firstTokens.length + r.api.errors) : NaN);
  const apiMs = of((r) => perStream(r, r.apiStats));
  const dbMs = of((r) => perStream(r, r.dbStats));
  const apiPeak = Math.max(...rounds.map((r) => r.apiStats.peakRss));
  const dbCpu = of((r) => r.dbStats?.cpuPercent ?? NaN);
  const dbPeak = Math.max(...rounds.map((r) => r.dbStats?.peakRss ?? NaN));
  const goal = GOALS[level];
  summaryRow(`${level}${levelModel === 'paid' ? 'p' : ''}`, build.label, rounds, (r) => r.api, apiPeak, level > 1);
  console.log(
    `   ${label}, median of ${rounds.length} round(s): first token added p50 ${f(add50)} ms, p99 ${f(add99)} ms (ratio ${f(a50 / d50, 2)}x p50, ${f(a99 / d99, 2)}x p99);` +
      ` per-chunk added p99 ${f(addC99)} ms (${f(c99 / dc99, 2)}x); errors ${errors}/${streams};` +
      ` API ${f(apiCpu, 0)}% CPU (${f(apiMs, 2)} ms a stream), peak RSS ${f(mb(apiPeak))} MB; DB ${f(dbCpu, 0)}% CPU (${f(dbMs, 2)} ms a stream), peak RSS ${f(mb(dbPeak))} MB` +
      (goal ? `\n   goal: ${goal.text}` : ''),
  );
  record({
    suite: 'burst',
    measure: `first token, ${label}`,
    unit: 'ms',
    median: a50,
    p99: a99,
    baseline: { label: 'direct to stub', median: d50, p99: d99 },
    target: goal?.firstToken,
    met: goal?.firstTokenMet?.(add50, add99),
    note: `added p50 ${f(add50)} ms (${rounded((r) => pct(r.api.firstTokens, 50) - pct(r.direct.firstTokens, 50))}), added p99 ${f(add99)} ms (${rounded((r) => pct(r.api.firstTokens, 99) - pct(r.direct.firstTokens, 99))}); errors ${errors}/${streams}`,
  });
  record({
    suite: 'burst',
    measure: `per-chunk latency, ${label}`,
    unit: 'ms',
    median: c50,
    p99: c99,
    baseline: { label: 'direct to stub', median: dc50, p99: dc99 },
    target: goal?.chunk,
    met: goal?.chunkMet?.(addC99, errors),
    note: `added p99 ${f(addC99)} ms (${rounded((r) => pct(r.api.latencies, 99) - pct(r.direct.latencies, 99))}); errors ${errors}/${streams}`,
  });
  record({
    suite: 'burst',
    measure: `API process peak RSS, ${label}`,
    unit: 'MB',
    median: mb(apiPeak),
    target: goal?.rss,
    met: goal?.rssMet?.(mb(apiPeak)),
    note: `CPU ${f(apiCpu, 0)} % of one core (${rounded((r) => r.apiStats.cpuPercent)}); RSS before the first burst ${f(mb(rounds[0].apiStats.rssBefore))} MB`,
  });
  record({ suite: 'burst', measure: `API process CPU (one core = 100 %), ${label}`, unit: '%', median: apiCpu, note: rounded((r) => r.apiStats.cpuPercent) });
  // CPU time a stream costs: what the machine's other load changes least.
  record({ suite: 'burst', measure: `API process CPU time per stream, ${label}`, unit: 'ms', median: apiMs, note: rounded((r) => perStream(r, r.apiStats)) });
  if (rounds[0].dbStats) {
    record({ suite: 'burst', measure: `database process CPU (one core = 100 %), ${label}`, unit: '%', median: dbCpu, note: rounded((r) => r.dbStats!.cpuPercent) });
    record({ suite: 'burst', measure: `database process peak RSS, ${label}`, unit: 'MB', median: mb(dbPeak) });
    record({ suite: 'burst', measure: `database process CPU time per stream, ${label}`, unit: 'ms', median: dbMs, note: rounded((r) => perStream(r, r.dbStats)) });
  }
}

interface Goal {
  text: string;
  firstToken?: string;
  firstTokenMet?: (add50: number, add99: number) => boolean;
  chunk?: string;
  chunkMet?: (addC99: number, errors: number) => boolean;
  rss?: string;
  rssMet?: (peakMb: number) => boolean;
}

// Issue #17's goals (shown beside the figures; never a failure).
const GOALS: Record<number, Goal> = {
  1: { text: 'first token added p50 <= 2 ms, p99 <= 6 ms', firstToken: 'added p50 <= 2 ms, p99 <= 6 ms', firstTokenMet: (a, b) => a <= 2 && b <= 6 },
  100: {
    text: 'first token added p50 <= 100 ms; per-chunk added p99 <= 5 ms',
    firstToken: 'added p50 <= 100 ms',
    firstTokenMet: (a) => a <= 100,
    chunk: 'added p99 <= 5 ms',
    chunkMet: (c) => c <= 5,
  },
  500: {
    text: 'first token added p50 <= 400 ms, p99 <= 2000 ms; per-chunk added p99 <= 30 ms; API peak RSS <= 250 MB',
    firstToken: 'added p50 <= 400 ms, p99 <= 2000 ms',
    firstTokenMet: (a, b) => a <= 400 && b <= 2000,
    chunk: 'added p99 <= 30 ms',
    chunkMet: (c) => c <= 30,
    rss: '<= 250 MB',
    rssMet: (m) => m <= 250,
  },
  1000: {
    text: 'no errors; per-chunk added p99 <= 60 ms; API peak RSS <= 350 MB',
    chunk: 'added p99 <= 60 ms, no errors',
    chunkMet: (c, e) => c <= 60 && e === 0,
    rss: '<= 350 MB',
    rssMet: (m) => m <= 350,
  },
};

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
      levelModel = level.paid ? 'paid' : MODEL;
      // The bare relay has no model: its figures are those of the free levels.
      await runLevel(level.n, stub, level.paid ? null : relay);
    }
  } finally {
    await relay?.stop();
    await stub.stop();
  }
  console.log(`\nBurst benchmark done in ${Math.round((Date.now() - started) / 1000)} s (database: ${databaseKind})`);
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
