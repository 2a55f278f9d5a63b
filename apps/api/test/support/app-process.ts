// The built API (dist/main.js) as a child process, for tests that kill it and start it again.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const API_DIR = join(__dirname, '..', '..');
const MAIN = join(API_DIR, 'dist', 'main.js');
// Held by the one test file that builds dist/ while the others wait (ensureBuilt).
const BUILD_LOCK = join(API_DIR, 'dist.building');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

// How long a test file waits for another's build of dist/ (it takes about 10 s).
const BUILD_WAIT_MS = 120_000;

const fresh = () => existsSync(MAIN) && statSync(MAIN).mtimeMs >= newestMtime(join(API_DIR, 'src'));

/** dist/ is there, no older than src/, and no build is under way (a build empties dist/ first). */
export function builtIsFresh(): boolean {
  return fresh() && !existsSync(BUILD_LOCK);
}

/** Builds dist/ when it is missing or older than src/ (`pnpm test` builds first, so this is for a lone vitest run). */
export function ensureBuilt(): void {
  // Several test files (vitest's workers) may find it stale at once: one builds, the others wait for it
  // (a build empties dist/ first, then writes it: main.js may be there before the rest).
  if (builtIsFresh()) return;
  const deadline = Date.now() + BUILD_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch (error) {
      // Anything but another's lock (a folder this user may not write) fails here instead of waiting.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = statSync(BUILD_LOCK, { throwIfNoEntry: false });
      // Gone meanwhile: taken at the next try. A build that died (its worker killed) leaves its lock,
      // taken over once this one has waited that long.
      if (held && Date.now() > deadline) rmSync(BUILD_LOCK, { recursive: true, force: true });
      else if (held) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (fresh()) return;
    // The package's own build (`pnpm build` runs it too): swc, then the tokenizer's ranks.
    const result = spawnSync('pnpm', ['run', 'build'], { cwd: API_DIR, encoding: 'utf8', shell: process.platform === 'win32' });
    if (result.status !== 0) throw new Error(`building the API failed:\n${result.stdout}${result.stderr}`);
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

export interface AppProcess {
  baseURL: string;
  pid: number;
  /** Everything the process wrote to stderr (and stdout), for failure messages. */
  readonly output: string;
  /** Resolves when the process has exited (and been reaped), with its signal or code. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), then wait for the exit. */
  stop(): Promise<void>;
}

/** One JSON call to a started app: `token` as the bearer, `body` as JSON; answers the status and the parsed envelope. */
export async function callJson<T = { status: string; code?: string; data: Record<string, unknown> }>(
  app: Pick<AppProcess, 'baseURL'>,
  method: string,
  path: string,
  token?: string,
  body?: object,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${app.baseURL}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Which Node.js runs the app, with which flags: this test's own, with none, unless a test says otherwise. */
export interface NodeRuntime {
  node: string;
  flags: string[];
}

/**
 * Starts `node dist/main.js` with this environment (plus HOST and a loopback-only setup) and resolves
 * once it listens. `killFile`: the kill switch's file (test/support/kill-switch.js). It listens on a
 * port the system picks when it listens (PORT=0) and says in "TaleLoom is running at": a port picked
 * free beforehand could be taken by another test's process in the seconds the app takes to start.
 */
export async function startAppProcess(
  env: Record<string, string>,
  killFile?: string,
  runtime: NodeRuntime = { node: process.execPath, flags: [] },
): Promise<AppProcess> {
  let port = 0;
  const child: ChildProcess = spawn(
    runtime.node,
    [...runtime.flags, ...(killFile ? ['-r', join(__dirname, 'kill-switch.js')] : []), MAIN],
    {
      cwd: API_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: join(API_DIR, 'no-web-dist'),
        ...(killFile ? { TALELOOM_KILL_FILE: killFile } : {}),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the API did not start in 60 s:\n${output}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const running = /TaleLoom is running at http:\/\/[^\s:]+:(\d+)/.exec(output);
      if (running) {
        port = Number(running[1]);
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the API exited (${String(how)}) before it listened:\n${output}`));
    });
  });
  return {
    baseURL: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    get output() {
      return output;
    },
    exited,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Runs the compiled `verify:ledger` command against a database: its exit code and output. Not
 * spawnSync: the database it reads may be served from this very process (a stand-in a test
 * started), which a blocked event loop could not serve.
 */
export function verifyLedgerCommand(
  target: string | { DATA_DIR: string },
  node = process.execPath,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(node, [join(API_DIR, 'dist', 'power', 'verify-ledger.js')], {
    cwd: API_DIR,
    // A connection string, or (the app stopped) the data folder of its embedded database.
    env: { PATH: process.env.PATH ?? '', ...(typeof target === 'string' ? { MONGODB_URI: target } : target) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}
