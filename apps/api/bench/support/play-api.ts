// The play benchmark's API: its own process on a fresh embedded database (or MONGODB_URI), the bench user
// signed in with power for the paid model, its stories, and the reading of its streams.
import { spawn, type ChildProcess } from 'node:child_process';
import { SseBlocks } from '../../test/support/sse-blocks';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { wallClock, type OpenAIStub } from '../../test/support/openai-stub';
import { apiProcessEnv, freePort, signInAs, startDatabaseProcess, waitHealthy } from './processes';
import { startFlags } from '../../test/support/start-flags';

const apiDir = resolve(__dirname, '..', '..');
export const webDir = resolve(apiDir, '..', 'web');

// How the play benchmark prints a time.
export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : 'n/a');

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** Reads an SSE (or OpenAI) stream, calling `onData` with each `data:` payload at its arrival time. */
export async function readStream(res: Response, onData: (data: string, at: number) => boolean | void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const sse = new SseBlocks();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const at = wallClock();
    for (const { data } of sse.push(decoder.decode(value, { stream: true }))) {
      if (onData(data, at) === true) {
        await reader.cancel();
        return;
      }
    }
  }
}

export interface Api {
  base: string;
  token: string;
  pid: number;
  stop(): Promise<void>;
}

export interface Database {
  uri: string;
  stop(): Promise<void>;
}

// The embedded database in a process of its own (or MONGODB_URI as given).
export async function openDatabase(): Promise<Database> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, stop: async () => undefined };
  return startDatabaseProcess({ echo: true });
}

export async function startApi(stub: OpenAIStub, database: Database): Promise<Api> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-bench-play-'));
  const model = (value: string, points: number) => ({ label: value, value, points, contextWindow: 8192, maxOutput: 200, baseURL: stub.baseURL });
  // The built app, started as `pnpm start` starts it (`pnpm bench` builds first); the sources when unbuilt.
  const built = join(apiDir, 'dist', 'main.js');
  // As `pnpm start` runs it (its node flags).
  const entry = existsSync(built) ? [...startFlags(), built] : ['-r', '@swc-node/register', 'src/main.ts'];
  const child: ChildProcess = spawn(process.execPath, [...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean), ...entry], {
    cwd: apiDir,
    env: {
      ...apiProcessEnv(port, dataDir, database.uri, 'silent'),
      MODELS_JSON: JSON.stringify([model('free', 0), model('paid', 10)]),
      WEB_DIST_DIR: existsSync(join(webDir, 'dist', 'index.html')) ? join(webDir, 'dist') : join(tmpdir(), 'no-web'),
      BODY_LIMIT_BYTES: String(4 * 1024 * 1024),
      // One bench user sends hundreds of turns a minute: the engine is measured, not the per-user limit.
      GENERATION_USER_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(child, base);
  const token = await signInAs(base, 'benchplayer');
  // Power for the paid model: the daily check-in.
  await fetch(`${base}/api/user/check-in`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' });
  return {
    base,
    token,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 800));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const authJson = (api: Api) => ({ Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/json' });

export async function createStories(api: Api, n: number, prologue = 'Mara waits at the pier.'): Promise<string[]> {
  const ids: string[] = [];
  const worker = async () => {
    while (ids.length < n) {
      ids.push('');
      const slot = ids.length - 1;
      const res = await fetch(`${api.base}/api/llm`, { method: 'POST', headers: authJson(api), body: JSON.stringify({ prologue_and_characters: prologue }) });
      ids[slot] = ((await res.json()) as { data: { id: string } }).data.id;
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  return ids.slice(0, n);
}


/** Builds a story of `text` (its first 50,000 characters as the prologue, the rest accepted in 100,000-character turns). */
export async function longStory(api: Api, text: string): Promise<string> {
  const [id] = await createStories(api, 1, text.slice(0, 50_000));
  for (let at = 50_000; at < text.length; at += 100_000) {
    await fetch(`${api.base}/api/llm/${id}/accept`, { method: 'POST', headers: authJson(api), body: JSON.stringify({ userContent: '', newContent: text.slice(at, at + 100_000) }) });
  }
  return id;
}
