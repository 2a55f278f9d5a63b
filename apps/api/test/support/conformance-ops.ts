// The documents and operations of the stand-in conformance test (stand-in-conformance.e2e-spec.ts):
// every BSON type the app stores, under every query and update operator the app's code uses (and a few
// neighbours), each with what MongoDB answers. Reads use promoteValues: false, so Int32, Double and Long
// are told apart.
//
// Where the stand-in answers otherwise, `standIn` says what it answers and why the app is not hurt;
// the test holds the stand-in to that answer, so a change in it is noticed. The list is the summary of
// how the embedded default differs from MongoDB for this app (see also docs/database.md).
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

const int = (n: number) => new Int32(n);
const dbl = (n: number) => new Double(n);
const date = (iso: string) => new Date(iso);

export const IDS = {
  a: new ObjectId('6b0000000000000000000a01'),
  b: new ObjectId('6b0000000000000000000b02'),
  c: new ObjectId('6b0000000000000000000c03'),
  ref: new ObjectId('6b00000000000000000000ff'),
  upserted: new ObjectId('6b0000000000000000000d04'),
};
const UUID_TEXT = '0e6b1c0c-6a53-4f9e-9b0e-5f4b8f2a7c11';

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
const RANKED_NAMES = ['b', 'B', 'a', 'A', 'Émile', 'émile', '_x', '10', '9', 'zed', 'Zed', 'ant', 'Ant', 'beta', 'Beta', 'x1', 'x10', 'x2']
  .flatMap((n) => [n, `${n} two`])
  .concat(['c', 'C', 'd', 'D', 'e', 'E', 'f', 'F', 'g', 'G', 'h', 'H']);
const rankedIn = (grp: number) => RANKED_NAMES.filter((_, i) => (i % 3 === 2 ? 2 : 1) === grp);
// Byte order of these names (all in the Basic Multilingual Plane) is their order by UTF-16 code unit.
const byBytes = (names: string[]) => [...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
const names = async (cursor: mongo.FindCursor) => (await cursor.project({ _id: 0, name: 1 }).toArray()).map((d) => d.name as string);

const things = (db: mongo.Db) => db.collection('things');
const keys = async (cursor: mongo.FindCursor) => (await cursor.project({ _id: 0, key: 1 }).toArray()).map((d) => d.key as string);
const fields = (db: mongo.Db, id: mongo.ObjectId, ...names: string[]) =>
  things(db).findOne({ _id: id }, { projection: { _id: 0, ...Object.fromEntries(names.map((n) => [n, 1])) } });
// The q of each item, in order (read whole: the stand-in projects paths through arrays differently).
const itemQs = async (db: mongo.Db, ...more: string[]) => {
  const doc = await fields(db, IDS.a, 'items', ...more);
  const { items, ...rest } = doc!;
  return { ...rest, q: (items as { q: unknown }[]).map((i) => i.q) };
};
const NO_POSITIONAL =
  'positional ($, $[], $[id]) paths and arrayFilters are not applied; the app addresses array elements by index, checked in the filter (see pictures), and the API lint forbids positional paths';
// An update document as the driver sends it (its types refuse $push/$pull on an untyped collection).
const u = (update: object) => update as mongo.UpdateFilter<mongo.Document>;
const updated = (r: mongo.UpdateResult) => ({ matched: r.matchedCount, modified: r.modifiedCount, upserted: r.upsertedCount });

export const CONFORMANCE_OPS: ConformanceOp[] = [
  // Queries first, so they read what came back from disk before anything changes it.
  {
    name: 'equality on an indexed field, sorted by a string, the first page of many',
    run: (db) => names(db.collection('ranked').find({ grp: 1 }).sort({ name: 1 }).limit(3)),
    mongo: byBytes([...rankedIn(1), 'array']).slice(0, 3),
  },
  {
    name: 'equality on an indexed field, sorted descending, a later page',
    run: (db) => names(db.collection('ranked').find({ grp: 1 }).sort({ name: -1 }).skip(4).limit(3)),
    mongo: byBytes([...rankedIn(1), 'array']).reverse().slice(4, 7),
  },
  {
    name: 'equality on an indexed field: inside an array, and a string is not a number',
    run: async (db) => [
      await names(db.collection('ranked').find({ grp: 3 })),
      await names(db.collection('ranked').find({ grp: '1' })),
      await db.collection('ranked').countDocuments({ grp: 2 }),
      await db.collection('ranked').countDocuments({ grp: 1, name: { $lt: 'a' } }),
    ],
    mongo: [['array'], ['string'], rankedIn(2).length, [...rankedIn(1), 'array'].filter((n) => n < 'a').length],
  },
  {
    name: 'equality on an indexed field after updates move documents between values, sorted whole',
    run: async (db) => {
      const ranked = db.collection('ranked');
      await ranked.updateOne({ name: rankedIn(2)[0] }, { $set: { grp: int(1) } });
      await ranked.updateOne({ name: 'missing' }, { $set: { grp: int(2) } });
      await ranked.updateOne({ name: rankedIn(1)[0] }, { $unset: { grp: '' } });
      await ranked.deleteOne({ name: rankedIn(1)[1] });
      return [await names(ranked.find({ grp: 1 }).sort({ name: 1 })), await names(ranked.find({ grp: 2 }).sort({ name: -1 }).limit(2))];
    },
    mongo: [
      byBytes([...rankedIn(1).slice(2), 'array', rankedIn(2)[0]]),
      byBytes([...rankedIn(2).slice(1), 'missing']).reverse().slice(0, 2),
    ],
  },
  { name: 'find by Int32 equality', run: (db) => keys(things(db).find({ i32: 2 })), mongo: ['a'] },
  { name: 'find a Double by an integer', run: (db) => keys(things(db).find({ whole: 5 })), mongo: ['a'] },
  { name: 'find by a number range', run: (db) => keys(things(db).find({ i32: { $gt: 1, $lte: 10 } }).sort({ key: 1 })), mongo: ['a', 'b'] },
  { name: 'find beyond 2^31', run: (db) => keys(things(db).find({ big: { $gte: 3_000_000_000 } })), mongo: ['a'] },
  { name: 'find a Long by a number', run: (db) => keys(things(db).find({ lsafe: { $lt: 43 } })), mongo: ['a'] },
  { name: 'find a Long beyond 2^53', run: (db) => keys(things(db).find({ lbig: Long.fromString('9007199254740993') })), mongo: ['a'] },
  { name: 'find by $in on numbers', run: (db) => keys(things(db).find({ i32: { $in: [2, 10] } }).sort({ key: 1 })), mongo: ['a', 'b'] },
  {
    // The stand-in reads the named documents alone for this (a burst's story reads, batched); the whole filter still applies.
    name: 'find by _id $in (a repeated id, a missing one) and another field',
    run: (db) => keys(things(db).find({ _id: { $in: [IDS.c, IDS.a, IDS.c, IDS.ref, IDS.b] }, i32: { $lt: 5 } }).sort({ key: 1 })),
    mongo: ['a', 'c'],
  },
  { name: 'find by $ne', run: (db) => keys(things(db).find({ i32: { $ne: 2 } }).sort({ key: 1 })), mongo: ['b', 'c'] },
  {
    name: 'find by a date range',
    run: (db) => keys(things(db).find({ at: { $gte: date('2026-01-01T00:00:00Z'), $lt: date('2026-02-01T00:00:00Z') } })),
    mongo: ['a'],
  },
  { name: 'sort by number ascending', run: (db) => keys(things(db).find().sort({ i32: 1 })), mongo: ['c', 'a', 'b'] },
  { name: 'sort by double descending', run: (db) => keys(things(db).find().sort({ dbl: -1 })), mongo: ['a', 'b', 'c'] },
  { name: 'sort by date descending, with skip and limit', run: (db) => keys(things(db).find().sort({ at: -1 }).skip(1).limit(1)), mongo: ['a'] },
  { name: 'find in an array of numbers', run: (db) => keys(things(db).find({ nums: 2 }).sort({ key: 1 })), mongo: ['a', 'c'] },
  { name: 'find by a subdocument field in an array', run: (db) => keys(things(db).find({ 'items.n': { $gt: 2 } })), mongo: ['a'] },
  { name: 'find by a date in an array of subdocuments', run: (db) => keys(things(db).find({ 'items.at': { $lt: date('2026-01-15T00:00:00Z') } })), mongo: ['a'] },
  { name: 'find by Decimal128', run: (db) => keys(things(db).find({ dec: Decimal128.fromString('1.10') })), mongo: ['a'] },
  { name: 'find by ObjectId', run: (db) => keys(things(db).find({ ref: IDS.ref })), mongo: ['a'] },
  { name: 'find by Binary', run: (db) => keys(things(db).find({ bin: new Binary(Buffer.from([1, 2, 3])) })), mongo: ['a'] },
  { name: 'find by UUID', run: (db) => keys(things(db).find({ uuid: new UUID(UUID_TEXT) })), mongo: ['a'] },
  { name: 'find null or missing', run: (db) => keys(things(db).find({ nil: null }).sort({ key: 1 })), mongo: ['a', 'b'] },
  { name: 'find by $exists', run: (db) => keys(things(db).find({ flag: { $exists: true } })), mongo: ['a'] },
  { name: 'find by $type string', run: (db) => keys(things(db).find({ nil: { $type: 'string' } })), mongo: ['c'] },
  { name: 'find by $regex (Unicode)', run: (db) => keys(things(db).find({ text: { $regex: '世界' } })), mongo: ['a'] },
  { name: 'find by $or', run: (db) => keys(things(db).find({ $or: [{ i32: -3 }, { key: 'b' }] }).sort({ key: 1 })), mongo: ['b', 'c'] },
  { name: 'count with a filter', run: (db) => things(db).countDocuments({ i32: { $lt: 5 } }), mongo: 2 },
  { name: 'a projection keeps every type', run: (db) => fields(db, IDS.a, 'i32', 'big', 'dbl', 'whole', 'lsafe', 'lbig', 'dec', 'at', 'bin', 'uuid', 'deep'), mongo: {
    i32: int(2), big: dbl(3_000_000_000), dbl: dbl(1.5), whole: dbl(5), lsafe: Long.fromNumber(42), lbig: Long.fromString('9007199254740993'),
    dec: Decimal128.fromString('1.10'), at: date('2026-01-02T03:04:05.678Z'), bin: new Binary(Buffer.from([1, 2, 3])), uuid: new UUID(UUID_TEXT),
    deep: { a: { b: [[int(1), int(2)], [int(3), { c: int(4) }]] }, when: date('2025-12-31T23:59:59.999Z') },
  }, standIn: {
    answer: {
      i32: int(2), big: dbl(3_000_000_000), dbl: dbl(1.5), whole: int(5), lsafe: int(42), lbig: Long.fromString('9007199254740993'),
      dec: Decimal128.fromString('1.10'), at: date('2026-01-02T03:04:05.678Z'), bin: new Binary(Buffer.from([1, 2, 3])), uuid: new UUID(UUID_TEXT),
      deep: { a: { b: [[int(1), int(2)], [int(3), { c: int(4) }]] }, when: date('2025-12-31T23:59:59.999Z') },
    },
    why: 'it decodes commands with bson\'s defaults, so an integral Double and a Long within 2^53 become JS numbers and go back as Int32; mongoose\'s Number fields hold JS numbers either way, and the app stores no Long or Double type',
  } },
  {
    name: 'aggregate $match + $group $sum',
    run: (db) => things(db).aggregate([{ $match: { key: { $in: ['a', 'b', 'c'] } } }, { $group: { _id: null, total: { $sum: '$i32' }, n: { $sum: 1 } } }]).toArray(),
    mongo: [{ _id: null, total: int(9), n: int(3) }],
  },
  { name: 'distinct numbers', run: async (db) => (await things(db).distinct('i32')).map(String).sort(), mongo: ['-3', '10', '2'] },

  // Updates: each followed by reading back what it changed.
  {
    name: '$inc on Int32, Double, beyond 2^31, negative, new field, nested new field',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $inc: { i32: 1, big: 1, neg: -1, dbl: 1, count: 1, fresh: 2, 'deep.x': 3 } });
      return fields(db, IDS.a, 'i32', 'big', 'neg', 'dbl', 'count', 'fresh', 'deep.x');
    },
    mongo: { i32: int(3), big: dbl(3_000_000_001), neg: int(-6), dbl: dbl(2.5), count: int(1), fresh: int(2), deep: { x: int(3) } },
  },
  {
    name: '$inc on an integral Double and a Long',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $inc: { whole: 1, lsafe: 1 } });
      return fields(db, IDS.a, 'whole', 'lsafe');
    },
    mongo: { whole: dbl(6), lsafe: Long.fromNumber(43) },
    standIn: { answer: { whole: int(6), lsafe: int(43) }, why: 'the same: the type was lost when the value was written, not at the restart' },
  },
  {
    name: '$inc on a Long beyond 2^53',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $inc: { lbig: 1 } });
      return fields(db, IDS.a, 'lbig');
    },
    mongo: { lbig: Long.fromString('9007199254740994') },
    standIn: { answer: 'error: Cannot apply $inc to non-numeric field: lbig', why: 'no arithmetic on Long; the app\'s counters and balances are far below 2^53' },
  },
  {
    name: '$inc on Decimal128',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $inc: { dec: Decimal128.fromString('1') } });
      return fields(db, IDS.a, 'dec');
    },
    mongo: { dec: Decimal128.fromString('2.10') },
    standIn: { answer: 'error: Cannot apply $inc to non-numeric field: dec', why: 'no arithmetic on Decimal128; the app stores money as integer points' },
  },
  { name: '$inc on an array element by index', run: async (db) => {
    await things(db).updateOne({ _id: IDS.a }, { $inc: { 'nums.1': 5 } });
    return fields(db, IDS.a, 'nums');
  }, mongo: { nums: [int(3), int(6), int(2)] } },
  {
    name: 'conditional $inc (a spend): passes once, then refused',
    run: async (db) => {
      const first = await things(db).updateOne({ _id: IDS.a, seq: { $gte: 7 } }, { $inc: { seq: -7 } });
      const second = await things(db).updateOne({ _id: IDS.a, seq: { $gte: 7 } }, { $inc: { seq: -7 } });
      return [updated(first), updated(second), await fields(db, IDS.a, 'seq')];
    },
    mongo: [{ matched: 1, modified: 1, upserted: 0 }, { matched: 0, modified: 0, upserted: 0 }, { seq: int(0) }],
  },
  {
    name: 'findOneAndUpdate $inc returning the new document',
    run: async (db) => (await things(db).findOneAndUpdate({ _id: IDS.a }, { $inc: { count: 5 } }, { returnDocument: 'after', projection: { _id: 0, count: 1 } })),
    mongo: { count: int(6) },
  },
  {
    name: '$set on nested paths, through arrays, and of a date',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $set: { 'items.1.q': 21, 'deep.a.b.1.1.c': 5, at: date('2026-01-03T00:00:00Z'), 'deep.note': 'n' } });
      return fields(db, IDS.a, 'items', 'deep', 'at');
    },
    mongo: {
      items: [
        { n: int(1), q: int(10), at: date('2026-01-01T00:00:00Z') },
        { n: int(2), q: int(21), at: date('2026-02-01T00:00:00Z') },
        { n: int(3), q: int(30), at: date('2026-03-01T00:00:00Z') },
      ],
      deep: { a: { b: [[int(1), int(2)], [int(3), { c: int(5) }]] }, when: date('2025-12-31T23:59:59.999Z'), x: int(3), note: 'n' },
      at: date('2026-01-03T00:00:00Z'),
    },
  },
  {
    name: 'upsert with $setOnInsert: an existing document keeps its fields, a new one gets them',
    run: async (db) => {
      const existing = await things(db).updateOne({ _id: IDS.b }, { $setOnInsert: { seq: 99 }, $inc: { i32: 1 } }, { upsert: true });
      const inserted = await things(db).updateOne({ _id: IDS.upserted }, { $setOnInsert: { key: 'd', seq: 5, at: date('2026-05-05T00:00:00Z') }, $inc: { i32: 1 } }, { upsert: true });
      return [updated(existing), updated(inserted), await fields(db, IDS.b, 'seq', 'i32'), await fields(db, IDS.upserted, 'key', 'seq', 'i32', 'at')];
    },
    mongo: [
      { matched: 1, modified: 1, upserted: 0 },
      { matched: 0, modified: 0, upserted: 1 },
      { seq: int(1), i32: int(11) },
      { key: 'd', seq: int(5), i32: int(1), at: date('2026-05-05T00:00:00Z') },
    ],
  },
  {
    name: '$push with $each and $slice, and with $sort',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, u({ $push: { nums: { $each: [9, 8], $slice: -3 } } }));
      await things(db).updateOne({ _id: IDS.a }, u({ $push: { items: { $each: [{ n: 4, q: 40 }], $sort: { q: -1 }, $slice: 3 } } }));
      return itemQs(db, 'nums');
    },
    mongo: { nums: [int(2), int(9), int(8)], q: [int(40), int(30), int(21)] },
  },
  {
    name: '$push of a value, and $pull of it again (a claim list)',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, u({ $push: { pending: 'e3' } }));
      const mid = await fields(db, IDS.a, 'pending');
      await things(db).updateOne({ _id: IDS.a }, u({ $pull: { pending: 'e1' } }));
      return [mid, await fields(db, IDS.a, 'pending')];
    },
    mongo: [{ pending: ['e1', 'e2', 'e3'] }, { pending: ['e2', 'e3'] }],
  },
  {
    name: '$pull of a number by value, $pullAll',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, u({ $pull: { nums: 9 } }));
      await things(db).updateOne({ _id: IDS.a }, u({ $pullAll: { tags: ['x'], pending: ['e2', 'nope'] } }));
      return fields(db, IDS.a, 'nums', 'tags', 'pending');
    },
    mongo: { nums: [int(2), int(8)], tags: ['y'], pending: ['e3'] },
  },
  {
    name: '$pull by a condition',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, u({ $pull: { nums: { $gte: 8 } } }));
      return fields(db, IDS.a, 'nums');
    },
    mongo: { nums: [int(2)] },
    standIn: {
      answer: 'error: unknown top level operator: $gte',
      why: 'the app pulls by value only (the ledger\'s claim lists); a condition would fail loudly on the stand-in, never silently',
    },
  },
  {
    name: '$pull by value after a refused $pull by condition',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, u({ $pull: { nums: 8 } }));
      return fields(db, IDS.a, 'nums');
    },
    mongo: { nums: [int(2)] },
  },
  {
    name: '$addToSet with $each (a number already there is not added twice)',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $addToSet: { nums: { $each: [2, 7] }, tags: 'y' } });
      return fields(db, IDS.a, 'nums', 'tags');
    },
    mongo: { nums: [int(2), int(7)], tags: ['y'] },
  },
  {
    name: '$min and $max on numbers and dates',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $min: { i32: 0, neg: 100 }, $max: { big: 4_000_000_000, count: 1 } });
      await things(db).updateOne({ _id: IDS.c }, { $max: { at: date('2026-08-01T00:00:00Z') }, $min: { seq: -1 } });
      await things(db).updateOne({ _id: IDS.b }, { $min: { at: date('2020-01-01T00:00:00Z') } });
      return [await fields(db, IDS.a, 'i32', 'neg', 'big', 'count'), await fields(db, IDS.c, 'at', 'seq'), await fields(db, IDS.b, 'at')];
    },
    mongo: [
      { i32: int(0), neg: int(-6), big: dbl(4_000_000_000), count: int(6) },
      { at: date('2026-08-01T00:00:00Z'), seq: int(-1) },
      { at: date('2020-01-01T00:00:00Z') },
    ],
  },
  {
    name: 'an update by array index (how the app changes one element)',
    run: async (db) => {
      const r = await things(db).updateOne({ _id: IDS.a, 'items.1.q': 30 }, { $set: { 'items.1.q': 31 } });
      return [updated(r), await itemQs(db)];
    },
    mongo: [{ matched: 1, modified: 1, upserted: 0 }, { q: [int(40), int(31), int(21)] }],
  },
  {
    name: 'positional $ update',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a, 'items.q': 31 }, { $inc: { 'items.$.q': 1 } });
      return itemQs(db);
    },
    mongo: { q: [int(40), int(32), int(21)] },
    standIn: { answer: 'error: Cannot apply $inc to non-numeric field: items.$.q', why: NO_POSITIONAL },
  },
  {
    name: 'arrayFilters update',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $inc: { 'items.$[e].q': 100 } }, { arrayFilters: [{ 'e.q': { $lt: 35 } }] });
      return itemQs(db);
    },
    mongo: { q: [int(40), int(132), int(121)] },
    standIn: { answer: 'error: Cannot apply $inc to non-numeric field: items.$[e].q', why: NO_POSITIONAL },
  },
  {
    name: 'a projection of a field inside an array of subdocuments',
    run: (db) => fields(db, IDS.a, 'items.n'),
    mongo: { items: [{ n: int(4) }, { n: int(3) }, { n: int(2) }] },
    standIn: {
      answer: { items: { n: [int(4), int(3), int(2)] } },
      why: 'the app projects whole fields only (a lint rule would not see it, so the story list and play projections name top-level fields)',
    },
  },
  {
    name: '$unset and $set of null',
    run: async (db) => {
      await things(db).updateOne({ _id: IDS.a }, { $unset: { nil: '' }, $set: { flag: null } });
      return fields(db, IDS.a, 'nil', 'flag');
    },
    mongo: { flag: null },
  },
  {
    name: 'updateMany with a range filter',
    run: async (db) => {
      const r = await things(db).updateMany({ i32: { $lt: 5 } }, { $inc: { seq: 10 } });
      return [updated(r), (await things(db).find({}, { projection: { _id: 0, key: 1, seq: 1 }, sort: { key: 1 } }).toArray())];
    },
    mongo: [
      { matched: 3, modified: 3, upserted: 0 },
      [{ key: 'a', seq: int(10) }, { key: 'b', seq: int(1) }, { key: 'c', seq: int(9) }, { key: 'd', seq: int(15) }],
    ],
  },
  {
    name: 'updateMany by _id $in (a missing id) and another field',
    run: async (db) => {
      const r = await things(db).updateMany({ _id: { $in: [IDS.b, IDS.ref, IDS.c] }, i32: { $gt: 0 } }, { $set: { picked: true } });
      return [updated(r), (await keys(things(db).find({ picked: true })))];
    },
    mongo: [{ matched: 1, modified: 1, upserted: 0 }, ['b']],
  },
  {
    name: 'replaceOne keeps the _id and the new types',
    run: async (db) => {
      await db.collection('others').replaceOne({ i: 3 }, { i: int(3), replaced: true, when: date('2026-09-09T09:09:09Z'), d: dbl(0.1) });
      return db.collection('others').findOne({ i: 3 }, { projection: { _id: 1, i: 1, replaced: 1, when: 1, d: 1, pad: 1 } });
    },
    mongo: { _id: new ObjectId('6b0000000000000000001003'), i: int(3), replaced: true, when: date('2026-09-09T09:09:09Z'), d: dbl(0.1) },
  },
  {
    name: 'deleteOne and deleteMany by a range',
    run: async (db) => {
      const one = await things(db).deleteOne({ key: 'c' });
      const many = await db.collection('others').deleteMany({ i: { $gte: 30 } });
      return [one.deletedCount, many.deletedCount, await things(db).countDocuments(), await db.collection('others').countDocuments()];
    },
    mongo: [1, 10, 3, 30],
  },
  {
    name: 'a duplicate key on a unique index',
    run: async (db) => {
      try {
        await things(db).insertOne({ _id: new ObjectId('6b0000000000000000000e05'), key: 'a' });
        return 'inserted';
      } catch (error) {
        return (error as { code?: number }).code;
      }
    },
    mongo: 11000,
    standIn: {
      answer: 'inserted',
      why: 'unique indexes are not enforced: every invariant rests on conditional single-document updates and pre-checks (ARCHITECTURE.md), and the index still protects production',
    },
  },
];
