import { ErrorCode } from '@taleloom/contracts';
import fc from 'fast-check';
import request from 'supertest';
import { TaskRepository } from '../src/tasks/task.repository';
import { createAccountsApp } from './account-helpers';
import { malformedBody, malformedQuery, rawRequest } from './security/arbitraries';
import { DatabaseOutages } from './security/database-outages';
import { schemaOf } from './security/dto-schemas';
import { expectCleanError } from './security/error-shape';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { routeInventory, verbOf, type RouteInfo } from './support/route-inventory';
import { startTcpProxy, viaProxy, type TcpProxy } from './support/tcp-proxy';

/**
 * Property-based fuzzing of every endpoint (found from the router) with malformed bodies, queries,
 * path parameters and uploads: wrong types, nested and operator objects, huge and odd unicode strings,
 * null, arrays, deep nesting, prototype-pollution keys, truncated files. Property: never a 5xx, an
 * error is always the coded envelope, never a stack trace.
 * Seeded: the seed is printed; `FUZZ_SEED=<seed>` replays a run, `FUZZ_SEED=random FUZZ_RUNS=200` widens it.
 */
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20_240_611);
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
/** Each property runs RUNS times per endpoint: the time allowed grows with it. */
const TIMEOUT_MS = 30_000 + RUNS * 2_000;

describe(`fuzz: malformed input never makes a 5xx (seed ${SEED}, ${RUNS} runs per endpoint)`, () => {
  let a: Awaited<ReturnType<typeof createAccountsApp>>;
  let user: TestUser;
  let storyId: string;
  let routes: RouteInfo[];
  // The database is reached through a proxy, so that the check of the blink rule below can cut it.
  let proxy: TcpProxy;
  let outages: DatabaseOutages;
  /** When the request being checked was sent. */
  let sentAt = 0;

  beforeAll(async () => {
    console.log(`fuzz seed ${SEED}, ${RUNS} runs per endpoint (replay: FUZZ_SEED=${SEED} pnpm exec vitest run test/security-fuzz.e2e-spec.ts)`);
    const server = new URL(process.env.TEST_DATABASE_URI!);
    proxy = await startTcpProxy(server.hostname, Number(server.port));
    // Every feature on (the demo picture generator too), so that every handler does its real work.
    a = await createAccountsApp(
      { DEMO_MODEL_CHUNK_DELAY_MS: '0', SMS_IP_HOURLY_LIMIT: '100000', SMS_PHONE_HOURLY_LIMIT: '100000', IMAGES_PROVIDER: 'demo' },
      { mapUri: (uri) => viaProxy(uri, proxy) },
    );
    outages = new DatabaseOutages(a.t.connection);
    user = await signUp(a.t, 'fuzzer');
    storyId = await createStory(a.t, user);
    routes = routeInventory(a.t.app);
  });
  afterAll(async () => {
    proxy.restore();
    outages.detach();
    await a.t.close();
    await proxy.close();
  });

  const http = () => request(a.t.app.getHttpServer());
  /**
   * A 503 DATABASE_UNAVAILABLE is a blink only if the driver saw the database away since the request was
   * sent, or health (asked right after) finds it down.
   */
  const databaseWasDown = async () => outages.seenSince(sentAt) || (await http().get('/api/health')).status === 503;
  const clean = (res: request.Response, label: string) => expectCleanError(res, label, databaseWasDown);
  // Path parameters name the fuzzer's own story, so handlers get past "not found" into their real work.
  const urlOf = (route: RouteInfo, query = '') => `${route.path.replace(/:\w+/g, storyId)}${query ? `?${query}` : ''}`;

  /** Runs one property per route; a failure names the route, the seed and the smallest counterexample. */
  async function fuzzEach<T>(list: RouteInfo[], arb: (route: RouteInfo) => fc.Arbitrary<T>, check: (route: RouteInfo, value: T) => Promise<void>) {
    expect(list.length).toBeGreaterThan(0);
    for (const route of list) {
      await fc.assert(
        fc.asyncProperty(arb(route), (value) => {
          sentAt = Date.now();
          return check(route, value);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
  }

  it('a 503 DATABASE_UNAVAILABLE counts as a database blink only while the database really is away', async () => {
    // A retry loop that gives up answers that code with the database up: reported, not excused.
    const store = a.t.app.get(TaskRepository);
    const docs = (store as unknown as { docs: { create: (doc: object) => Promise<unknown> } }).docs;
    const spies = [
      vi.spyOn(store, 'read').mockResolvedValue(null),
      vi.spyOn(docs, 'create').mockRejectedValue(Object.assign(new Error('E11000 duplicate key error'), { code: 11000 })),
    ];
    try {
      sentAt = Date.now();
      const gaveUp = await as(a.t, user).post(`/api/tasks/${storyId}/create`);
      expect([gaveUp.status, gaveUp.body.code]).toEqual([503, ErrorCode.DATABASE_UNAVAILABLE]);
      await expect(clean(gaveUp, 'gave up')).rejects.toThrow('503 DATABASE_UNAVAILABLE while the database was up');
    } finally {
      for (const spy of spies) spy.mockRestore();
    }

    // The database really going away: the same answer is a blink.
    proxy.cut('reset');
    try {
      sentAt = Date.now();
      const away = await as(a.t, user).get('/api/user/user-info');
      expect([away.status, away.body.code]).toEqual([503, ErrorCode.DATABASE_UNAVAILABLE]);
      expect(outages.seenSince(sentAt)).toBe(true);
      await expect(clean(away, 'away')).resolves.toBeUndefined();
    } finally {
      proxy.restore();
    }
    // Back before the fuzzing starts, and seen back (else every 503 below would be excused).
    const started = Date.now();
    while ((await http().get('/api/health')).status !== 200 || outages.downNow()) {
      if (Date.now() - started > 20_000) throw new Error('the database did not come back within 20 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 40_000);

  it('JSON bodies of every endpoint that reads one', async () => {
    const withBody = routes.filter((r) => r.method !== 'GET' && !r.upload);
    expect(withBody.length).toBeGreaterThanOrEqual(20);
    await fuzzEach(
      withBody,
      (route) => malformedBody(schemaOf(route.bodyDto)),
      async (route, body) => {
        const res = await http()[verbOf(route)](urlOf(route)).set('Authorization', `Bearer ${user.token}`).set('Content-Type', 'application/json').send(JSON.stringify(body));
        await clean(res, `${route.key} ${JSON.stringify(body)?.slice(0, 300)}`);
      },
    );
  }, TIMEOUT_MS);

  it('raw bodies of every endpoint: deep nesting, bytes, odd content types, charsets and encodings', async () => {
    await fuzzEach(
      routes.filter((r) => r.method !== 'GET'),
      () => rawRequest,
      async (route, raw) => {
        const req = http()[verbOf(route)](urlOf(route)).set('Authorization', `Bearer ${user.token}`);
        if (raw.contentType) req.set('Content-Type', raw.contentType);
        if (raw.contentEncoding) req.set('Content-Encoding', raw.contentEncoding);
        const res = await req.send(raw.body);
        await clean(res, `${route.key} [${raw.contentType}; ${raw.contentEncoding}] ${String(raw.body).slice(0, 120)}`);
      },
    );
  }, TIMEOUT_MS);

  it('queries of every endpoint that reads one, and of every GET', async () => {
    await fuzzEach(
      routes.filter((r) => r.queryDto || r.method === 'GET'),
      (route) => malformedQuery(schemaOf(route.queryDto)),
      async (route, query) => {
        const req = http()[verbOf(route)](urlOf(route, query)).set('Authorization', `Bearer ${user.token}`);
        const res = route.method === 'GET' ? await req : await req.send({});
        await clean(res, `${route.key}?${query}`);
      },
    );
  }, TIMEOUT_MS);

  it('path parameters of every endpoint that has one', async () => {
    const segment = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
      fc.constantFrom('%', '%E0%A4%A', '%00', '..', '%2e%2e', '000000000000000000000000', 'ffffffffffffffffffffffff', '[object Object]', '$where', '__proto__', 'constructor'),
      fc.integer({ min: 1, max: 3000 }).map((n) => 'a'.repeat(n)),
    );
    await fuzzEach(
      routes.filter((r) => r.params.length > 0),
      () => segment,
      async (route, value) => {
        const req = http()[verbOf(route)](route.path.replace(/:\w+/g, value)).set('Authorization', `Bearer ${user.token}`);
        const res = route.method === 'GET' ? await req : await req.send({});
        await clean(res, `${route.key} with ${value.slice(0, 100)}`);
      },
    );
  }, TIMEOUT_MS);

  it('uploads: random and truncated files of every accepted kind, odd names and fields', async () => {
    const prefixes = ['', '\x89PNG\r\n\x1a\n', 'PK\x03\x04', '{\\rtf1\\ansi ', '\xEF\xBB\xBF', '\xFF\xFE', '# Title\n'].map((p) => Buffer.from(p, 'latin1'));
    const file = fc.record({
      bytes: fc.tuple(fc.constantFrom(...prefixes), fc.uint8Array({ maxLength: 2048 })).map(([p, b]) => Buffer.concat([p, Buffer.from(b)])),
      name: fc.oneof(fc.constantFrom('a.txt', 'a.md', 'a.png', 'a.docx', 'a.rtf', 'a.exe', '', '..\\..\\x.txt', '名字.txt'), fc.string({ maxLength: 30 })),
      field: fc.constantFrom('file', 'file', 'other', ''),
      language: fc.constantFrom(undefined, 'en', 'zh-CN', 'xx', ''),
    });
    await fuzzEach(
      routes.filter((r) => r.upload),
      () => file,
      async (route, f) => {
        const req = http().post(urlOf(route)).set('Authorization', `Bearer ${user.token}`);
        if (f.language !== undefined) req.field('language', f.language);
        const res = await req.attach(f.field || 'file', f.bytes, { filename: f.name || 'x', contentType: 'application/octet-stream' });
        await clean(res, `${route.key} ${f.field} ${JSON.stringify(f.name)} ${f.bytes.subarray(0, 16).toString('hex')}`);
      },
    );
  }, TIMEOUT_MS);
});
