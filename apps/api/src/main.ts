import 'reflect-metadata';
import { config as loadDotenv } from 'dotenv';
import { resolve } from 'node:path';
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { announceListening, runPrimary, workerCount } from './cluster';
import { acceptWide } from './common/accept-wide';
import { takeTurns } from './common/request-turns';
import { resolveConfig } from './config/app-config';
import { ConfigError, validateEnv } from './config/env.validation';
import { KeptDatabaseError, startDatabase } from './database/embedded-database';
import { DataFolderInUseError } from './database/stand-in-journal';

const LISTEN_BACKLOG = 4096;

/**
 * How many of the checks a burst's sends put off (afterBurst: those of sends whose provider requests went
 * out early) go in one turn once due. One a turn while streams relay left most of a 500 burst's checks
 * until their providers answered, and their first chunks waiting for them. bench:burst, 500 at once,
 * against one a turn in the same rounds, four runs (16 in the first, 64 after): first token added p50
 * 425 -> 175, 490 -> 155, 302 -> 397, 349 -> 215 ms; per-chunk p99 added 41.0 -> 29.4, 49.6 -> 25.5,
 * 35.0 -> 57.4, 47.7 -> 57.1 ms (rounds 46 / 152 / 41 / 48 -> 58 / 57 / 35 / 20 in the last); 100 at
 * once 92 -> 36 ms; 1000 at once first token p50 948 -> 633 and 1318 -> 795 ms, per-chunk p99 within the
 * rounds' spread. What it may cost: at 100 at once the per-chunk p99 was 1.8 -> 11.0 ms in the forty-first
 * pass's full run (1.4 and 1.9 ms in two other runs of this code); a smaller number is the first to try.
 */
const CHECKS_PER_TURN = 64;

async function main(): Promise<void> {
  // .env in the repository root (or the working folder) for local runs; real deployments set variables.
  loadDotenv({ path: [resolve(process.cwd(), '.env'), resolve(__dirname, '..', '..', '..', '.env')], quiet: true });
  const env = validateEnv(process.env);
  const config = resolveConfig(env);
  // Several API processes on one port (API_WORKERS): this one keeps the database and forks them.
  const primaryOfSeveral = cluster.isPrimary && workerCount(env) > 1;
  // The app's modules load while the database starts on its own (the stand-in's thread boots on
  // another core): about a second of a start. Not above: the first process of several never loads
  // the app (its modules, the tokenizer's tables), which would cost it ~150 MB it does not use.
  let loadingApp: Promise<typeof import('./app.factory')> | undefined;
  const database = await startDatabase({
    uri: env.MONGODB_URI,
    mode: env.EMBEDDED_DATABASE,
    dataDir: config.dataDir,
    log: (m) => console.log(m),
    debug: env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace' ? (m) => console.log(`[database] ${m}`) : undefined,
    meanwhile: primaryOfSeveral
      ? undefined
      : () => {
          loadingApp = import('./app.factory');
          // Awaited below; a failure is reported there, not as an unhandled rejection.
          loadingApp.catch(() => undefined);
        },
  });
  if (primaryOfSeveral) return runPrimary(env, database);
  const { createApp } = await (loadingApp ?? import('./app.factory'));
  const app = await createApp(config, database);
  // Graceful stop: finish requests, close the connection, then stop an embedded database.
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    // A worker of several gets Ctrl+C from the terminal and SIGTERM from the first process.
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, shutting down`);
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGTERM', (s) => void shutdown(s));
  process.once('SIGINT', (s) => void shutdown(s));
  // Users who open streams together (a class, a post going viral) connect at once: an accept queue
  // longer than Node's 511 keeps the connections past it from being dropped and retried a second
  // later (the kernel caps it at net.core.somaxconn). Nest hands these arguments to server.listen.
  const listen = app.listen.bind(app) as unknown as (port: number, host: string, backlog: number) => Promise<unknown>;
  await listen(env.PORT, env.HOST, LISTEN_BACKLOG);
  // Such a burst is taken in several connections per turn of the event loop, not one (accept-wide.ts).
  await acceptWide(app.getHttpServer(), env.ACCEPTS_PER_TURN, LISTEN_BACKLOG, (m) => console.warn(m));
  // A burst of new requests is let in a handful per turn of the event loop (request-turns.ts), and one
  // per turn while streams relay chunks: the work of a send (~5 ms) would otherwise hold up their chunks.
  // The checks they put off go CHECKS_PER_TURN a turn once due.
  if (env.REQUESTS_PER_TURN > 0) {
    const { TurnRunner } = await import('./play/turn.runner');
    const runner = app.get(TurnRunner);
    takeTurns(app.getHttpServer(), () => (runner.relaying > 0 ? 1 : env.REQUESTS_PER_TURN), CHECKS_PER_TURN);
  }
  // The tokenizer's tables are built once the server listens, before a first send needs them, and the
  // openai SDK's client (custom models, pictures) is loaded then too.
  const [{ warmTokenizer }, { warmOpenAI }] = await Promise.all([import('./generation/tokenizer'), import('./models/openai-sdk')]);
  setImmediate(warmTokenizer);
  setImmediate(warmOpenAI);
  const shown = env.HOST === '0.0.0.0' ? 'localhost' : env.HOST;
  // The port it got: PORT=0 asks the system for a free one (tests start apps side by side that way).
  const { port } = app.getHttpServer().address() as AddressInfo;
  announceListening(port);
  console.log(
    `TaleLoom is running at http://${shown}:${port} (API under /api, Swagger UI at /api/docs)` +
      (config.webDistDir ? '' : ' — web app not built, serving the API only'),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataFolderInUseError || error instanceof KeptDatabaseError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
