/**
 * Story lists under load: 10,000 stories of 50 users, then `story-list` (mine) and
 * `story-list?public=true` (the square) at 50 concurrent clients over real HTTP on 127.0.0.1,
 * beside `/api/health` measured in the same run. Prints a table; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:stories        (MONGODB_URI to use a real MongoDB)
 */
import 'reflect-metadata';
import { getConnectionToken } from '@nestjs/mongoose';
import { sign } from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Types, type Connection } from 'mongoose';
import { createApp } from '../src/app.factory';
import { resolveConfig } from '../src/config/app-config';
import { validateEnv } from '../src/config/env.validation';
import { startDatabase } from '../src/database/embedded-database';
import { StoryNumbersService } from '../src/stories/story-numbers.service';
import { textSnippets } from '../src/stories/story-text';
import { record } from './support/report';

const USERS = 50;
const STORIES = 10_000;
const PUBLIC_SHARE = 0.3;
const CONCURRENCY = 50;
const REQUESTS_PER_ENDPOINT = Number(process.env.BENCH_REQUESTS ?? 2_000);
const WARMUP = 200;
const ROUNDS = 4;
// Long enough that loading texts into a list would show (about 30 MB of text in all).
const TEXT_CHARS = 3_000;

export async function run(): Promise<void> {
  const database = await startDatabase({
    uri: process.env.MONGODB_URI,
    mode: (process.env.EMBEDDED_DATABASE as 'auto' | 'memory-server' | 'stand-in' | undefined) ?? 'auto',
    dbName: `bench_${randomBytes(4).toString('hex')}`,
    log: (m) => console.log(`[database] ${m}`),
  });
  const env = validateEnv({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'taleloom-bench-')),
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST_DIR: join(tmpdir(), 'no-web-dist'),
  });
  const config = resolveConfig(env);
  const app = await createApp(config, database);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const connection = app.get<Connection>(getConnectionToken());

  try {
    const started = Date.now();
    const tokens = await seed(connection, config.jwtSecret);
    await app.get(StoryNumbersService).raiseTo(STORIES);
    console.log(`Seeded ${USERS} users and ${STORIES} stories in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
      `(database: ${database.kind}).`);

    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const targets: [string, (i: number) => { path: string; token?: string }][] = [
      ['GET /api/health', () => ({ path: '/api/health' })],
      ['GET /api/user/story-list', (i) => ({ path: '/api/user/story-list', token: tokens[i % USERS] })],
      ['GET /api/user/story-list?public=true', (i) => ({ path: '/api/user/story-list?public=true', token: tokens[i % USERS] })],
      [
        'GET /api/user/story-list?public=true&page=50',
        (i) => ({ path: '/api/user/story-list?public=true&page=50', token: tokens[i % USERS] }),
      ],
    ];
    for (const [, request] of targets) await load(port, agent, WARMUP, request);
    // Rounds interleave the endpoints, so a busy machine disturbs each of them alike.
    const samples = targets.map(() => ({ latencies: [] as number[], seconds: 0, errors: 0, bytes: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, [, request]] of targets.entries()) {
        const r = await load(port, agent, REQUESTS_PER_ENDPOINT / ROUNDS, request);
        samples[k].latencies.push(...r.latencies);
        samples[k].seconds += r.seconds;
        samples[k].errors += r.errors;
        samples[k].bytes = Math.max(samples[k].bytes, r.bytes);
      }
    }
    const rows: Row[] = targets.map(([name], k) => ({ name, ...summarize(samples[k]) }));
    agent.destroy();
    print(rows);
    const health = rows[0];
    for (const r of rows.slice(1)) {
      record({
        suite: 'stories',
        measure: `${r.name}, ${CONCURRENCY} clients, ${STORIES} stories`,
        unit: 'ms',
        median: r.p50,
        p99: r.p99,
        baseline: { label: 'GET /api/health', median: health.p50, p99: health.p99 },
        target: 'p99 < 10x health p99, no errors',
        met: r.p99 < 10 * health.p99 && r.errors === 0,
      });
    }
  } finally {
    await connection.db?.dropDatabase().catch(() => undefined);
    await app.close();
    await database.stop();
  }
}

/** 50 users, 10,000 stories with long texts, 30% public (with snippets and square counters). */
async function seed(connection: Connection, secret: string): Promise<string[]> {
  const userIds = Array.from({ length: USERS }, () => new Types.ObjectId());
  await connection.collection('users').insertMany(
    userIds.map((_id, i) => ({ _id, userName: `bench${i}`, userNameKey: `bench${i}`, points: 0, tokensValidAfter: null })),
  );
  const text = Array.from({ length: TEXT_CHARS / 60 }, (_, i) => `Line ${i} of a story that goes on and on and on.`).join('\n');
  const snippets = textSnippets(text);
  const now = Date.now();
  const batch = 1_000;
  for (let start = 0; start < STORIES; start += batch) {
    const docs = Array.from({ length: batch }, (_, k) => {
      const n = start + k + 1;
      const isPublic = n % Math.round(1 / PUBLIC_SHARE) === 0;
      return {
        storyNo: n,
        userID: userIds[n % USERS].toHexString(),
        name: `Story ${n}`,
        main_text: text,
        prologue_and_characters: text.slice(0, 500),
        ...snippets,
        permission: isPublic ? '1' : '0',
        pinToTop: n % 2_000 === 0,
        level: 0,
        clonedFrom: null,
        lineage: [],
        recovery_point: false,
        time: new Date(now - n * 1000),
        publicFirstLine: isPublic ? snippets.firstLine : '',
        publicLastLine: isPublic ? snippets.lastLine : '',
        unique_user_count: isPublic ? n % 17 : 0,
        penetration_story_total_rounds: isPublic ? n % 101 : 0,
        additional_story_count: isPublic ? n * 3 : 0,
        play_mode: 'fly_free',
      };
    });
    await connection.collection('stories').insertMany(docs);
  }
  // Indexes declared on the schema are built by autoIndex at start; make sure they exist before measuring.
  await connection.model('Story').syncIndexes().catch(() => undefined);
  return userIds.map((id, i) => sign({ userID: id.toHexString(), userName: `bench${i}` }, secret, { algorithm: 'HS256' }));
}

interface Sample {
  latencies: number[];
  seconds: number;
  errors: number;
  bytes: number;
}
interface Result {
  p50: number;
  p99: number;
  max: number;
  rps: number;
  errors: number;
  bytes: number;
}
type Row = Result & { name: string };

function summarize({ latencies, seconds, errors, bytes }: Sample): Result {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1], rps: sorted.length / seconds, errors, bytes };
}

/** `count` requests from 50 concurrent clients (a bounded promise loop), each latency recorded. */
async function load(
  port: number,
  agent: http.Agent,
  count: number,
  request: (i: number) => { path: string; token?: string },
): Promise<Sample> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let bytes = 0;
  const started = process.hrtime.bigint();
  const client = async () => {
    while (next < count) {
      const i = next++;
      const { path, token } = request(i);
      const t0 = process.hrtime.bigint();
      const { status, size } = await get(port, agent, path, token);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      bytes = Math.max(bytes, size);
      if (status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return { latencies, seconds: Number(process.hrtime.bigint() - started) / 1e9, errors, bytes };
}

function get(port: number, agent: http.Agent, path: string, token?: string): Promise<{ status: number; size: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent, headers: token ? { Authorization: `Bearer ${token}` } : {} },
      (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => (size += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, size }));
      },
    );
    req.on('error', reject);
  });
}

function print(rows: Row[]): void {
  const health = rows[0];
  const ms = (n: number) => n.toFixed(1);
  console.log(
    `\n${STORIES} stories of ${USERS} users, ${CONCURRENCY} concurrent clients, ${REQUESTS_PER_ENDPOINT} requests each ` +
      `(in ${ROUNDS} interleaved rounds), real HTTP on 127.0.0.1; load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${cpus().length} CPUs`,
  );
  console.table(
    rows.map((r) => ({
      endpoint: r.name,
      'p50 ms': ms(r.p50),
      'p99 ms': ms(r.p99),
      'max ms': ms(r.max),
      'req/s': Math.round(r.rps),
      'body bytes': r.bytes,
      errors: r.errors,
      'p99 / health p99': (r.p99 / health.p99).toFixed(1),
      'target (< 10x)': r === health ? '' : r.p99 < 10 * health.p99 ? 'met' : 'MISSED',
    })),
  );
}

if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
