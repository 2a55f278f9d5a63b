import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { format } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { DatabaseKind } from '@taleloom/contracts';
import { workerEntry } from '../common/worker-entry';
import { attachJournal, SNAPSHOT_FILE, type Bson, type JournalHandle, type MemoryStorage } from './stand-in-journal';

/** A running database the app or the tests connect to. */
export interface DatabaseHandle {
  uri: string;
  kind: DatabaseKind;
  stop(): Promise<void>;
}

export interface DatabaseOptions {
  /** A configured connection string wins over everything else. */
  uri?: string;
  /** auto tries mongodb-memory-server, then the offline stand-in. */
  mode?: 'auto' | 'memory-server' | 'stand-in';
  /** Folder that keeps data across restarts; absent means in memory only. */
  dataDir?: string;
  dbName?: string;
  /** The one line that says which database runs and why. */
  log?: (message: string) => void;
  /** Detail (why mongodb-memory-server could not start, its own messages): shown at debug level. */
  debug?: (message: string) => void;
  /** The stand-in's journal is folded into its snapshot past this size (tests set it small). */
  journalCompactBytes?: number;
  /**
   * Work for the calling thread while the database starts on its own (a connection string, or the
   * stand-in's thread booting on another core): the app loads its modules meanwhile.
   */
  meanwhile?: () => void;
}

/** Where each embedded database keeps its data in DATA_DIR (`legacyStandIn`: the stand-in's own format, version 0.1). */
export const DATA_FOLDERS = { standIn: 'stand-in-journal', legacyStandIn: 'stand-in', mongod: 'mongo' } as const;

/** The data folder holds a real mongod's data, and mongod cannot start here: one sentence, no stack. */
export class KeptDatabaseError extends Error {}

/**
 * Which embedded database already keeps its data in this folder: the stand-in (its snapshot, or the
 * folder of version 0.1), mongodb-memory-server's mongod (its WiredTiger files), or neither (or both:
 * then the usual order decides). The other one would start empty here.
 */
export function keptIn(dataDir: string): 'stand-in' | 'memory-server' | undefined {
  const standIn = existsSync(join(dataDir, DATA_FOLDERS.standIn, SNAPSHOT_FILE)) || existsSync(join(dataDir, DATA_FOLDERS.legacyStandIn));
  const mongod = existsSync(join(dataDir, DATA_FOLDERS.mongod, 'WiredTiger'));
  if (standIn === mongod) return undefined;
  return standIn ? 'stand-in' : 'memory-server';
}

// tsc turns import() into require() under CommonJS; the stand-in is ESM-only, so keep a real import().
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<StandInModule>;

// Only the stand-in's own folder of @push.rocks/smartmongo: the package's main entry also loads
// mongodb-memory-server and smartdata (which prints debug lines as it loads) for features not used here.
const STAND_IN_ENTRY = '@push.rocks/smartmongo/dist_ts/congodb/index.js';

// The part of @push.rocks/smartmongo's API the bootstrap uses.
export interface StandInModule {
    CongoServer: new (options: { host: string; port: number; storage: 'memory' }) => {
      start(): Promise<void>;
      stop(): Promise<void>;
      getStorage(): MemoryStorage;
    };
    /** Its older on-disk format (read once, to move data kept by earlier versions). */
    FileStorageAdapter: new (path: string) => MemoryStorage & { initialize(): Promise<void>; close(): Promise<void> };
    plugins: { bson: Bson };
}

/**
 * The one database bootstrap: MONGODB_URI, else mongodb-memory-server (a real mongod), else the
 * offline MongoDB-wire stand-in. The log says which one runs.
 */
export async function startDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const log = options.log ?? (() => undefined);
  const debug = options.debug ?? (() => undefined);
  const dbName = options.dbName ?? 'taleloom';
  if (options.uri) {
    log(`Database: MongoDB at ${redactUri(options.uri)} (MONGODB_URI)`);
    options.meanwhile?.();
    return { uri: options.uri, kind: 'uri', stop: async () => undefined };
  }
  const where = options.dataDir ? `data in ${options.dataDir}` : 'in memory only';
  const mode = options.mode ?? 'auto';
  // In auto mode the database that already keeps this folder's data starts again, whatever else has
  // become available since (a mongod downloaded once the machine went online must not start empty
  // beside the stand-in's data, nor the stand-in beside a mongod's).
  const kept = mode === 'auto' && options.dataDir ? keptIn(options.dataDir) : undefined;
  let why = kept === 'stand-in' ? 'this data folder holds its data' : 'EMBEDDED_DATABASE=stand-in';
  if (mode !== 'stand-in' && kept !== 'stand-in') {
    try {
      const handle = await startMemoryServer(options.dataDir, dbName, debug);
      log(`Database: embedded MongoDB (mongodb-memory-server, a real mongod), ${where}`);
      options.meanwhile?.();
      return handle;
    } catch (error) {
      if (mode === 'memory-server') throw error;
      debug(`mongodb-memory-server could not start: ${format(error)}`);
      if (kept === 'memory-server') {
        throw new KeptDatabaseError(
          `The data folder ${options.dataDir} holds the data of a real mongod (mongodb-memory-server), which could not start here ` +
            `(${firstLine(error)}): make a mongod binary available (MONGOMS_SYSTEM_BINARY) or set MONGODB_URI; ` +
            'EMBEDDED_DATABASE=stand-in starts the offline stand-in without that data.',
        );
      }
      why = /download/i.test(firstLine(error))
        ? 'no mongod binary is installed here and none could be downloaded'
        : `mongodb-memory-server could not start (${firstLine(error)})`;
    }
  }
  const handle = await startStandIn(options.dataDir, dbName, options.journalCompactBytes, options.meanwhile);
  log(
    `Database: embedded stand-in (CongoDB, offline), ${where}, because ${why}. ` +
      'For production set MONGODB_URI to a MongoDB replica set (docs/database.md).',
  );
  // Where to reach it while the app runs (mongosh, the crash suite's checks): a loopback port of its own.
  debug(`the stand-in listens at ${handle.uri}`);
  return handle;
}

async function startMemoryServer(dataDir: string | undefined, dbName: string, debug: (message: string) => void): Promise<DatabaseHandle> {
  // One attempt: offline, three download retries only delay the fallback.
  process.env.MONGOMS_MAX_RETRIES ??= '0';
  const { MongoMemoryServer } = await import('mongodb-memory-server-core');
  const dbPath = dataDir ? join(dataDir, DATA_FOLDERS.mongod) : undefined;
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  const server = await withMemoryServerDebug(debug, () =>
    MongoMemoryServer.create({
      instance: { dbName, ...(dbPath ? { dbPath, storageEngine: 'wiredTiger' as const } : {}) },
    }),
  );
  return {
    uri: withDbName(server.getUri(), dbName),
    kind: 'memory-server',
    // Keep the folder when data lives on disk.
    stop: async () => {
      await server.stop({ doCleanup: !dbPath, force: false });
    },
  };
}

/** What the stand-in's thread is started with (stand-in.worker.ts). */
export interface StandInThreadData {
  dataDir: string | undefined;
  dbName: string;
  compactBytes: number | undefined;
}

/** What the stand-in's thread says: where it listens, that it stopped, or why it could not. */
export interface StandInThreadMessage {
  uri?: string;
  stopped?: boolean;
  error?: string;
}

// How long a stop may take (the journal folded into its snapshot) before the thread is ended.
const STAND_IN_STOP_MS = 60_000;

/**
 * The offline stand-in on a worker thread of its own (stand-in.worker.ts runs `runStandIn` there), so its
 * work is not on the app's event loop: every command's matching and BSON, each change's journal line (a
 * 1,000,000-character story's update held the loop 30 to 60 ms) and the journal's folding into its
 * snapshot (the whole database written out: about 750 ms at 75 MB). The app reaches it over loopback as
 * before. The thread ends with the process (a crash, kill -9, loses nothing acknowledged, as before); if
 * it stops by itself, the app cannot go on and exits.
 */
async function startStandIn(dataDir: string | undefined, dbName: string, compactBytes?: number, meanwhile?: () => void): Promise<DatabaseHandle> {
  const [entry, options] = workerEntry(join(__dirname, 'stand-in.worker'));
  const worker = new Worker(entry, { ...options, workerData: { dataDir, dbName, compactBytes } satisfies StandInThreadData });
  let stopping = false;
  const started = new Promise<string>((done, fail) => {
    worker.once('message', (m: StandInThreadMessage) => (m.uri ? done(m.uri) : fail(new Error(m.error ?? 'the embedded database did not start'))));
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the embedded database's thread stopped (${code}) before it started`)));
  });
  // The thread loads its modules and data on another core meanwhile.
  meanwhile?.();
  const uri = await started.catch(async (error: unknown) => {
    stopping = true;
    await worker.terminate();
    throw error;
  });
  worker.on('error', (error) => {
    if (!stopping) console.error(`The embedded database failed: ${error.stack ?? error.message}`);
  });
  worker.on('exit', (code) => {
    if (stopping) return;
    console.error(`The embedded database's thread stopped by itself (${code}); the app cannot go on without it.`);
    process.exit(1);
  });
  return {
    uri,
    kind: 'stand-in',
    stop: async () => {
      if (stopping) return;
      stopping = true;
      const stopped = new Promise<StandInThreadMessage>((done) => {
        worker.once('message', done);
        worker.once('exit', () => done({ stopped: true }));
      });
      worker.postMessage('stop');
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([stopped, new Promise<StandInThreadMessage>((done) => (timer = setTimeout(() => done({ error: 'the embedded database took too long to stop' }), STAND_IN_STOP_MS)))]);
      clearTimeout(timer);
      await worker.terminate();
      if (answer.error) throw new Error(answer.error);
    },
  };
}

/** The stand-in itself, in the calling thread (its own thread's module runs this; see startStandIn). */
export async function runStandIn(dataDir: string | undefined, dbName: string, compactBytes?: number): Promise<DatabaseHandle> {
  const congodb = await importEsm(STAND_IN_ENTRY);
  // Always the in-memory engine (its writes are atomic); with a data folder, a journal keeps it on disk.
  const { server, port } = await listenStandIn(congodb);
  let journal: JournalHandle | null = null;
  if (dataDir) {
    const legacy = join(dataDir, DATA_FOLDERS.legacyStandIn);
    journal = await attachJournal(server.getStorage(), join(dataDir, DATA_FOLDERS.standIn), congodb.plugins.bson, async (storage) => {
      if (existsSync(legacy)) await copyLegacy(new congodb.FileStorageAdapter(legacy), storage);
    }, { compactBytes });
  }
  return {
    // Without poll monitoring the driver's heartbeat fails every ~10 s and clears the pool.
    uri: `mongodb://127.0.0.1:${port}/${dbName}?serverMonitoringMode=poll&directConnection=true`,
    kind: 'stand-in',
    stop: async () => {
      await journal?.close();
      await server.stop();
    },
  };
}

// The stand-in listening on a free loopback port. Another process can take the port found free in the
// moment before the stand-in listens on it (tests starting in parallel): then another port is tried.
export async function listenStandIn(
  congodb: Pick<StandInModule, 'CongoServer'>,
  pickPort: () => Promise<number> = freePort,
): Promise<{ server: InstanceType<StandInModule['CongoServer']>; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await pickPort();
    const server = new congodb.CongoServer({ host: '127.0.0.1', port, storage: 'memory' });
    try {
      await server.start();
      return { server, port };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw error;
    }
  }
}

// Data an earlier version kept in the stand-in's own file format moves into the journal once.
async function copyLegacy(from: MemoryStorage & { initialize(): Promise<void>; close(): Promise<void> }, to: MemoryStorage): Promise<void> {
  await from.initialize();
  for (const d of await from.listDatabases()) {
    for (const c of await from.listCollections(d)) {
      await to.createCollection(d, c);
      for (const doc of await from.findAll(d, c)) await to.insertOne(d, c, doc);
      for (const { name, ...spec } of await from.getIndexes(d, c)) if (name !== '_id_') await to.saveIndex(d, c, name, spec);
    }
  }
  await from.close();
}

function withDbName(uri: string, dbName: string): string {
  const url = new URL(uri);
  url.pathname = `/${dbName}`;
  return url.toString();
}

/** Pick a free loopback port (the stand-in reports a wrong URI for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/**
 * mongodb-memory-server prints a failed start (offline: a long DownloadError stack) with console.warn
 * unless its `debug` namespace is on. Turn the namespace on for the attempt and send what it writes to
 * `debug`, so a newcomer sees one line and an operator who asks for debug logs sees everything.
 */
async function withMemoryServerDebug<T>(debug: (message: string) => void, run: () => Promise<T>): Promise<T> {
  type Debug = { enable(ns: string): void; disable(): string; log: (...args: unknown[]) => void };
  // Its own copy of `debug` (the one its loggers check), not whichever the app might resolve.
  const createDebug = createRequire(require.resolve('mongodb-memory-server-core'))('debug') as Debug;
  const previous = createDebug.disable();
  const previousLog = createDebug.log;
  createDebug.enable([previous, 'MongoMS:*'].filter(Boolean).join(','));
  createDebug.log = (...args: unknown[]) => debug(format(...args));
  try {
    return await run();
  } finally {
    createDebug.log = previousLog;
    createDebug.enable(previous);
  }
}

/** The URI without its password, for the log. */
export function redactUri(uri: string): string {
  return uri.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0].slice(0, 200);
}
