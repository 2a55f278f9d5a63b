/**
 * The floor under a send's work in a burst: the API's CPU for the cheapest requests it serves, N opened at
 * the same instant, each on a connection of its own (as a burst's players open them). A send does all of
 * this and more (its token, its body's validation, its story read, its turn's claim, its rate limit, its
 * prompt, its provider request, its stream and its settlement), so no send can cost less than these.
 * The burst benchmark's first-token goals give a send a budget of CPU on the API's one thread; this says
 * how far below the cheapest request that budget lies. Loopback only; bounded; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:floor
 *   BENCH_FLOOR_LEVELS=100,500,1000   requests opened at once
 *   BENCH_FLOOR_ROUNDS=3              rounds per route and level (after one warm-up burst)
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cpuSeconds } from './support/process-stats';
import { apiProcessEnv, freePort, signInAs, startDatabaseProcess, stopProcess, waitHealthy } from './support/processes';
import { record, runAlone } from './support/report';
import { pct } from './support/stats';
import { startFlags } from '../test/support/start-flags';

const LEVELS = (process.env.BENCH_FLOOR_LEVELS ?? '100,500,1000').split(',').map(Number).filter((n) => n > 0);
const ROUNDS = Number(process.env.BENCH_FLOOR_ROUNDS ?? 3);
const REQUEST_DEADLINE_MS = 30_000;
const apiDir = resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Route {
  label: string;
  path: string;
  signedIn: boolean;
}

const ROUTES: Route[] = [
  { label: 'GET /api/health (no token; one database ping)', path: '/api/health', signedIn: false },
  { label: 'GET /api/user/check-in-status (a token; one read)', path: '/api/user/check-in-status', signedIn: true },
];

// A connection per request, as a burst of players' browsers open them.
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

function get(base: string, path: string, token: string | null): Promise<number> {
  return new Promise((done) => {
    const req = httpRequest(`${base}${path}`, { agent, timeout: REQUEST_DEADLINE_MS, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', () => done(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(0));
    req.end();
  });
}

/** One burst of `n` requests at once: the API's CPU a request (ms), and how many answered 200. */
async function burst(api: { base: string; pid: number }, route: Route, token: string, n: number): Promise<{ cpuMs: number; ok: number }> {
  const before = cpuSeconds(api.pid);
  const codes = await Promise.all(Array.from({ length: n }, () => get(api.base, route.path, route.signedIn ? token : null)));
  // The API's last answers' after-work (their log lines, the sockets' close) is its CPU too.
  await sleep(300);
  return { cpuMs: ((cpuSeconds(api.pid) - before) * 1000) / n, ok: codes.filter((c) => c === 200).length };
}

export async function run(): Promise<void> {
  const database = await startDatabaseProcess();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-bench-floor-'));
  const api = spawn(process.execPath, [...startFlags(), join(apiDir, 'dist', 'main.js')], {
    cwd: apiDir,
    env: { ...apiProcessEnv(port, dataDir, database.uri, 'info'), WEB_DIST_DIR: join(tmpdir(), 'no-web'), LOGIN_IP_PER_MINUTE: '1000000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(api, base);
    const token = await signInAs(base, 'floor1');
    const target = { base, pid: api.pid! };
    console.log(`Floor benchmark: ${LEVELS.join(', ')} requests at once, ${ROUNDS} round(s) each; database: ${database.kind}`);
    for (const n of LEVELS) {
      for (const route of ROUTES) {
        await burst(target, route, token, n);
        const rounds: { cpuMs: number; ok: number }[] = [];
        for (let r = 0; r < ROUNDS; r++) rounds.push(await burst(target, route, token, n));
        const cpu = pct(rounds.map((x) => x.cpuMs), 50);
        console.log(`   ${route.label}, ${n} at once: API CPU a request ${rounds.map((x) => x.cpuMs.toFixed(2)).join(' / ')} ms (median ${cpu.toFixed(2)}); answered ${rounds.map((x) => x.ok).join(' / ')} of ${n}`);
        record({ suite: 'floor', measure: `API CPU a request, ${route.label}, ${n} at once (median of ${ROUNDS} rounds)`, unit: 'ms', median: cpu });
      }
    }
  } finally {
    await stopProcess(api, 10_000);
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) runAlone(run);
