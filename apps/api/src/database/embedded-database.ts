import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { DatabaseKind } from '@taleloom/contracts';
import { attachJournal, type Bson, type JournalHandle, type MemoryStorage } from './stand-in-journal';

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
  log?: (message: string) => void;
  /** The stand-in's journal is folded into its snapshot past this size (tests set it small). */
  journalCompactBytes?: number;
}

// tsc turns import() into require() under CommonJS; the stand-in is ESM-only, so keep a real import().
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<StandInModule>;

// The part of @push.rocks/smartmongo's API the bootstrap uses.
interface StandInModule {
  congodb: {
    CongoServer: new (options: { host: string; port: number; storage: 'memory' }) => {
      start(): Promise<void>;
      stop(): Promise<void>;
      getStorage(): MemoryStorage;
    };
    /** Its older on-disk format (read once, to move data kept by earlier versions). */
    FileStorageAdapter: new (path: string) => MemoryStorage & { initialize(): Promise<void>; close(): Promise<void> };
    plugins: { bson: Bson };
  };
}

/**
 * The one database bootstrap: MONGODB_URI, else mongodb-memory-server (a real mongod), else the
 * offline MongoDB-wire stand-in. The log says which one runs.
 */
export async function startDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const log = options.log ?? (() => undefined);
  const dbName = options.dbName ?? 'taleloom';
  if (options.uri) {
    log('Database: using MONGODB_URI');
    return { uri: options.uri, kind: 'uri', stop: async () => undefined };
  }
  const mode = options.mode ?? 'auto';
  if (mode !== 'stand-in') {
    try {
      const handle = await startMemoryServer(options.dataDir, dbName);
      log(`Database: mongodb-memory-server (real mongod)${options.dataDir ? ', data kept on disk' : ', in memory'}`);
      return handle;
    } catch (error) {
      if (mode === 'memory-server') throw error;
      log(`Database: mongodb-memory-server unavailable (${firstLine(error)}); falling back to the stand-in`);
    }
  }
  const handle = await startStandIn(options.dataDir, dbName, options.journalCompactBytes);
  log(
    'Database: OFFLINE STAND-IN (CongoDB, MongoDB wire protocol). It does not enforce unique indexes ' +
      'or roll back transactions: set MONGODB_URI to a real MongoDB for production.',
  );
  return handle;
}

async function startMemoryServer(dataDir: string | undefined, dbName: string): Promise<DatabaseHandle> {
  // One attempt: offline, three download retries only delay the fallback.
  process.env.MONGOMS_MAX_RETRIES ??= '0';
  const { MongoMemoryServer } = await import('mongodb-memory-server-core');
  const dbPath = dataDir ? join(dataDir, 'mongo') : undefined;
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  const server = await MongoMemoryServer.create({
    instance: { dbName, ...(dbPath ? { dbPath, storageEngine: 'wiredTiger' as const } : {}) },
  });
  return {
    uri: withDbName(server.getUri(), dbName),
    kind: 'memory-server',
    // Keep the folder when data lives on disk.
    stop: async () => {
      await server.stop({ doCleanup: !dbPath, force: false });
    },
  };
}

async function startStandIn(dataDir: string | undefined, dbName: string, compactBytes?: number): Promise<DatabaseHandle> {
  const { congodb } = await importEsm('@push.rocks/smartmongo');
  const port = await freePort();
  // Always the in-memory engine (its writes are atomic); with a data folder, a journal keeps it on disk.
  const server = new congodb.CongoServer({ host: '127.0.0.1', port, storage: 'memory' });
  await server.start();
  let journal: JournalHandle | null = null;
  if (dataDir) {
    const legacy = join(dataDir, 'stand-in');
    journal = await attachJournal(server.getStorage(), join(dataDir, 'stand-in-journal'), congodb.plugins.bson, async (storage) => {
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

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0].slice(0, 200);
}
