/**
 * Rejoining running turns (GET /api/llm/{id}/stream), on two API processes of the built app on one
 * database (A runs the generations; B serves followers from the stored text), against the local stub
 * in a process of its own:
 *   1. the API processes' CPU and peak memory while 100 turns stream with no follower, with 100
 *      followers on A (from memory) and with 100 followers on B (from the store), rounds alternating;
 *   2. the time from a rejoin's request to its first event, on A and on B;
 *   3. 100 turns each cut once mid-turn and rejoined from the last event id (on A and on B in turn):
 *      characters lost and repeated against the stored turn.
 * Prints figures; never fails on a time (it fails when a character is lost or repeated).
 *
 *   pnpm --filter @taleloom/api bench:rejoin      (BENCH_REJOIN_TURNS=100, BENCH_REJOIN_ROUNDS=3, MONGODB_URI)
 */
import 'reflect-metadata';
import { spawn, fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StubBehaviour } from '../test/support/openai-stub';
import { sseEvents } from '../test/support/sse-blocks';
import { ProcessWatch } from './support/process-stats';
import { apiProcessEnv, freePort, signInAs, startDatabaseProcess, stopProcess, waitHealthy } from './support/processes';
import { record, runAlone } from './support/report';
import { startFlags } from '../test/support/start-flags';
import { pct } from './support/stats';

const TURNS = Number(process.env.BENCH_REJOIN_TURNS ?? 100);
const ROUNDS = Number(process.env.BENCH_REJOIN_ROUNDS ?? 3);
// 80 numbered pieces 25 ms apart: a turn of about 2 s, long enough to be followed from the store.
const PIECES = Array.from({ length: 80 }, (_, i) => `piece ${i} 潮水 `);
const apiDir = resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => bytes / 1024 / 1024;

interface Api {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

interface Read {
  events: { id: string | null; type: string; text: string }[];
  /** ms from the request to the first event. */
  firstEventMs: number;
}

async function startApi(uri: string, stubURL: string): Promise<Api> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-bench-rejoin-'));
  const built = join(apiDir, 'dist', 'main.js');
  const entry = existsSync(built) ? [...startFlags(), built] : ['-r', '@swc-node/register', 'src/main.ts'];
  const child: ChildProcess = spawn(process.execPath, entry, {
    cwd: apiDir,
    env: {
      ...apiProcessEnv(port, dataDir, uri, 'silent'),
      MODELS_JSON: JSON.stringify([{ label: 'free', value: 'free', points: 0, contextWindow: 8192, maxOutput: 200, baseURL: stubURL }]),
      WEB_DIST_DIR: join(tmpdir(), 'no-web'),
      GENERATION_USER_PER_MINUTE: '1000000',
      API_WORKERS: '1',
      // Both processes take each other's sessions (as the processes of one deployment do).
      JWT_SECRET: 'bench-rejoin-secret-that-is-long-enough-0123456789',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(child, base);
  return {
    base,
    pid: child.pid!,
    stop: async () => {
      if (await stopProcess(child, 5000)) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads a stream's events (with ids) to its end, or until `cutAfter` deltas (then the connection is dropped). */
async function readEvents(url: string, init: RequestInit, cutAfter = Infinity): Promise<Read> {
  const controller = new AbortController();
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: controller.signal });
  } catch {
    // Reset before any answer (a connection of the pool closed as it was reused, on a loaded machine):
    // nothing was started; asked once more, and counted.
    resets++;
    res = await fetch(url, { ...init, signal: controller.signal });
  }
  // Busy (the database did not answer in time on a loaded machine): asked again, as the web app does, and counted.
  for (let tries = 0; res.status === 503 && tries < 10; tries++) {
    busy++;
    await res.body?.cancel();
    await sleep(200);
    res = await fetch(url, { ...init, signal: controller.signal });
  }
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const events: Read['events'] = [];
  let firstEventMs = NaN;
  let deltas = 0;
  try {
    for await (const { id, data } of sseEvents(res.body!)) {
      if (Number.isNaN(firstEventMs)) firstEventMs = performance.now() - started;
      const event = JSON.parse(data) as { type: string; text?: string };
      events.push({ id, type: event.type, text: event.text ?? '' });
      if (event.type === 'delta' && ++deltas >= cutAfter) {
        controller.abort();
        return { events, firstEventMs };
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { events, firstEventMs };
}

// Requests asked again after a reset before any answer (printed with the figures).
let resets = 0;
// Requests answered 503 and asked again.
let busy = 0;

const textOf = (read: Read) => read.events.map((e) => (e.type === 'delta' ? e.text : '')).join('');

export async function run(): Promise<void> {
  const database = process.env.MONGODB_URI ? { uri: process.env.MONGODB_URI, stop: async () => undefined } : await startDatabaseProcess();
  const stubChild = fork(join(__dirname, 'support', 'stub-process.ts'), [], { execArgv: ['-r', '@swc-node/register'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const stubURL = await new Promise<string>((done) => stubChild.once('message', (m: { url: string }) => done(m.url)));
  const setStub = (b: StubBehaviour) =>
    new Promise<void>((done) => {
      stubChild.once('message', () => done());
      stubChild.send({ set: b });
    });
  await setStub({ chunks: PIECES, delayMs: 25, completionTokens: PIECES.length });
  const a = await startApi(database.uri, stubURL);
  const b = await startApi(database.uri, stubURL);
  try {
    const token = await signInAs(a.base, 'benchrejoiner');
    const auth = { Authorization: `Bearer ${token}` };
    const stories: string[] = [];
    for (let i = 0; i < TURNS; i++) {
      const res = await fetch(`${a.base}/api/llm`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ prologue_and_characters: 'A harbour.' }) });
      stories.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    const send = (id: string, cutAfter?: number) =>
      readEvents(`${a.base}/api/llm/${id}`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ content: 'The tide.' }) }, cutAfter);
    const rejoin = (api: Api, id: string, from?: string | null) => readEvents(`${api.base}/api/llm/${id}/stream`, { headers: { ...auth, ...(from ? { 'Last-Event-ID': from } : {}) } });
    const stored = async (id: string) => ((await (await fetch(`${a.base}/api/llm/${id}/pending`, { headers: auth })).json()) as { data: { aiText: string } }).data.aiText;
    // One send a second per story: a round waits for the throttle of the one before.
    const nextRound = () => sleep(1100);

    // 1. CPU and memory: 100 turns alone, with 100 followers on A, with 100 followers on B.
    const ways = ['no followers', 'followers on A (memory)', 'followers on B (store)'] as const;
    const figures = new Map<string, { cpuA: number[]; cpuB: number[]; peak: number[] }>(ways.map((w) => [w, { cpuA: [], cpuB: [], peak: [] }]));
    const firstEvent = { A: [] as number[], B: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      const order = round % 2 ? [...ways].reverse() : ways;
      for (const way of order) {
        await nextRound();
        let used: ReturnType<ProcessWatch['stop']>[] | undefined;
        const watchA = new ProcessWatch(a.pid);
        const watchB = new ProcessWatch(b.pid);
        const sends = stories.map((id) => send(id));
        let follows: Promise<Read>[] = [];
        if (way !== 'no followers') {
          // Half a second in: the turns are running.
          await sleep(500);
          const at = way.startsWith('followers on A') ? a : b;
          follows = stories.map((id) => rejoin(at, id));
        }
        const [sent, followed] = await Promise.all([Promise.all(sends), Promise.all(follows)]).finally(() => {
          // Stopped on a failure too (their timers would keep this process alive).
          used = [watchA.stop(), watchB.stop()];
        });
        const [usedA, usedB] = used!;
        for (let i = 0; i < followed.length; i++) {
          if (textOf(followed[i]) !== textOf(sent[i])) throw new Error(`a follower of story ${stories[i]} assembled other text than the sender`);
        }
        // Round 0 warms the processes up.
        if (round === 0) continue;
        const f = figures.get(way)!;
        f.cpuA.push(usedA.cpuSeconds);
        f.cpuB.push(usedB.cpuSeconds);
        f.peak.push(mb(usedA.peakRss + usedB.peakRss));
        if (way !== 'no followers') firstEvent[way.startsWith('followers on A') ? 'A' : 'B'].push(...followed.map((r) => r.firstEventMs));
        console.log(`   round ${round}, ${TURNS} turns, ${way}: CPU A ${usedA.cpuSeconds.toFixed(2)} s, B ${usedB.cpuSeconds.toFixed(2)} s; peak RSS A+B ${mb(usedA.peakRss + usedB.peakRss).toFixed(0)} MB`);
      }
    }
    const none = figures.get('no followers')!;
    for (const way of ways.slice(1)) {
      const f = figures.get(way)!;
      const cpu = (x: { cpuA: number[]; cpuB: number[] }) => x.cpuA.map((c, i) => c + x.cpuB[i]);
      record({
        suite: 'rejoin',
        measure: `CPU of both API processes, ${TURNS} turns with ${TURNS} ${way} (median of ${ROUNDS} rounds; spread ${Math.min(...cpu(f)).toFixed(2)}-${Math.max(...cpu(f)).toFixed(2)})`,
        unit: 's',
        median: pct(cpu(f), 50),
        baseline: { label: `${TURNS} turns, no followers`, median: pct(cpu(none), 50) },
      });
      record({
        suite: 'rejoin',
        measure: `peak RSS of both API processes, ${TURNS} turns with ${TURNS} ${way} (median of ${ROUNDS} rounds)`,
        unit: 'MB',
        median: pct(f.peak, 50),
        baseline: { label: `${TURNS} turns, no followers`, median: pct(none.peak, 50) },
      });
    }
    for (const [where, values] of Object.entries(firstEvent)) {
      record({ suite: 'rejoin', measure: `a rejoin's first event, on ${where} (${values.length} rejoins of running turns)`, unit: 'ms', median: pct(values, 50), p99: pct(values, 99) });
    }

    // 3. Every turn cut once mid-turn (after 5 to 40 pieces) and rejoined from its last event id, on A and on B in turn.
    await nextRound();
    let lost = 0;
    let repeated = 0;
    let unequal = 0;
    const cutFirst: number[] = [];
    await Promise.all(
      stories.map(async (id, i) => {
        const cut = await send(id, 5 + ((i * 7) % 36));
        const rejoined = await rejoin(i % 2 ? b : a, id, cut.events.at(-1)!.id);
        cutFirst.push(rejoined.firstEventMs);
        const whole = await stored(id);
        const before = textOf(cut);
        const after = textOf(rejoined);
        // Where the rejoined text starts in the stored turn: after the cut text, exactly.
        const at = whole.indexOf(after.slice(0, 40), Math.max(0, before.length - 200));
        if (at < 0 || before + after !== whole) unequal++;
        if (at >= 0) {
          repeated += Math.max(0, before.length - at);
          lost += Math.max(0, at - before.length) + Math.max(0, whole.length - at - after.length);
        }
      }),
    );
    console.log(`   requests asked again after a connection reset before any answer: ${resets}; after a 503: ${busy}`);
    console.log(`   ${TURNS} turns cut once and rejoined: ${lost} characters lost, ${repeated} repeated, ${unequal} assembled texts unlike the stored turn`);
    record({ suite: 'rejoin', measure: `characters lost, ${TURNS} turns each cut once mid-turn and rejoined (half on each process)`, unit: 'chars', median: lost, target: '0', met: lost === 0 });
    record({ suite: 'rejoin', measure: `characters repeated, the same ${TURNS} rejoins`, unit: 'chars', median: repeated, target: '0', met: repeated === 0 });
    record({ suite: 'rejoin', measure: `a rejoin's first event after the cut (the same ${TURNS} rejoins)`, unit: 'ms', median: pct(cutFirst, 50), p99: pct(cutFirst, 99) });
    if (lost || repeated || unequal) process.exitCode = 1;
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    stubChild.disconnect();
    await database.stop();
  }
}

if (require.main === module) runAlone(run);
