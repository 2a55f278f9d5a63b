import 'reflect-metadata';
import { config as loadDotenv } from 'dotenv';
import { resolve } from 'node:path';
import cluster from 'node:cluster';
import { announceListening, runPrimary, workerCount } from './cluster';
import { resolveConfig } from './config/app-config';
import { ConfigError, validateEnv } from './config/env.validation';
import { KeptDatabaseError, startDatabase } from './database/embedded-database';
import { DataFolderInUseError } from './database/stand-in-journal';
import { listenWide } from './listen';

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
  let stopListening: () => void = () => undefined;
  const shutdown = async (signal: NodeJS.Signals) => {
    // A worker of several gets Ctrl+C from the terminal and SIGTERM from the first process.
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, shutting down`);
    stopListening();
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGTERM', (s) => void shutdown(s));
  process.once('SIGINT', (s) => void shutdown(s));
  const { port, stopMore } = await listenWide(app, env.PORT, env.HOST);
  stopListening = stopMore;
  warmLater();
  const shown = env.HOST === '0.0.0.0' ? 'localhost' : env.HOST;
  // The port it got: PORT=0 asks the system for a free one (tests start apps side by side that way).
  announceListening(port);
  console.log(
    `TaleLoom is running at http://${shown}:${port} (API under /api, Swagger UI at /api/docs)` +
      (config.webDistDir ? '' : ' — web app not built, serving the API only'),
  );
}

// What only a send needs is loaded after the server listens, a moment later and one piece at a time, so
// that the first requests after a start (everyone reconnecting after a crash) are not queued behind it:
// the HTTP client to providers (undici, platform-fetch.ts), the openai SDK, the tokenizer's tables.
// Each takes 0.1 to 0.2 s of the event loop; a send that comes first loads what it needs itself.
const WARM_AFTER_MS = 1000;
const WARM_STEP_MS = 100;

function warmLater(): void {
  const steps: (() => Promise<void>)[] = [
    async () => (await import('./models/platform-fetch')).warmUndici(),
    async () => (await import('./models/openai-sdk')).warmOpenAI(),
    async () => (await import('./generation/tokenizer')).warmTokenizer(),
  ];
  const next = (): void => {
    const step = steps.shift();
    if (step) void step().then(() => setTimeout(next, WARM_STEP_MS).unref(), () => undefined);
  };
  setTimeout(next, WARM_AFTER_MS).unref();
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataFolderInUseError || error instanceof KeptDatabaseError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
