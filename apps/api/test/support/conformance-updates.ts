// The stand-in conformance operations that write: each is followed by reading back what it changed.
import { mongo } from 'mongoose';
import { date, dbl, fields, IDS, int, itemQs, keys, NO_POSITIONAL, things, u, updated, type ConformanceOp } from './conformance-documents';

const { Long, Decimal128, ObjectId } = mongo;

export const UPDATE_OPS: ConformanceOp[] = [
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
