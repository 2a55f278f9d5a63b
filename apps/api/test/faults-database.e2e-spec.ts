// Fault injection between the app and its database: a loopback TCP proxy that the test cuts (every
// connection reset, as when the database goes away) or blackholes (a network partition), then restores.
import { ErrorCode } from '@taleloom/contracts';
import request from 'supertest';
import { TurnRunner } from '../src/play/turn.runner';
import { PowerService } from '../src/power/power.service';
import { balanceOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { chargedOf, expectLedgerExact } from './support/fault-checks';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { listenOnLoopback, sendTurn, storyDoc, textOf, unthrottle } from './support/play-helpers';
import { startTcpProxy, viaProxy, type TcpProxy } from './support/tcp-proxy';
import { createTestApp, type TestApp } from './test-app';

const PRICE = 100;
const GRANT = 1000;
const WHOLE = 'Reply 1: The lamp flickered and the story went on.';
const unavailable = { status: 'error', code: ErrorCode.DATABASE_UNAVAILABLE, message: 'The database is unavailable. Please try again later.' };

describe('faults: the database goes away and comes back', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  let story: string;
  const http = () => request(t.app.getHttpServer());

  // Times a request: the answer must come back coded and bounded, never hang.
  async function timed<T>(run: () => PromiseLike<T>): Promise<{ res: T; ms: number }> {
    const started = Date.now();
    const res = await run();
    return { res, ms: Date.now() - started };
  }

  // After the line is restored the API answers again by itself, without a restart.
  async function answersAgain(): Promise<number> {
    const started = Date.now();
    for (;;) {
      const res = await as(t, alice).get('/api/user/user-info');
      if (res.status === 200) return Date.now() - started;
      expect(res.body).toEqual(unavailable);
      if (Date.now() - started > 15_000) throw new Error('the API did not come back within 15 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    const server = new URL(process.env.TEST_DATABASE_URI!);
    proxy = await startTcpProxy(server.hostname, Number(server.port));
    stub = await startOpenAIStub({ completionTokens: 200 });
    t = await createTestApp(
      { MODELS_JSON: JSON.stringify([{ value: 'paid', points: PRICE, maxOutput: 200, baseURL: stub.baseURL }]) },
      { mapUri: (uri) => viaProxy(uri, proxy) },
    );
    base = await listenOnLoopback(t);
    alice = await signUp(t, 'alice');
    await t.app.get(PowerService).grant(alice.userID, GRANT, 'test', 'seed');
    story = await createStory(t, alice);
    await as(t, alice).post(`/api/llm/${story}/accept`, { userContent: 'Mara: Go', newContent: 'An accepted line.' });
  });
  afterEach(() => proxy.restore());
  afterAll(async () => {
    proxy.restore();
    await t.app.get(TurnRunner).drain();
    await t.close();
    await proxy.close();
    await stub.close();
  });

  it('while it is away: coded 503s at once (no 401, no stack, no hang), health says down; then it answers again', async () => {
    proxy.cut('reset');
    // A request caught by the drop waits out one server selection at most.
    const first = await timed(() => as(t, alice).get('/api/user/user-info'));
    expect(first.res.status).toBe(503);
    expect(first.res.body).toEqual(unavailable);
    expect(first.ms).toBeLessThan(10_000);
    // From then on the API knows, and answers at once.
    const health = await timed(() => http().get('/api/health'));
    expect(health.res.status).toBe(503);
    expect(health.res.body.data).toMatchObject({ database: 'down' });
    const requestsDuringOutage = [
      () => as(t, alice).get('/api/user/user-info'),
      () => as(t, alice).get(`/api/llm/${story}/pending`),
      () => http().post('/api/user/login').send({ type: 'username', userName: 'alice', password: 'secret1' }),
      () => as(t, alice).post(`/api/llm/${story}/accept`, { userContent: 'x', newContent: 'y' }),
    ];
    for (const run of requestsDuringOutage) {
      const { res, ms } = await timed(run);
      expect(res.status).toBe(503);
      expect(res.body).toEqual(unavailable);
      expect(ms).toBeLessThan(2000);
    }
    // A send is refused before the provider is called.
    const requestsBefore = stub.requests;
    const send = await sendTurn(base, alice.token, story, { content: 'Go' });
    expect(send.status).toBe(503);
    expect(send.body).toEqual(unavailable);
    expect(stub.requests).toBe(requestsBefore);

    proxy.restore();
    expect(await answersAgain()).toBeLessThan(8000);
    expect((await http().get('/api/health')).body.data.database).toBe('up');
    // Nothing was lost or charged by the refused requests, and the story plays on.
    expect((await storyDoc(t, story))!.main_text).toMatch(/Mara: Go\nAn accepted line\.$/);
    expect(await balanceOf(t, alice.userID)).toBe(GRANT);
    await unthrottle(t, story);
    const again = await sendTurn(base, alice.token, story, { content: 'Go', regenerate: true });
    expect(again.events.at(-1)?.type).toBe('done');
    await t.app.get(TurnRunner).drain();
    expect(await chargedOf(t.connection.db!, alice.userID)).toBe(PRICE);
    await expectLedgerExact(t.connection.db!);
  }, 45_000);

  it('a generation that ends while the database is away is stored and charged once when it returns', async () => {
    const chargedBefore = await chargedOf(t.connection.db!, alice.userID);
    await unthrottle(t, story);
    stub.reset();
    stub.set({ delayMs: 60, completionTokens: 200 });
    // Cut with the first piece of text; the stream ends (~0.5 s later) with the database away.
    let cutAt = 0;
    const events = sendTurn(base, alice.token, story, { content: 'Go', regenerate: true }, undefined, {
      onEvent: (e) => {
        if (e.type === 'delta' && !cutAt) {
          cutAt = Date.now();
          proxy.cut('reset');
        }
      },
    });
    while (!cutAt || stub.open > 0 || Date.now() - cutAt < 2000) await new Promise((r) => setTimeout(r, 50));
    expect(proxy.isCut).toBe(true);
    proxy.restore();
    const res = await events;
    expect(textOf(res.events)).toBe(WHOLE);
    expect(res.events.at(-1)?.type).toBe('done');
    await answersAgain();
    const pending = await as(t, alice).get(`/api/llm/${story}/pending`);
    expect(pending.body.data).toMatchObject({ state: 'done', aiText: WHOLE, cost: PRICE });
    expect(await chargedOf(t.connection.db!, alice.userID)).toBe(chargedBefore + PRICE);
    expect(await balanceOf(t, alice.userID)).toBe(GRANT - chargedBefore - PRICE);
    expect((await storyDoc(t, story))!.main_text).toMatch(/Mara: Go\nAn accepted line\.$/);
    await expectLedgerExact(t.connection.db!);
  });

  it('a partition (the database stops answering): bounded coded 503s, health says down, then it answers again', async () => {
    proxy.cut('blackhole');
    const health = await timed(() => http().get('/api/health'));
    expect(health.res.status).toBe(503);
    expect(health.ms).toBeLessThan(4000);
    const caught = await timed(() => as(t, alice).get('/api/user/user-info'));
    expect(caught.res.status).toBe(503);
    expect(caught.res.body).toEqual(unavailable);
    expect(caught.ms).toBeLessThan(25_000);
    const next = await timed(() => as(t, alice).get('/api/user/user-info'));
    expect(next.res.body).toEqual(unavailable);
    expect(next.ms).toBeLessThan(2000);
    proxy.restore();
    expect(await answersAgain()).toBeLessThan(8000);
    expect((await storyDoc(t, story))!.main_text).toMatch(/Mara: Go\nAn accepted line\.$/);
    await expectLedgerExact(t.connection.db!);
  }, 60_000);
});
