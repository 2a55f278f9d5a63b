// `pnpm --filter @taleloom/api bench`: holds+settles per second on one hot balance and across 1000
// balances, then the ledger verification. Prints figures; never fails on a time (only on drift).
// Sizes: BENCH_PAIRS (default 600 per scenario), BENCH_CONCURRENCY (default 32).
import 'reflect-metadata';
import { getConnectionToken } from '@nestjs/mongoose';
import { PowerReason } from '@taleloom/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Types, type Connection } from 'mongoose';
import { createApp } from '../src/app.factory';
import { resolveConfig } from '../src/config/app-config';
import { validateEnv } from '../src/config/env.validation';
import { startDatabase } from '../src/database/embedded-database';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { record } from './support/report';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 600);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const BALANCES = 1000;

interface Row {
  scenario: string;
  pairs: number;
  seconds: number;
  perSecond: number;
}

// Runs `count` tasks with at most `limit` in flight.
async function pool(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

async function timed(scenario: string, pairs: number, run: () => Promise<void>): Promise<Row> {
  const started = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { scenario, pairs, seconds: round(seconds, 2), perSecond: round(pairs / seconds, 1) };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

async function insertUsers(connection: Connection, count: number): Promise<string[]> {
  const docs = Array.from({ length: count }, (_, i) => ({
    _id: new Types.ObjectId(),
    userName: `bench${i}`,
    userNameKey: `bench${i}`,
    points: 0,
  }));
  await connection.db!.collection('users').insertMany(docs);
  return docs.map((d) => d._id.toHexString());
}

export async function run(): Promise<void> {
  const database = await startDatabase({
    uri: process.env.MONGODB_URI ?? process.env.BENCH_MONGODB_URI,
    mode: (process.env.EMBEDDED_DATABASE as 'auto' | 'memory-server' | 'stand-in' | undefined) ?? 'auto',
    dbName: `bench_${Date.now()}`,
  });
  const env = validateEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'taleloom-bench-')),
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
    WEB_DIST_DIR: join(tmpdir(), 'no-web-dist'),
  });
  const app = await createApp(resolveConfig(env), database);
  const connection = app.get<Connection>(getConnectionToken());
  const power = app.get(PowerService);
  console.log(`Power ledger bench on ${database.kind}: ${PAIRS} hold+settle pairs per scenario, ${CONCURRENCY} in flight`);

  const [author] = await insertUsers(connection, 1);
  const story = { authorUserID: author, storyID: 'bench-story', storyName: 'Bench story' };
  const pair = async (userID: string, key: string, royalty: boolean) => {
    const hold = await power.hold(userID, 500, key, { reason: PowerReason.STORY, storyName: 'Bench clone' });
    await power.settle(hold, 123, royalty ? story : undefined);
  };

  const rows: Row[] = [];
  // Baseline in the same run: bare conditional $inc updates of one document, as many and as parallel.
  // (in a collection of its own: a balance moved outside the ledger would be drift).
  const counters = connection.db!.collection('bench_counters');
  const { insertedId: bare } = await counters.insertOne({ points: 0 });
  const baseline = await timed('bare $inc updates of one document', PAIRS, () =>
    pool(PAIRS, CONCURRENCY, async () => {
      await counters.updateOne({ _id: bare, points: { $gte: 0 } }, { $inc: { points: 1 } });
    }),
  );
  const [hot] = await insertUsers(connection, 1);
  await power.grant(hot, 1_000_000_000, PowerReason.INIT_POINTS, 'bench-seed');
  rows.push(await timed('one hot balance', PAIRS, () => pool(PAIRS, CONCURRENCY, (i) => pair(hot, `hot-${i}`, false))));
  rows.push(
    await timed('one hot balance, with royalty', PAIRS, () =>
      pool(PAIRS, CONCURRENCY, (i) => pair(hot, `hot-royalty-${i}`, true)),
    ),
  );

  const spread = await insertUsers(connection, BALANCES);
  await pool(BALANCES, CONCURRENCY, (i) => power.grant(spread[i], 1_000_000, PowerReason.INIT_POINTS, 'bench-seed').then(() => undefined));
  rows.push(
    await timed(`${BALANCES} balances`, PAIRS, () =>
      pool(PAIRS, CONCURRENCY, (i) => pair(spread[i % BALANCES], `spread-${i}`, false)),
    ),
  );
  rows.push(
    await timed(`${BALANCES} balances, with royalty`, PAIRS, () =>
      pool(PAIRS, CONCURRENCY, (i) => pair(spread[(i * 7) % BALANCES], `spread-royalty-${i}`, true)),
    ),
  );

  console.table([baseline, ...rows].map((r) => ({ scenario: r.scenario, 'pairs (or updates)': r.pairs, seconds: r.seconds, 'per second': r.perSecond })));
  for (const r of rows) {
    record({
      suite: 'power',
      measure: `hold+settle pairs per second, ${r.scenario}`,
      unit: '/s',
      median: r.perSecond,
      baseline: { label: 'bare $inc updates/s', median: baseline.perSecond },
      note: `${r.pairs} pairs, ${CONCURRENCY} in flight, ${database.kind}`,
    });
  }

  const started = Date.now();
  const report = await verifyLedger(connection.db!);
  console.log(
    `verify: ${report.usersChecked} users, ${report.entriesApplied} applied entries, ` +
      `drift ${report.drifts.length} (${Date.now() - started} ms)`,
  );
  record({
    suite: 'power',
    measure: `verify:ledger over ${report.usersChecked} users, ${report.entriesApplied} entries`,
    unit: 'ms',
    median: Date.now() - started,
    target: 'no drift',
    met: report.drifts.length === 0,
  });
  await connection.db!.dropDatabase().catch(() => undefined);
  await app.close();
  await database.stop();
  if (report.drifts.length > 0) {
    console.error('DRIFT FOUND:', report.drifts);
    process.exitCode = 1;
  }
}

if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
