import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { EnvironmentVariables } from './config/env.validation';
import type { DatabaseHandle } from './database/embedded-database';

// A worker that dies is started again, but not faster than this (a worker that cannot start at all
// would otherwise be restarted in a tight loop).
const RESTART_DELAY_MS = 1000;

/** How many API processes to run: API_WORKERS, 0 meaning one per CPU core. */
export function workerCount(env: EnvironmentVariables): number {
  return env.API_WORKERS === 0 ? availableParallelism() : env.API_WORKERS;
}

/**
 * The first process of a multi-process API (API_WORKERS > 1): it resolved the configuration (so the
 * secrets generated into DATA_DIR exist before any worker reads them) and started the database (the
 * embedded one, or nothing with MONGODB_URI), then forks the workers, which share PORT through
 * node:cluster (this process accepts connections and hands them out in turn) and reach the database
 * at `database.uri`. Every rule that matters holds across processes as it does across instances
 * (single-document conditional updates, a turn owned by its process); a worker that dies is
 * replaced, and its generations are closed by the others' repair (its pid is gone).
 */
export function runPrimary(env: EnvironmentVariables, database: DatabaseHandle): void {
  const count = workerCount(env);
  let stopping = false;
  // Workers read the secrets this process generated into DATA_DIR (resolveConfig found or wrote them).
  const fork = (): Worker => cluster.fork({ MONGODB_URI: database.uri, API_WORKERS: '1' });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`API worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(() => !stopping && fork(), RESTART_DELAY_MS).unref();
  });
  // The port the workers share, once the first says it listens (PORT=0 asks the system for a free one;
  // cluster's own 'listening' event also fires for the demo model's and pictures' servers).
  let announced = false;
  cluster.on('message', (_worker, message: unknown) => {
    const port = listeningPort(message);
    if (port === undefined || announced) return;
    announced = true;
    console.log(`TaleLoom: ${count} API processes on port ${port}`);
  });
  for (let i = 0; i < count; i++) fork();
  // Graceful stop: every worker finishes (drains its generations) before the database stops.
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, stopping ${count} API processes`);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((done) => {
            w.once('exit', () => done());
            w.process.kill('SIGTERM');
          }),
      ),
    );
    await database.stop();
    process.exit(0);
  };
  process.once('SIGTERM', (s) => void shutdown(s));
  process.once('SIGINT', (s) => void shutdown(s));
}

const LISTENING = 'taleloom:listening';

/** A worker tells the first process the port its API listens on (the one all workers share). */
export function announceListening(port: number): void {
  if (cluster.isWorker) process.send?.({ type: LISTENING, port });
}

function listeningPort(message: unknown): number | undefined {
  const m = message as { type?: unknown; port?: unknown } | null;
  return m && m.type === LISTENING && typeof m.port === 'number' ? m.port : undefined;
}
