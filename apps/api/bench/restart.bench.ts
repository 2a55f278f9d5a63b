/**
 * `pnpm --filter @taleloom/api bench:restart`: the restart after a crash under load, on the database
 * `pnpm start` runs on (no MONGODB_URI: the embedded database in DATA_DIR, inside the API's process).
 * N users (BENCH_RESTART_USERS, 300) each open a paid stream at once on the built API (dist/main.js,
 * with `pnpm start`'s node flags); once the streams run, the process is killed with SIGKILL and started
 * again on the same DATA_DIR. Per round (BENCH_RESTART_ROUNDS, 3) it prints the time from the kill to
 * the API listening and to a signed-in read answering, and the size of the stand-in's snapshot and
 * journal it had to read back. At the end the app is stopped and `verify:ledger` checks the folder.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, ensureBuilt, startAppProcess, verifyLedgerCommand, type AppProcess } from '../test/support/app-process';
import { startOpenAIStub, type OpenAIStub } from '../test/support/openai-stub';
import { sendTurn } from '../test/support/play-helpers';
import { record, runAlone } from './support/report';
import { startFlags } from '../test/support/start-flags';
import { f, median, sleep } from './support/burst-settings';

const USERS = Number(process.env.BENCH_RESTART_USERS ?? 300);
const ROUNDS = Number(process.env.BENCH_RESTART_ROUNDS ?? 3);
// Streams long enough to be running when the kill comes (first token after 200 ms, then 20 ms apart).
const CHUNKS = 1000;
// The kill comes once this share of the streams has reached the provider (or after KILL_WAIT_MS).
const RUNNING_SHARE = 0.9;
const KILL_WAIT_MS = 60_000;
const TARGET_MS = 5000;

interface User {
  token: string;
  story: string;
}

const fileSize = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

export async function run(): Promise<void> {
  ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-bench-restart-'));
  const journalDir = join(dataDir, 'stand-in-journal');
  const stub: OpenAIStub = await startOpenAIStub({ chunks: Array.from({ length: CHUNKS }, (_, i) => ` word${i}`), delayMs: 20, completionTokens: 200 });
  const env: Record<string, string> = {
    MONGODB_URI: '',
    DATA_DIR: dataDir,
    MODELS_JSON: JSON.stringify([{ value: 'paid', points: 5, maxOutput: 4000, contextWindow: 16384, baseURL: stub.baseURL }]),
    GENERATION_USER_PER_MINUTE: '100000',
    LOGIN_IP_PER_MINUTE: '100000',
  };
  const runtime = { node: process.execPath, flags: startFlags() };
  let app: AppProcess = await startAppProcess(env, undefined, runtime);
  const database = /Database: (.*?), (?:data in|in memory)/.exec(app.output)?.[1] ?? 'unknown';
  console.log(`restart bench: ${USERS} users, ${ROUNDS} rounds, database ${database}, DATA_DIR ${dataDir}`);
  try {
    const users: User[] = [];
    const next = async () => {
      while (users.length < USERS) {
        const i = users.length;
        users.push({ token: '', story: '' });
        const login = await callJson<{ data: { token: string } }>(app, 'POST', '/api/user/login', undefined, { type: 'username', userName: `restart${i}`, password: 'secret1' });
        const token = login.body.data.token;
        await callJson(app, 'POST', '/api/user/check-in', token, {});
        const created = await callJson<{ data: { id: string } }>(app, 'POST', '/api/llm', token, { name: `Tale ${i}`, prologue_and_characters: 'A mill by a river.' });
        users[i] = { token, story: created.body.data.id };
      }
    };
    await Promise.all(Array.from({ length: 8 }, next));
    console.log(`${users.length} users signed in`);

    const listening: number[] = [];
    const answering: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const before = stub.requests;
      const sends = users.map((u) => sendTurn(app.baseURL, u.token, u.story, { content: `Round ${round}` }, undefined, { allowBreak: true }).catch(() => null));
      const deadline = Date.now() + KILL_WAIT_MS;
      while (stub.open < USERS * RUNNING_SHARE && Date.now() < deadline) await sleep(50);
      await sleep(1000);
      const open = stub.open;
      const killedAt = performance.now();
      await app.kill();
      const snapshotBytes = fileSize(join(journalDir, 'snapshot.ejson'));
      const journalBytes = fileSize(join(journalDir, 'journal.ejsonl'));
      app = await startAppProcess(env, undefined, runtime);
      listening.push(performance.now() - killedAt);
      // A read that needs the database: the user's info.
      for (;;) {
        const info = await callJson(app, 'GET', '/api/user/user-info', users[0].token).catch(() => ({ status: 0 }));
        if (info.status === 200) break;
        await sleep(20);
      }
      answering.push(performance.now() - killedAt);
      await Promise.all(sends);
      console.log(
        `round ${round}: ${open} streams open (${stub.requests - before} sent), killed; listening after ${f(listening.at(-1)! / 1000, 2)} s, ` +
          `answering after ${f(answering.at(-1)! / 1000, 2)} s; read back ${f(snapshotBytes / 1048576)} MB snapshot + ${f(journalBytes / 1048576)} MB journal`,
      );
    }
    await app.stop();
    const verified = await verifyLedgerCommand({ DATA_DIR: dataDir });
    if (verified.status !== 0) {
      console.error(`verify:ledger found drift:\n${verified.stdout}${verified.stderr}`);
      process.exitCode = 1;
    }
    const spread = (values: number[]) => `[${f(Math.min(...values) / 1000, 2)}-${f(Math.max(...values) / 1000, 2)}] s`;
    console.log(`restart after SIGKILL with ${USERS} streams running: answering ${f(median(answering) / 1000, 2)} s median ${spread(answering)}, listening ${f(median(listening) / 1000, 2)} s median ${spread(listening)}`);
    record({
      suite: 'restart',
      measure: `SIGKILL with ${USERS} streams running -> API answering (${database})`,
      unit: 'ms',
      median: median(answering),
      target: `< ${TARGET_MS} ms`,
      met: Math.max(...answering) < TARGET_MS,
      note: `listening ${median(listening).toFixed(0)} ms median; verify:ledger ${verified.status === 0 ? 'no drift' : 'DRIFT'}`,
    });
  } finally {
    await app.stop().catch(() => undefined);
    await stub.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) runAlone(run);
