// The processes of the burst benchmark: the stub and the bare relay (forked support processes), a fresh
// database and API per level; every one of them stopped with the benchmark whatever happens.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StubBehaviour } from '../../test/support/openai-stub';
import { API_LOG, apiDir, LOG_LEVEL, type Build } from './burst-settings';
import { apiProcessEnv, freePort, startDatabaseProcess, stopProcess, waitHealthy } from './processes';

export interface Stub {
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
export async function forkSupport<Hello>(
  file: string,
  args: string[],
  name: string,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; hello: Hello; stop(): Promise<void> }> {
  const child = own(fork(join(__dirname, file), args, { cwd: apiDir, execArgv: ['-r', '@swc-node/register', ...nodeArgs], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
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

export async function startStub(): Promise<Stub> {
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

export interface Relay {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

// The bare relay (support/relay-process.ts) in a process of its own, sending on to the stub.
export async function startRelay(stub: Stub): Promise<Relay> {
  const nodeArgs = (process.env.BENCH_RELAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const { child, hello, stop } = await forkSupport<{ port: number }>('relay-process.ts', [stub.baseURL], 'relay', nodeArgs);
  return { url: `http://127.0.0.1:${hello.port}/chat/completions`, pid: child.pid!, stop };
}

export interface Database {
  uri: string;
  pid: number | null;
  stop(): Promise<void>;
}

// The embedded database in a process of its own (a fresh one per level), or MONGODB_URI with a database name per level.
export async function startDatabase(level: number): Promise<Database> {
  if (process.env.MONGODB_URI) {
    const uri = new URL(process.env.MONGODB_URI);
    uri.pathname = `/bench_burst_${level}_${Date.now().toString(36)}`;
    return { uri: uri.toString(), pid: null, stop: async () => undefined };
  }
  const database = await startDatabaseProcess();
  own(database.child);
  kind = database.kind || kind;
  return { uri: database.uri, pid: database.child.pid!, stop: database.stop };
}

let kind = process.env.MONGODB_URI ? 'MONGODB_URI' : 'embedded';
/** What database the levels ran on (from the database process's start-up line). */
export const databaseKind = () => kind;

// Every process this benchmark starts, stopped with it whatever happens.
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
// Stopped from outside (Ctrl+C, kill): the processes it started go with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
export function own(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface Api {
  base: string;
  pid: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startApi(stub: Stub, database: Database, build: Build, heapDir?: string): Promise<Api> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-bench-burst-'));
  const model = (value: string, points: number) => ({ label: value, value, points, contextWindow: 8192, maxOutput: 512, baseURL: stub.baseURL });
  const nodeArgs = [
    ...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ...build.nodeArgs,
    ...(heapDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapDir}`] : []),
  ];
  // BENCH_NODE=<path> among a build's words runs it on that Node.js (e.g. Node 24 beside Node 20).
  const child = own(spawn(build.env.BENCH_NODE ?? process.execPath, [...nodeArgs, build.main], {
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
