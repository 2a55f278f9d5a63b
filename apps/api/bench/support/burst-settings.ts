// The burst benchmark's settings (burst.bench.ts documents each BENCH_BURST_* variable), the builds it
// compares, and the small helpers its parts share.
import { join, resolve } from 'node:path';
import { pct } from './stats';
import { startFlags } from '../../test/support/start-flags';

// A level with a `p` (`500p`) sends to the paid platform model: each send holds power and settles it.
export const LEVELS = (process.env.BENCH_BURST_LEVELS ?? '1,100,500,1000,100p,500p')
  .split(',')
  .map((l) => /^(\d+)(p?)$/.exec(l.trim()))
  .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) > 0)
  .map((m) => ({ n: Number(m[1]), paid: m[2] === 'p' }));
export const ROUNDS = Number(process.env.BENCH_BURST_ROUNDS ?? 3);
export const SEQ_N = Number(process.env.BENCH_BURST_SEQ ?? 20);
export const CHUNKS = Number(process.env.BENCH_BURST_CHUNKS ?? 200);
export const CHUNK_MS = Number(process.env.BENCH_BURST_CHUNK_MS ?? 20);
export const FIRST_MS = Number(process.env.BENCH_BURST_FIRST_MS ?? 200);
export const MODEL = process.env.BENCH_BURST_MODEL === 'paid' ? 'paid' : 'free';
/**
 * What changes as the run goes: the model of the level being run (MODEL, or paid for a `p` level), and
 * the benchmark's own CPU (its clients) over the last API burst, % of one core.
 */
export const state: { levelModel: 'free' | 'paid'; clientCpu: number } = { levelModel: MODEL, clientCpu: NaN };
export const modelNote = () => (state.levelModel === 'paid' ? ', paid model' : '');
export const LOG_LEVEL = process.env.BENCH_BURST_LOG_LEVEL ?? 'info';
export const HEAP_DIR = process.env.BENCH_BURST_HEAP_DIR;
export const API_LOG = process.env.BENCH_BURST_API_LOG;
// As the independent harness: 20 streams per user (the per-user send limit raised).
export const STREAMS_PER_USER = Number(process.env.BENCH_BURST_PER_USER ?? 20);
export const WARM_STREAMS = Number(process.env.BENCH_BURST_WARM ?? 100);
export const WITH_RELAY = process.env.BENCH_BURST_RELAY !== '0';
// A stream that has not ended by then is cut and counted as an error: the bench always ends.
export const STREAM_DEADLINE_MS = Number(process.env.BENCH_BURST_DEADLINE_MS ?? 120_000);
export const apiDir = resolve(__dirname, '..', '..');
// The plain read timed beside each burst (and at rest, just before it): READERS signed-in clients
// reading their story list one after another, READ_PAUSE_MS apart, on kept-alive connections.
export const READERS = Number(process.env.BENCH_BURST_READERS ?? 50);
export const READ_PAUSE_MS = Number(process.env.BENCH_BURST_READ_PAUSE_MS ?? 100);
export const READ_REST_MS = Number(process.env.BENCH_BURST_READ_REST_MS ?? 2000);

/** An API build to measure: its entry point, extra node arguments and environment (e.g. API_WORKERS=2). */
export interface Build {
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
export const BUILDS: Build[] = (process.env.BENCH_BURST_BUILDS ?? 'api=')
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

export const wallClock = () => performance.timeOrigin + performance.now();
export const median = (values: readonly number[]) => pct(values.filter(Number.isFinite), 50);
export const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const mb = (bytes: number) => bytes / 1048576;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
