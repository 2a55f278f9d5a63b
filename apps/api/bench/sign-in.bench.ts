/**
 * A burst of sign-ins: N registrations opened at the same instant (a class signing up together) against
 * the built API (`dist/main.js`, the web app's files served by it), and, all through the burst, what
 * everyone else sees: `GET /api/health` (a database ping) and `GET /` (the web app's page, a file read
 * on libuv's pool), each asked every 20 ms, against the same asked at rest just before. Each password
 * hash is argon2 (about 25 ms of a core, on a thread of libuv's pool): PASSWORD_HASH_CONCURRENCY says how
 * many run at once. Both settings below run in the same rounds, alternately, each its own API process
 * and database. Prints a table; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:sign-in
 *   BENCH_SIGNIN_N=200 BENCH_SIGNIN_ROUNDS=3   registrations per burst, rounds
 *   BENCH_SIGNIN_CONCURRENCY=4,default        the PASSWORD_HASH_CONCURRENCY settings compared (4: every hash
 *                                             at once on libuv's default pool, as before the limit)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiProcessEnv, freePort, startDatabaseProcess, stopProcess, waitHealthy, type DatabaseProcess } from './support/processes';
import { record, runAlone } from './support/report';
import { pct } from './support/stats';

const N = Number(process.env.BENCH_SIGNIN_N ?? 200);
const ROUNDS = Number(process.env.BENCH_SIGNIN_ROUNDS ?? 3);
const PROBE_EVERY_MS = 20;
const AT_REST_MS = 1000;
const apiDir = resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Setting {
  label: string;
  env: Record<string, string>;
}
// By default every hash at once on the pool's 4 threads (as before the limit), and the default.
const SETTINGS: Setting[] = (process.env.BENCH_SIGNIN_CONCURRENCY ?? '4,default').split(',').map(
  (value): Setting => (value === 'default' ? { label: 'default', env: {} } : { label: value, env: { PASSWORD_HASH_CONCURRENCY: value } }),
);

interface Api {
  base: string;
  child: ChildProcess;
  database: DatabaseProcess;
}

async function startApi(setting: Setting): Promise<Api> {
  const database = await startDatabaseProcess();
  const port = await freePort();
  const uri = new URL(database.uri);
  uri.pathname = `/bench_sign_in`;
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: apiDir,
    env: {
      ...apiProcessEnv(port, mkdtempSync(join(tmpdir(), 'taleloom-bench-sign-in-')), uri.toString(), 'warn'),
      // The engine is measured, not the per-IP limit (every client here is 127.0.0.1).
      LOGIN_IP_PER_MINUTE: '1000000',
      ...setting.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(child, base);
  return { base, child, database };
}

async function stopApi(api: Api): Promise<void> {
  await stopProcess(api.child, 10_000);
  await api.database.stop();
}

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

/** Asks `url` every PROBE_EVERY_MS (one at a time) until `stop` resolves; the times it took. */
async function probe(url: string, stop: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let stopped = false;
  void stop.then(() => (stopped = true));
  while (!stopped) {
    times.push((await timed(url)).ms);
    await sleep(PROBE_EVERY_MS);
  }
  return times;
}

interface Round {
  signIns: number[];
  errors: number;
  seconds: number;
  health: number[];
  page: number[];
  healthAtRest: number[];
  pageAtRest: number[];
}

async function round(api: Api, r: number): Promise<Round> {
  const atRest = sleep(AT_REST_MS);
  const [healthAtRest, pageAtRest] = await Promise.all([probe(`${api.base}/api/health`, atRest), probe(`${api.base}/`, atRest)]);
  const started = performance.now();
  const stamp = Date.now().toString(36);
  const burst = Promise.all(
    Array.from({ length: N }, (_, i) =>
      timed(`${api.base}/api/user/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'username', userName: `b${stamp}r${r}u${i}`, password: 'secret1' }),
      }),
    ),
  );
  const [results, health, page] = await Promise.all([burst, probe(`${api.base}/api/health`, burst), probe(`${api.base}/`, burst)]);
  return {
    signIns: results.filter((x) => x.status === 200).map((x) => x.ms),
    errors: results.filter((x) => x.status !== 200).length,
    seconds: (performance.now() - started) / 1000,
    health,
    page,
    healthAtRest,
    pageAtRest,
  };
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const median = (values: number[]) => pct(values, 50);

export async function run(): Promise<void> {
  console.log(`Sign-in burst: ${N} registrations at once, ${ROUNDS} round(s); ${cpus().length} CPUs, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  const rounds = new Map<Setting, Round[]>(SETTINGS.map((s) => [s, []]));
  for (let r = 0; r < ROUNDS; r++) {
    // Alternately first: the machine's load drifts.
    const order = r % 2 ? [...SETTINGS].reverse() : SETTINGS;
    for (const setting of order) {
      const api = await startApi(setting);
      try {
        // Warm-up, not timed: a fresh process compiles its hot paths on its first requests.
        await Promise.all(Array.from({ length: 20 }, (_, i) => timed(`${api.base}/api/user/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'username', userName: `warm${r}u${i}`, password: 'secret1' }) })));
        const result = await round(api, r);
        rounds.get(setting)!.push(result);
        console.log(
          `   round ${r + 1}, ${setting.label}: ${N} sign-ins in ${result.seconds.toFixed(2)} s (p50 ${f(median(result.signIns))}, p99 ${f(pct(result.signIns, 99))} ms, ${result.errors} errors); ` +
            `meanwhile /api/health p50 ${f(median(result.health))} p99 ${f(pct(result.health, 99))} ms (at rest ${f(median(result.healthAtRest))}), ` +
            `/ p50 ${f(median(result.page))} p99 ${f(pct(result.page, 99))} ms (at rest ${f(median(result.pageAtRest))})`,
        );
      } finally {
        await stopApi(api);
      }
    }
  }
  // Per setting: the median over rounds of each round's figure.
  const over = (list: Round[], pick: (x: Round) => number) => median(list.map(pick));
  for (const setting of SETTINGS) {
    const list = rounds.get(setting)!;
    const what = `${N} registrations at once, PASSWORD_HASH_CONCURRENCY ${setting.label} (median of ${list.length} rounds)`;
    record({ suite: 'sign-in', measure: `sign-in time, ${what}`, unit: 'ms', median: over(list, (x) => median(x.signIns)), p99: over(list, (x) => pct(x.signIns, 99)), note: `errors ${list.reduce((n, x) => n + x.errors, 0)}` });
    record({
      suite: 'sign-in',
      measure: `GET /api/health meanwhile, ${what}`,
      unit: 'ms',
      median: over(list, (x) => median(x.health)),
      p99: over(list, (x) => pct(x.health, 99)),
      baseline: { label: 'at rest', median: over(list, (x) => median(x.healthAtRest)), p99: over(list, (x) => pct(x.healthAtRest, 99)) },
    });
    record({
      suite: 'sign-in',
      measure: `GET / (the web app's page) meanwhile, ${what}`,
      unit: 'ms',
      median: over(list, (x) => median(x.page)),
      p99: over(list, (x) => pct(x.page, 99)),
      baseline: { label: 'at rest', median: over(list, (x) => median(x.pageAtRest)), p99: over(list, (x) => pct(x.pageAtRest, 99)) },
    });
  }
}

if (require.main === module) runAlone(run);
