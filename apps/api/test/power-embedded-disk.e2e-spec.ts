import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { PowerReason } from '@taleloom/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Types, type Connection } from 'mongoose';
import type { DatabaseHandle } from '../src/database/embedded-database';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { createDiskApp, startDiskStandIn } from './support/start-disk-stand-in';

// `pnpm start` without MONGODB_URI keeps the stand-in's data on disk (its atomic in-memory engine and
// a journal). This runs the ledger on it, with no serializing of its own.
describe('the power ledger on the embedded stand-in with data on disk', () => {
  let database: DatabaseHandle;
  let app: INestApplication;
  let db: Connection['db'];
  let power: PowerService;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-disk-'));
    database = await startDiskStandIn(join(dataDir, 'db'));
    app = await createDiskApp(database, dataDir);
    db = app.get<Connection>(getConnectionToken()).db;
    power = app.get(PowerService);
  });
  afterAll(async () => {
    await app?.close();
    await database?.stop();
  });

  const newUser = async (name: string) => {
    const _id = new Types.ObjectId();
    await db!.collection('users').insertOne({ _id, userName: name, userNameKey: name, points: 0 });
    return _id.toHexString();
  };
  const balance = async (id: string) => (await db!.collection('users').findOne({ _id: new Types.ObjectId(id) }))!.points;

  it('grants once per key and never lets concurrent holds overdraw', async () => {
    const user = await newUser('disk');
    const grants = await Promise.all(Array.from({ length: 10 }, () => power.grant(user, 20_000, PowerReason.INIT_POINTS, 'seed')));
    expect(grants.filter((g) => g.created)).toHaveLength(1);
    expect(await balance(user)).toBe(20_000);
    const sizes = Array.from({ length: 40 }, () => 10 + Math.floor(Math.random() * 800));
    const outcomes = await Promise.allSettled(sizes.map((size, i) => power.hold(user, size, `h${i}`)));
    const held = sizes.filter((_, i) => outcomes[i].status === 'fulfilled').reduce((a, b) => a + b, 0);
    expect(held).toBeLessThanOrEqual(20_000);
    expect(await balance(user)).toBe(20_000 - held);
    const holdIds = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const author = await newUser('disk-author');
    const royalty = { authorUserID: author, storyID: 's', storyName: 'On disk' };
    await Promise.all(holdIds.flatMap((id) => [power.settle(id, 10, royalty), power.settle(id, 10, royalty)]));
    expect(await balance(user)).toBe(20_000 - 10 * holdIds.length);
    expect(await balance(author)).toBe(holdIds.length);
    expect((await verifyLedger(db!)).drifts).toEqual([]);
  }, 60_000);
});
