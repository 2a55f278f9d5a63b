// Fault injection on the API process itself: the built app (dist/main.js) runs as a child process on a
// fixed database and is killed with SIGKILL mid-stream or at exact points of a settlement (the kill
// switch, test/support/kill-switch.js), then started again. Its start-up repair must settle or release
// the hold; the text the user accepted is intact, nothing is charged twice, and the real
// `verify:ledger` command finds balance == ledger.
import { ErrorCode, type StreamEvent } from '@taleloom/contracts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { Types, type Connection } from 'mongoose';
import request from 'supertest';
import { CLAIM_MS } from '../src/power/ledger.repository';
import { ensureBuilt, startAppProcess, verifyLedgerCommand, type AppProcess } from './support/app-process';
import { chargedOf, closesOf, expectLedgerExact } from './support/fault-checks';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { sendTurn, textOf } from './support/play-helpers';
import { TEST_JWT_SECRET } from './test-app';

const PRICE = 100;
const CHECK_IN = 5000;
const CHUNKS = ['Rain', ' fell', ' on', ' the', ' old', ' mill', ' and', ' the', ' wheel', ' turned', ' once', ' more.'];
const WHOLE = CHUNKS.join('');
const ACCEPTED = 'Mara: Go\nAn accepted line.';

describe('faults: the API process is killed (SIGKILL) and restarted', () => {
  let stub: OpenAIStub;
  let app: AppProcess;
  let conn: Connection;
  let uri: string;
  let token: string;
  let userID: string;
  let story: string;
  let charged = 0;
  const killFile = join(mkdtempSync(join(tmpdir(), 'taleloom-kill-')), 'kill-at');
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-crash-'));
  const db = () => conn.db!;
  const http = () => request(app.baseURL);
  const auth = { Authorization: '' };

  const start = async () => {
    app = await startAppProcess(
      {
        MONGODB_URI: uri,
        DATA_DIR: dataDir,
        JWT_SECRET: TEST_JWT_SECRET,
        MODELS_JSON: JSON.stringify([{ value: 'paid', points: PRICE, maxOutput: 200, baseURL: stub.baseURL }]),
        PROVIDER_TIMEOUT_SECONDS: '5',
      },
      killFile,
    );
  };
  const balance = async () => (await db().collection('users').findOne({ _id: new Types.ObjectId(userID) }))!.points as number;
  const mainText = async () => (await db().collection('stories').findOne({ _id: new Types.ObjectId(story) }))!.main_text as string;
  const turnDoc = () => db().collection('play_turns').findOne({ _id: new Types.ObjectId(story) });

  // The send a kill interrupts; resolves when the connection broke (or the stream ended).
  function sendUntilKilled(onEvent?: (e: StreamEvent, n: number) => void) {
    return sendTurn(app.baseURL, token, story, { content: 'Go' }, undefined, { onEvent, allowBreak: true });
  }

  // What must hold after every restart: the turn was repaired at start-up, the accepted text is
  // intact, nothing was charged twice, and balance == ledger.
  async function intact(): Promise<void> {
    expect((await turnDoc())!.state).not.toBe('generating');
    expect(await mainText()).toContain(ACCEPTED);
    expect(await balance()).toBe(CHECK_IN - charged);
    expect(await chargedOf(db(), userID)).toBe(charged);
    await expectLedgerExact(db());
  }

  // The story plays on (not stuck "generating"): a new send streams at once and is charged once; the
  // compiled verify:ledger command then finds balance == ledger.
  async function playsOn(body: { content: string; regenerate?: boolean }): Promise<void> {
    await db().collection('play_turns').updateOne({ _id: new Types.ObjectId(story) }, { $set: { lastSendAt: 0 } });
    const next = await sendTurn(app.baseURL, token, story, body);
    expect(next.events.at(-1)?.type).toBe('done');
    charged += PRICE;
    await intact();
    const verify = await verifyLedgerCommand(uri);
    expect(verify.stdout).toContain('No drift: every balance equals the sum of its ledger.');
    expect(verify.status).toBe(0);
  }

  beforeAll(async () => {
    ensureBuilt();
    const url = new URL(process.env.TEST_DATABASE_URI!);
    url.pathname = `/crash_${randomBytes(6).toString('hex')}`;
    uri = url.toString();
    conn = await mongoose.createConnection(uri, { serverSelectionTimeoutMS: 5000 }).asPromise();
    stub = await startOpenAIStub({ chunks: CHUNKS, completionTokens: 200 });
    await start();
    const login = await http().post('/api/user/login').send({ type: 'username', userName: 'alice', password: 'secret1' });
    token = login.body.data.token;
    userID = login.body.data.userInfo.userID;
    auth.Authorization = `Bearer ${token}`;
    expect((await http().post('/api/user/check-in').set(auth).send({})).status).toBe(200);
    const created = await http().post('/api/llm').set(auth).send({ name: 'Mill', prologue_and_characters: 'A mill by a river.' });
    story = created.body.data.id;
    await http().post(`/api/llm/${story}/accept`).set(auth).send({ userContent: 'Mara: Go', newContent: 'An accepted line.' });
    expect(await mainText()).toContain(ACCEPTED);
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
    await stub?.close();
  });
  beforeEach(async () => {
    // One send per second per story.
    await db().collection('play_turns').updateOne({ _id: new Types.ObjectId(story) }, { $set: { lastSendAt: 0 } });
  });

  it('killed mid-stream: after the restart the hold is released, the stored part is kept, nothing is charged', async () => {
    stub.set({ chunks: CHUNKS, delayMs: 200, completionTokens: 200 });
    // Killed from outside after ~1.8 s of text (the runner stores the text so far every second).
    const res = await sendUntilKilled((e, n) => {
      if (e.type === 'delta' && n === 10) void app.kill();
    });
    await app.exited;
    expect(res.events.some((e) => e.type === 'done')).toBe(false);
    const seen = textOf(res.events);
    await start();
    const pending = await http().get(`/api/llm/${story}/pending`).set(auth);
    expect(pending.body.data).toMatchObject({ state: 'failed', errorCode: ErrorCode.PROVIDER_ERROR, cost: 0 });
    // What was stored before the kill is kept: a part of what the user saw.
    expect(pending.body.data.aiText.length).toBeGreaterThan(0);
    expect(seen.startsWith(pending.body.data.aiText)).toBe(true);
    expect((await closesOf(db(), userID)).map((c) => [c.kind, c.state])).toEqual([['release', 'applied']]);
    await intact();
    await playsOn({ content: 'On', regenerate: true });
    await http().post(`/api/llm/${story}/discard`).set(auth).send({});
  });

  // A send that does not name its model (the story's own, paid here) claims the turn, then takes its
  // hold: killed while the hold is taken, its entry is left pending (claimed by the dead process) or
  // already on the balance. The claim named the hold: the start-up repair gives it back at once.
  it.each(['entry-created:hold', 'user-updated:hold'])('killed at %s of a send on the story\'s model: the hold is given back at start-up', async (point) => {
    stub.set({ chunks: CHUNKS, delayMs: 5, completionTokens: 200 });
    writeFileSync(killFile, point);
    // Killed before it answered: the request itself fails.
    const res = await sendUntilKilled().catch(() => null);
    expect(await app.exited).toBe('SIGKILL');
    const killedAt = Date.now();
    expect(res?.events.some((e) => e.type === 'done') ?? false).toBe(false);
    const turn = (await turnDoc())!;
    expect(turn.state).toBe('generating');
    expect(turn.holdId).toMatch(/^[0-9a-f]{24}$/);
    await start();
    // A hold its dead taker left pending is taken over at once, not waited for until its claim is stale.
    expect(Date.now() - killedAt).toBeLessThan(CLAIM_MS);
    const pending = await http().get(`/api/llm/${story}/pending`).set(auth);
    expect(pending.body.data).toMatchObject({ state: 'failed', cost: 0 });
    await intact();
    await playsOn({ content: 'On', regenerate: true });
    await http().post(`/api/llm/${story}/discard`).set(auth).send({});
  });

  // The other ledger steps are crashed in process by power-ledger-repair.e2e-spec.ts; here the two that need
  // the turn: nothing moved yet (repair computes the settlement), and the balance charged with its
  // entry still pending and claimed by the dead process (repair takes it over, never charging again).
  const settlementPoints: Array<[string, string]> = [
    ['right after the final chunk, before any power moved', 'settle'],
    ['after the balance was charged, before the entry was marked', 'user-updated:settle'],
  ];

  it.each(settlementPoints)('killed %s: after the restart the turn shows its whole text, charged exactly once', async (_name, point) => {
    stub.set({ chunks: CHUNKS, delayMs: 5, completionTokens: 200 });
    writeFileSync(killFile, point);
    const res = await sendUntilKilled();
    expect(await app.exited).toBe('SIGKILL');
    expect(res.events.some((e) => e.type === 'done')).toBe(false);
    await start();
    charged += PRICE;
    const pending = await http().get(`/api/llm/${story}/pending`).set(auth);
    expect(pending.body.data).toMatchObject({ state: 'done', aiText: WHOLE, cost: PRICE, errorCode: null });
    // Repair kept it as a take of the turn, at what it charged (a regenerate now adds one beside it).
    expect(pending.body.data.takes).toEqual([{ turnId: pending.body.data.turnId, state: 'done', aiText: WHOLE, reasoning: '', model: 'paid', cost: PRICE, errorCode: null }]);
    expect((await turnDoc())!.takes).toHaveLength(1);
    expect(WHOLE.startsWith(textOf(res.events))).toBe(true);
    await intact();
    // The next send accepts the recovered turn into the text first.
    await playsOn({ content: 'On' });
    expect((await mainText()).endsWith(`\n${WHOLE}`)).toBe(true);
    await http().post(`/api/llm/${story}/discard`).set(auth).send({});
  });
});
