import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const apiDir = resolve(__dirname, '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface DatabaseProcess {
  uri: string;
  child: ChildProcess;
  /** What runs, from its start-up line ("embedded stand-in (CongoDB)", "embedded MongoDB ..."); empty until it is printed. */
  readonly kind: string;
  stop(): Promise<void>;
}

/**
 * The embedded database in a process of its own (database-process.ts), so its work does not share an
 * event loop with the clients being timed; BENCH_DB_NODE_ARGS are its node flags (e.g. --cpu-prof).
 * `echo` prints its log lines on this process's stderr.
 */
export async function startDatabaseProcess({ echo = false } = {}): Promise<DatabaseProcess> {
  const nodeArgs = (process.env.BENCH_DB_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', 'bench/support/database-process.ts'], {
    cwd: apiDir,
    env: { ...process.env, MONGODB_URI: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let kind = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (echo) process.stderr.write(chunk);
    const m = /Database: ([^\n]*)/.exec(chunk.toString());
    if (m) kind = m[1].startsWith('embedded stand-in') ? 'embedded stand-in (CongoDB)' : m[1].split(',')[0];
  });
  const uri = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /URI (\S+)/.exec(out);
      if (m) done(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`the database process exited with ${code}`)));
  });
  return {
    uri,
    child,
    get kind() {
      return kind;
    },
    stop: async () => {
      await stopProcess(child, 3000);
    },
  };
}

/**
 * Asks `child` to stop (SIGTERM) and waits for it to exit, `graceMs` at most (nothing to wait for when it
 * has exited already). Answers whether it is still running then (the caller may SIGKILL it).
 */
export async function stopProcess(child: ChildProcess, graceMs: number): Promise<boolean> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await Promise.race([new Promise((r) => child.once('exit', r)), sleep(graceMs)]);
  }
  return child.exitCode === null && child.signalCode === null;
}

/** Waits until the API started as `child` answers GET /api/health at `base` (at most 90 s; fails if it exits first). */
export async function waitHealthy(child: ChildProcess, base: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error('the API did not start within 90 s');
    await sleep(200);
  }
}

/** A TCP port free on 127.0.0.1 now (for a process that is told which port to listen on). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => done(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** The environment of a built API process started by a benchmark: production, on 127.0.0.1:`port`. */
export function apiProcessEnv(port: number, dataDir: string, mongodbUri: string, logLevel: string): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: logLevel, MONGODB_URI: mongodbUri };
}

/** Signs in (or registers) the user `userName` on the API at `base` with the benches' password; answers its token. */
export async function signInAs(base: string, userName: string): Promise<string> {
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'username', userName, password: 'secret1' }),
  });
  return ((await login.json()) as { data: { token: string } }).data.token;
}
