// Keeps the in-memory stand-in's data on disk: a snapshot plus a journal of every change since, both
// in canonical MongoDB Extended JSON (exact: Dates, ObjectIds, Longs, Decimal128s, Binaries...). The stand-in
// itself stays the in-memory one, whose writes are atomic (each command runs to its end before the
// next is read), unlike the stand-in's own file storage (which interleaves writes at every file access
// and hands typed values back as strings).
//
// Durability: each change is appended with one synchronous write before the command answers, so a
// killed process (kill -9) loses nothing it acknowledged; a power cut may lose what the OS had not
// flushed. The snapshot is rewritten (to a temporary file, then renamed) on a clean stop and whenever
// the journal passes JOURNAL_COMPACT_BYTES, not at start: a start reads the snapshot and at most that
// much journal, and goes on appending to the journal (a line a crash cut short is cut off first).
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The snapshot's file in the journal's folder: a folder that was ever opened has one. */
export const SNAPSHOT_FILE = 'snapshot.ejson';

/**
 * The journal is folded into the snapshot once it passes this size, so a start after a crash replays at
 * most this much (plus the lines of the command that passed it). Replaying 16 MB takes about as long
 * as reading a snapshot of that size; a 300-stream burst writes it in about a minute (each running
 * stream's text is stored every second), and the folding runs on the stand-in's thread.
 */
export const JOURNAL_COMPACT_BYTES = 16 * 1024 * 1024;

type Doc = Record<string, unknown> & { _id: { toHexString(): string } };
interface IndexSpec {
  name: string;
  [key: string]: unknown;
}

/** The part of the stand-in's MemoryStorageAdapter this uses (all of its mutations go through these). */
export interface MemoryStorage {
  listDatabases(): Promise<string[]>;
  listCollections(db: string): Promise<string[]>;
  findAll(db: string, coll: string): Promise<Doc[]>;
  findById(db: string, coll: string, id: unknown): Promise<Doc | null>;
  insertOne(db: string, coll: string, doc: Doc): Promise<Doc>;
  updateById(db: string, coll: string, id: unknown, doc: Doc): Promise<boolean>;
  deleteById(db: string, coll: string, id: unknown): Promise<boolean>;
  createDatabase(db: string): Promise<void>;
  dropDatabase(db: string): Promise<boolean>;
  createCollection(db: string, coll: string): Promise<void>;
  dropCollection(db: string, coll: string): Promise<boolean>;
  renameCollection(db: string, from: string, to: string): Promise<void>;
  saveIndex(db: string, coll: string, name: string, spec: Record<string, unknown>): Promise<void>;
  getIndexes(db: string, coll: string): Promise<IndexSpec[]>;
  dropIndex(db: string, coll: string, name: string): Promise<boolean>;
}

/**
 * The stand-in's own copy of bson (so restored values are of the classes it checks for): EJSON for the
 * files, and the binary codec its wire protocol decodes commands with.
 */
export interface Bson {
  EJSON: {
    stringify(value: unknown, options?: { relaxed?: boolean }): string;
    parse(text: string, options?: { relaxed?: boolean }): unknown;
  };
  serialize(value: Record<string, unknown>): Uint8Array;
  deserialize(bytes: Uint8Array): Record<string, unknown>;
}

type Change =
  | { o: 'put'; d: string; c: string; doc: Doc }
  | { o: 'del'; d: string; c: string; id: Doc['_id'] }
  | { o: 'cd'; d: string }
  | { o: 'dd'; d: string }
  | { o: 'cc'; d: string; c: string }
  | { o: 'dc'; d: string; c: string }
  | { o: 'rc'; d: string; from: string; to: string }
  | { o: 'si'; d: string; c: string; name: string; spec: Record<string, unknown> }
  | { o: 'di'; d: string; c: string; name: string };

interface Snapshot {
  databases: Record<string, Record<string, { docs: Doc[]; indexes: IndexSpec[] }>>;
}

export interface JournalHandle {
  /** Writes a fresh snapshot, empties the journal and stops journaling. */
  close(): Promise<void>;
}

/**
 * Restores `folder` (snapshot + journal) into the empty `storage`, then journals every change.
 * `migrate`, when the folder has no data yet, may fill the storage first (e.g. from an older format).
 */
export async function attachJournal(
  storage: MemoryStorage,
  folder: string,
  bson: Bson,
  migrate?: (storage: MemoryStorage) => Promise<void>,
  options: { compactBytes?: number } = {},
): Promise<JournalHandle> {
  const ejson = bson.EJSON;
  const compactBytes = options.compactBytes ?? JOURNAL_COMPACT_BYTES;
  const parse = (text: string) => ejson.parse(text, { relaxed: false });
  mkdirSync(folder, { recursive: true });
  const releaseLock = lockFolder(folder);
  const snapshotFile = join(folder, SNAPSHOT_FILE);
  const journalFile = join(folder, 'journal.ejsonl');
  const original = bindAll(storage);

  if (existsSync(snapshotFile)) {
    const snapshot = parse(readFileSync(snapshotFile, 'utf8')) as Snapshot;
    for (const [d, collections] of Object.entries(snapshot.databases)) {
      await original.createDatabase(d);
      for (const [c, { docs, indexes }] of Object.entries(collections)) {
        await original.createCollection(d, c);
        // One document at a time: a whole snapshot may pass BSON's 16 MB limit, a document cannot.
        for (const doc of docs) await original.insertOne(d, c, revive(bson, doc) as Doc);
        for (const { name, ...spec } of indexes) if (name !== '_id_') await original.saveIndex(d, c, name, revive(bson, spec) as Record<string, unknown>);
      }
    }
  } else if (migrate && !existsSync(journalFile)) {
    await migrate(original);
  }
  // The journal's bytes up to the end of its last whole line (what later lines are appended after).
  let journalBytes = 0;
  if (existsSync(journalFile)) {
    const text = readFileSync(journalFile, 'utf8');
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      if (!line) continue;
      let change: Change;
      try {
        change = revive(bson, parse(line)) as Change;
      } catch (error) {
        // Only the last line can be cut short (a crash mid-write); anything else is damage.
        if (i >= lines.length - 2) break;
        throw new Error(`the stand-in journal ${journalFile} is damaged at line ${i + 1}: ${String(error)}`);
      }
      await apply(original, change);
    }
    journalBytes = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
    // A line cut short goes, so the next line appended starts a line of its own.
    if (journalBytes < Buffer.byteLength(text)) truncateSync(journalFile, journalBytes);
  }

  const compact = async () => {
    const snapshot: Snapshot = { databases: {} };
    for (const d of await original.listDatabases()) {
      snapshot.databases[d] = {};
      for (const c of await original.listCollections(d)) {
        const docs = await original.findAll(d, c);
        snapshot.databases[d][c] = { docs, indexes: await original.getIndexes(d, c) };
      }
    }
    const temp = `${snapshotFile}.tmp`;
    const fd = openSync(temp, 'w');
    writeSync(fd, ejson.stringify(snapshot, { relaxed: false }));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, snapshotFile);
    writeFileSync(journalFile, '');
  };
  // A folder without a snapshot (new, or moved from an older format) gets one now: it is what marks the
  // folder as the stand-in's. Otherwise the start writes nothing: the journal goes on from where it was
  // (its replay stays bounded: it is folded in once it passes compactBytes). The memory storage answers
  // at once (no I/O), so nothing runs between these steps.
  if (!existsSync(snapshotFile) || journalBytes > compactBytes) {
    await compact();
    journalBytes = 0;
  }

  let fd: number | null = openSync(journalFile, 'a');
  let written = journalBytes;
  let compacting = false;
  const append = (change: Change) => {
    if (fd === null) return;
    const line = `${ejson.stringify(change, { relaxed: false })}\n`;
    written += writeSync(fd, line);
    if (written > compactBytes && !compacting) {
      compacting = true;
      written = 0;
      // After the command that wrote this has finished (it may write more).
      setImmediate(() => void compact().finally(() => (compacting = false)));
    }
  };

  // Each wrapper changes the memory first, then journals what is now there (nothing can run between:
  // the memory storage never waits on I/O). insertMany and deleteByIds go through insertOne / deleteById.
  const s = storage as unknown as Record<string, unknown>;
  s.insertOne = async (d: string, c: string, doc: Doc) => {
    const stored = await original.insertOne(d, c, doc);
    append({ o: 'put', d, c, doc: stored });
    return stored;
  };
  s.updateById = async (d: string, c: string, id: Doc['_id'], doc: Doc) => {
    const done = await original.updateById(d, c, id, doc);
    if (done) append({ o: 'put', d, c, doc: (await original.findById(d, c, id))! });
    return done;
  };
  s.deleteById = async (d: string, c: string, id: Doc['_id']) => {
    const done = await original.deleteById(d, c, id);
    if (done) append({ o: 'del', d, c, id });
    return done;
  };
  s.createDatabase = async (d: string) => {
    const known = (await original.listDatabases()).includes(d);
    await original.createDatabase(d);
    if (!known) append({ o: 'cd', d });
  };
  s.dropDatabase = async (d: string) => {
    const done = await original.dropDatabase(d);
    append({ o: 'dd', d });
    return done;
  };
  s.createCollection = async (d: string, c: string) => {
    const known = (await original.listCollections(d)).includes(c);
    await original.createCollection(d, c);
    if (!known) append({ o: 'cc', d, c });
  };
  s.dropCollection = async (d: string, c: string) => {
    const done = await original.dropCollection(d, c);
    append({ o: 'dc', d, c });
    return done;
  };
  s.renameCollection = async (d: string, from: string, to: string) => {
    await original.renameCollection(d, from, to);
    append({ o: 'rc', d, from, to });
  };
  s.saveIndex = async (d: string, c: string, name: string, spec: Record<string, unknown>) => {
    await original.saveIndex(d, c, name, spec);
    append({ o: 'si', d, c, name, spec });
  };
  s.dropIndex = async (d: string, c: string, name: string) => {
    const done = await original.dropIndex(d, c, name);
    append({ o: 'di', d, c, name });
    return done;
  };

  return {
    close: async () => {
      if (fd === null) return;
      closeSync(fd);
      fd = null;
      await compact();
      releaseLock();
    },
  };
}

/** Another process keeps this data folder (said as one sentence, without a stack). */
export class DataFolderInUseError extends Error {}

/**
 * One process at a time may keep a folder: two journals appended to by two processes would each lose
 * the other's writes. A lock left by a killed process (its pid no longer runs node) is taken over.
 */
function lockFolder(folder: string): () => void {
  const file = join(folder, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => {
        if (readLock(file) === process.pid) unlinkSync(file);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(file);
      if (holder !== null && holder !== process.pid && runsNode(holder)) {
        throw new DataFolderInUseError(
          `The data folder ${folder} is in use by process ${holder} (TaleLoom, or verify:ledger, already runs on this DATA_DIR): stop it first`,
        );
      }
      unlinkSync(file);
    }
  }
  throw new Error(`could not lock ${file}`);
}

function readLock(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

// Alive, and (where /proc tells) a node process: a pid reused by something else after a reboot is not a holder.
function runsNode(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true;
  }
}

/**
 * What the stand-in would hold had the value come over the wire. Canonical EJSON parses numbers into
 * wrapper objects (`{"$numberInt":"2"}` -> Int32, Double, Long) which the stand-in's query and update
 * engines do not treat as numbers (`$inc` fails with "non-numeric field", ranges and sorts go wrong);
 * its wire protocol decodes with bson's defaults, which give plain numbers (and a Long only beyond 2^53).
 * Sending the parsed value through the same codec gives exactly that, for every BSON type, at any depth.
 */
export function revive(bson: Bson, value: unknown): unknown {
  return bson.deserialize(bson.serialize({ v: value })).v;
}

function bindAll(storage: MemoryStorage): MemoryStorage {
  const s = storage as unknown as Record<string, (...args: unknown[]) => unknown>;
  const names: (keyof MemoryStorage)[] = [
    'listDatabases', 'listCollections', 'findAll', 'findById', 'insertOne', 'updateById', 'deleteById', 'createDatabase',
    'dropDatabase', 'createCollection', 'dropCollection', 'renameCollection', 'saveIndex', 'getIndexes', 'dropIndex',
  ];
  return Object.fromEntries(names.map((n) => [n, s[n].bind(storage)])) as unknown as MemoryStorage;
}

async function apply(storage: MemoryStorage, change: Change): Promise<void> {
  switch (change.o) {
    case 'put':
      if (await storage.findById(change.d, change.c, change.doc._id)) await storage.updateById(change.d, change.c, change.doc._id, change.doc);
      else await storage.insertOne(change.d, change.c, change.doc);
      return;
    case 'del':
      await storage.deleteById(change.d, change.c, change.id);
      return;
    case 'cd':
      return storage.createDatabase(change.d);
    case 'dd':
      await storage.dropDatabase(change.d);
      return;
    case 'cc':
      return storage.createCollection(change.d, change.c);
    case 'dc':
      await storage.dropCollection(change.d, change.c);
      return;
    case 'rc':
      // Replayed over a snapshot that already has it: the source is gone.
      await storage.renameCollection(change.d, change.from, change.to).catch(() => undefined);
      return;
    case 'si':
      return storage.saveIndex(change.d, change.c, change.name, change.spec);
    case 'di':
      await storage.dropIndex(change.d, change.c, change.name).catch(() => false);
      return;
  }
}
