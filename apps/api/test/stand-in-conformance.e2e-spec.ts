import 'reflect-metadata';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mongo } from 'mongoose';
import { startDiskStandIn, type DiskStandIn } from './support/start-disk-stand-in';
import { CONFORMANCE_OPS, seedConformance, type Observation } from './support/conformance-ops';

const { EJSON } = mongo.BSON;

// The embedded default keeps the stand-in's memory on disk (a snapshot and a journal). A document read
// back after a restart must be indistinguishable from the one written: byte for byte in BSON, and under
// every query and update operator the app uses. Each way data comes back is tried: from a snapshot (a
// clean stop), from the journal alone (a crash), and from a snapshot the journal was folded into while
// running (compaction) followed by a crash. Each is compared with the same operations on data that never
// went through a restart, and that with what MongoDB answers (see conformance-ops.ts for the few places
// where the stand-in differs, and why the app does not depend on them).
describe('the on-disk stand-in gives back what it was given', () => {
  const control: Observation[] = [];
  let controlRaw: string[] = [];
  let controlAfter: string[] = [];

  async function withDatabase<T>(handle: DiskStandIn, run: (db: mongo.Db) => Promise<T>): Promise<T> {
    // promoteValues off: Int32, Double and Long come back as themselves, so types are compared too.
    const client = new mongo.MongoClient(handle.uri, { promoteValues: false });
    try {
      await client.connect();
      return await run(client.db('conformance'));
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  // Every document of every collection, as canonical EJSON of its raw BSON (types and key order kept).
  async function rawDocuments(db: mongo.Db): Promise<string[]> {
    const out: string[] = [];
    for (const name of ['things', 'others']) {
      const docs = await db.collection(name).find({}, { raw: true, sort: { _id: 1 } }).toArray();
      for (const bytes of docs as unknown as Buffer[]) out.push(`${name} ${EJSON.stringify(mongo.BSON.deserialize(bytes, { promoteValues: false }), { relaxed: false })}`);
    }
    return out;
  }

  async function runOps(db: mongo.Db): Promise<Observation[]> {
    const out: Observation[] = [];
    for (const op of CONFORMANCE_OPS) {
      try {
        out.push({ name: op.name, value: canonical(await op.run(db)) });
      } catch (error) {
        out.push({ name: op.name, value: canonical(`error: ${(error as Error).message}`) });
      }
    }
    return out;
  }

  it('without a restart, answers as MongoDB does (but for the differences listed in conformance-ops.ts)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'taleloom-conf-'));
    const handle = await startDiskStandIn(folder);
    try {
      await withDatabase(handle, async (db) => {
        await seedConformance(db);
        controlRaw = await rawDocuments(db);
        control.push(...(await runOps(db)));
        controlAfter = await rawDocuments(db);
      });
    } finally {
      await handle.stop();
    }
    const differ = CONFORMANCE_OPS.flatMap((op, i) => {
      const expected = canonical(op.standIn ? op.standIn.answer : op.mongo);
      return control[i].value === expected ? [] : [{ op: op.name, expected, got: control[i].value }];
    });
    expect(differ).toEqual([]);
  }, 60_000);

  const ways: { name: string; compactBytes?: number; restart: (h: DiskStandIn) => Promise<void>; check?: (folder: string) => void }[] = [
    { name: 'from a snapshot (SIGTERM, journal folded in on the way out)', restart: (h) => h.terminate(), check: journalEmpty },
    { name: 'from the journal alone (SIGKILL)', restart: (h) => h.stop(), check: journalHolds },
    {
      name: 'from a snapshot compacted while running, plus the journal after it (SIGKILL)',
      compactBytes: 2048,
      restart: (h) => h.stop(),
      check: (folder) => {
        // The seed wrote far more than 2 kB: the snapshot taken mid-run already holds the documents.
        expect(readFileSync(join(folder, 'stand-in-journal', 'snapshot.ejson'), 'utf8')).toContain('"key":"a"');
      },
    },
  ];

  for (const way of ways) {
    it(`after a restart ${way.name}: the same bytes and the same answers`, async () => {
      const folder = mkdtempSync(join(tmpdir(), 'taleloom-conf-'));
      const first = await startDiskStandIn(folder, { compactBytes: way.compactBytes });
      try {
        await withDatabase(first, (db) => seedConformance(db));
      } finally {
        await way.restart(first);
      }
      way.check?.(folder);
      const second = await startDiskStandIn(folder, { compactBytes: way.compactBytes });
      let observed: Observation[];
      try {
        observed = await withDatabase(second, async (db) => {
          expect(await rawDocuments(db)).toEqual(controlRaw);
          const answers = await runOps(db);
          expect(await rawDocuments(db)).toEqual(controlAfter);
          return answers;
        });
      } finally {
        await second.stop();
      }
      expect(observed).toEqual(control);
      // What the operations wrote survives the next crash too, byte for byte.
      const third = await startDiskStandIn(folder);
      try {
        await withDatabase(third, async (db) => expect(await rawDocuments(db)).toEqual(controlAfter));
      } finally {
        await third.stop();
      }
    }, 90_000);
  }

  it('a journal cut short by a crash mid-write loses only the cut line', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'taleloom-conf-'));
    const first = await startDiskStandIn(folder);
    await withDatabase(first, (db) => seedConformance(db));
    await first.stop();
    appendFileSync(join(folder, 'stand-in-journal', 'journal.ejsonl'), '{"o":"put","d":"conformance","c":"things","doc":{"_id":{"$oid":"6');
    const second = await startDiskStandIn(folder);
    try {
      await withDatabase(second, async (db) => {
        expect(await rawDocuments(db)).toEqual(controlRaw);
        // Written after the cut line: the start cut it off, so this is a line of its own.
        await db.collection('after_cut').insertOne({ n: 1 });
      });
    } finally {
      await second.stop();
    }
    const third = await startDiskStandIn(folder);
    try {
      await withDatabase(third, async (db) => {
        expect(await rawDocuments(db)).toEqual(controlRaw);
        expect((await db.collection('after_cut').find({}).toArray()).map((d) => Number(d.n))).toEqual([1]);
      });
    } finally {
      await third.stop();
    }
  }, 90_000);

});

function journalEmpty(folder: string): void {
  expect(readFileSync(join(folder, 'stand-in-journal', 'journal.ejsonl'), 'utf8')).toBe('');
}

function journalHolds(folder: string): void {
  const file = join(folder, 'stand-in-journal', 'journal.ejsonl');
  expect(existsSync(file) && readFileSync(file, 'utf8').includes('"key":"a"')).toBe(true);
}

/** Canonical EJSON text of an answer, so Int32 5 and Double 5 differ, as do a Date and its string. */
function canonical(value: unknown): string {
  return EJSON.stringify(value as never, { relaxed: false });
}
