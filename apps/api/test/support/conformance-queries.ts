// The stand-in conformance operations that read (conformance-ops.ts runs them first, before anything
// changes what came back from disk); one also moves documents between index values and reads them again.
import { mongo } from 'mongoose';
import { byBytes, date, dbl, fields, IDS, int, keys, names, rankedIn, things, UUID_TEXT, type ConformanceOp } from './conformance-documents';

const { Long, Decimal128, Binary, UUID } = mongo;

export const QUERY_OPS: ConformanceOp[] = [
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
];
