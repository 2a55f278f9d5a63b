// The documents the stand-in conformance operations (conformance-ops.ts) run on, and the helpers they
// read them back with.
import { mongo } from 'mongoose';

const { Int32, Double, Long, Decimal128, Binary, ObjectId, UUID } = mongo;

export interface Observation {
  name: string;
  value: string;
}

export interface ConformanceOp {
  name: string;
  run(db: mongo.Db): Promise<unknown>;
  /** MongoDB's answer. */
  mongo: unknown;
  /** Where the stand-in differs: its answer, and why the app does not depend on the difference. */
  standIn?: { answer: unknown; why: string };
}

export const int = (n: number) => new Int32(n);
export const dbl = (n: number) => new Double(n);
export const date = (iso: string) => new Date(iso);

export const IDS = {
  a: new ObjectId('6b0000000000000000000a01'),
  b: new ObjectId('6b0000000000000000000b02'),
  c: new ObjectId('6b0000000000000000000c03'),
  ref: new ObjectId('6b00000000000000000000ff'),
  upserted: new ObjectId('6b0000000000000000000d04'),
};
export const UUID_TEXT = '0e6b1c0c-6a53-4f9e-9b0e-5f4b8f2a7c11';

/** Three documents with every type the app stores, in the shapes it stores them. */
export async function seedConformance(db: mongo.Db): Promise<void> {
  const things = db.collection('things');
  await things.createIndex({ key: 1 }, { unique: true });
  await things.createIndex({ at: -1, i32: 1 });
  await things.insertMany([
    {
      _id: IDS.a,
      key: 'a',
      i32: int(2),
      big: dbl(3_000_000_000),
      neg: int(-5),
      dbl: dbl(1.5),
      whole: dbl(5),
      lsafe: Long.fromNumber(42),
      lbig: Long.fromString('9007199254740993'),
      dec: Decimal128.fromString('1.10'),
      at: date('2026-01-02T03:04:05.678Z'),
      ref: IDS.ref,
      bin: new Binary(Buffer.from([1, 2, 3])),
      uuid: new UUID(UUID_TEXT),
      flag: true,
      nil: null,
      text: 'Héllo 世界 "quoted" \\ slash',
      nums: [int(3), int(1), int(2)],
      tags: ['x', 'y'],
      items: [
        { n: int(1), q: int(10), at: date('2026-01-01T00:00:00Z') },
        { n: int(2), q: int(20), at: date('2026-02-01T00:00:00Z') },
        { n: int(3), q: int(30), at: date('2026-03-01T00:00:00Z') },
      ],
      deep: { a: { b: [[int(1), int(2)], [int(3), { c: int(4) }]] }, when: date('2025-12-31T23:59:59.999Z') },
      seq: int(7),
      count: int(0),
      pending: ['e1', 'e2'],
    },
    { _id: IDS.b, key: 'b', i32: int(10), dbl: dbl(0.25), at: date('2026-06-15T12:00:00Z'), seq: int(1), nums: [], items: [], tags: [] },
    { _id: IDS.c, key: 'c', i32: int(-3), dbl: dbl(-0.5), at: date('2025-07-01T00:00:00Z'), seq: int(0), nil: 'set', nums: [int(2)], items: [], tags: ['y'] },
  ]);
  // A second collection, and enough filler to pass a small compaction threshold several times.
  await db.collection('others').insertMany(
    Array.from({ length: 40 }, (_, i) => ({ _id: new ObjectId(`6b00000000000000000010${i.toString(16).padStart(2, '0')}`), i: int(i), pad: 'p'.repeat(100) })),
  );
  // Many documents under an index whose first field is looked up by equality (as the story lists are),
  // sorted by a string whose order by code unit differs from a locale's.
  const ranked = db.collection('ranked');
  await ranked.createIndex({ grp: 1, name: 1 });
  await ranked.insertMany([
    ...RANKED_NAMES.map((name, i) => ({ _id: new ObjectId(`6b00000000000000000020${i.toString(16).padStart(2, '0')}`), grp: int(i % 3 === 2 ? 2 : 1), name })),
    { _id: new ObjectId('6b0000000000000000002f01'), grp: [int(1), int(3)], name: 'array' },
    { _id: new ObjectId('6b0000000000000000002f02'), grp: '1', name: 'string' },
    { _id: new ObjectId('6b0000000000000000002f03'), name: 'missing' },
  ]);
}

// Upper and lower case, digits, an underscore and accented letters: MongoDB orders them by bytes.
export const RANKED_NAMES = ['b', 'B', 'a', 'A', 'Émile', 'émile', '_x', '10', '9', 'zed', 'Zed', 'ant', 'Ant', 'beta', 'Beta', 'x1', 'x10', 'x2']
  .flatMap((n) => [n, `${n} two`])
  .concat(['c', 'C', 'd', 'D', 'e', 'E', 'f', 'F', 'g', 'G', 'h', 'H']);
export const rankedIn = (grp: number) => RANKED_NAMES.filter((_, i) => (i % 3 === 2 ? 2 : 1) === grp);
// Byte order of these names (all in the Basic Multilingual Plane) is their order by UTF-16 code unit.
export const byBytes = (names: string[]) => [...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
export const names = async (cursor: mongo.FindCursor) => (await cursor.project({ _id: 0, name: 1 }).toArray()).map((d) => d.name as string);

export const things = (db: mongo.Db) => db.collection('things');
export const keys = async (cursor: mongo.FindCursor) => (await cursor.project({ _id: 0, key: 1 }).toArray()).map((d) => d.key as string);
export const fields = (db: mongo.Db, id: mongo.ObjectId, ...names: string[]) =>
  things(db).findOne({ _id: id }, { projection: { _id: 0, ...Object.fromEntries(names.map((n) => [n, 1])) } });
// The q of each item, in order (read whole: the stand-in projects paths through arrays differently).
export const itemQs = async (db: mongo.Db, ...more: string[]) => {
  const doc = await fields(db, IDS.a, 'items', ...more);
  const { items, ...rest } = doc!;
  return { ...rest, q: (items as { q: unknown }[]).map((i) => i.q) };
};
export const NO_POSITIONAL =
  'positional ($, $[], $[id]) paths and arrayFilters are not applied; the app addresses array elements by index, checked in the filter (see pictures), and the API lint forbids positional paths';
// An update document as the driver sends it (its types refuse $push/$pull on an untyped collection).
export const u = (update: object) => update as mongo.UpdateFilter<mongo.Document>;
export const updated = (r: mongo.UpdateResult) => ({ matched: r.matchedCount, modified: r.modifiedCount, upserted: r.upsertedCount });
