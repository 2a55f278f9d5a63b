import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mongo } from 'mongoose';
import { startDiskStandIn } from './support/start-disk-stand-in';

// The embedded default of `pnpm start` offline: the stand-in's in-memory engine kept on disk by a
// journal. Killed with SIGKILL between steps, it must come back with every acknowledged write, typed
// values as they were, and concurrent conditional updates applied atomically.
describe('the embedded stand-in with data on disk', () => {
  const folder = mkdtempSync(join(tmpdir(), 'taleloom-journal-'));

  async function withDatabase<T>(run: (db: mongo.Db) => Promise<T>): Promise<T> {
    const handle = await startDiskStandIn(folder);
    const client = new mongo.MongoClient(handle.uri);
    try {
      await client.connect();
      return await run(client.db('journal_test'));
    } finally {
      await client.close().catch(() => undefined);
      await handle.stop(); // SIGKILL: no clean shutdown
    }
  }

  it('keeps every acknowledged write, with its types, across kills', async () => {
    const refId = new mongo.ObjectId();
    const when = new Date('2026-11-22T01:02:03.456Z');
    const ids = await withDatabase(async (db) => {
      const col = db.collection('things');
      await col.createIndex({ name: 1 }, { unique: true });
      const inserted = await col.insertMany(Array.from({ length: 50 }, (_, i) => ({ name: `n${i}`, n: i, ref: refId, at: when, big: mongo.Long.fromString('9007199254740993') })));
      await col.updateOne({ name: 'n1' }, { $set: { n: 100 } });
      await col.deleteOne({ name: 'n2' });
      await db.collection('gone').insertOne({ x: 1 });
      await db.collection('gone').drop();
      return Object.values(inserted.insertedIds);
    });
    await withDatabase(async (db) => {
      const col = db.collection('things');
      expect(await col.countDocuments()).toBe(49);
      const one = await col.findOne({ _id: ids[0] });
      expect(one!.ref).toBeInstanceOf(mongo.ObjectId);
      expect(one!.ref.toHexString()).toBe(refId.toHexString());
      expect(one!.at).toBeInstanceOf(Date);
      expect(one!.at.toISOString()).toBe(when.toISOString());
      expect(String(one!.big)).toBe('9007199254740993');
      expect((await col.findOne({ name: 'n1' }))!.n).toBe(100);
      expect(await col.findOne({ name: 'n2' })).toBeNull();
      expect((await col.indexes()).map((i) => i.name)).toContain('name_1');
      expect(await db.listCollections({ name: 'gone' }).toArray()).toEqual([]);
    });
  }, 60_000);

  it('applies concurrent conditional updates of one document atomically, and keeps them', async () => {
    await withDatabase(async (db) => {
      const col = db.collection('balances');
      const { insertedId } = await col.insertOne({ points: 1000 });
      // 300 concurrent spends of 7 from 1000: exactly 142 may pass, never below zero.
      const results = await Promise.all(
        Array.from({ length: 300 }, () => col.updateOne({ _id: insertedId, points: { $gte: 7 } }, { $inc: { points: -7 } })),
      );
      const passed = results.filter((r) => r.modifiedCount === 1).length;
      expect(passed).toBe(142);
      expect((await col.findOne({ _id: insertedId }))!.points).toBe(1000 - 7 * 142);
      // Concurrent inserts are all kept.
      await Promise.all(Array.from({ length: 100 }, (_, i) => col.insertOne({ i })));
    });
    await withDatabase(async (db) => {
      const col = db.collection('balances');
      expect((await col.findOne({ points: { $exists: true } }))!.points).toBe(6);
      expect(await col.countDocuments({ i: { $exists: true } })).toBe(100);
    });
  }, 60_000);
});
