// A change of branch is several single-document writes. The built app runs as a child process and is
// killed with SIGKILL (test/support/kill-switch.js) right after each of them; after a restart the story
// plays one branch whole (never a mix), the pending turn shown is that branch's (takes and all), a
// retry completes the change, both lines keep their text and turns, and balance == ledger.
import type { BranchesData, BranchSwitchData, PendingTurnData, StoryData } from '@taleloom/contracts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { Types, type Connection } from 'mongoose';
import request from 'supertest';
import { ensureBuilt, startAppProcess, verifyLedgerCommand, type AppProcess } from './support/app-process';
import { chargedOf, expectLedgerExact } from './support/fault-checks';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { sendTurn } from './support/play-helpers';
import { TEST_JWT_SECRET } from './test-app';

const PRICE = 100;
const PROLOGUE = 'Mara waits at the pier.';

describe('faults: the API process is killed in the middle of a change of branch', () => {
  let stub: OpenAIStub;
  let app: AppProcess;
  let conn: Connection;
  let uri: string;
  let token: string;
  let userID: string;
  let charged = 0;
  const killFile = join(mkdtempSync(join(tmpdir(), 'taleloom-kill-')), 'kill-at');
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-branch-crash-'));
  const db = () => conn.db!;
  const http = () => request(app.baseURL);
  const auth = () => ({ Authorization: `Bearer ${token}` });

  const start = async () => {
    app = await startAppProcess(
      {
        MONGODB_URI: uri,
        DATA_DIR: dataDir,
        JWT_SECRET: TEST_JWT_SECRET,
        MODELS_JSON: JSON.stringify([{ value: 'paid', points: PRICE, maxOutput: 200, baseURL: stub.baseURL }]),
        PROVIDER_TIMEOUT_SECONDS: '5',
        IMAGES_PROVIDER: 'off',
        // Every scenario plays a few turns, more than a user's default per minute.
        GENERATION_USER_PER_MINUTE: '1000',
      },
      killFile,
    );
  };
  const story = async (id: string): Promise<StoryData> => (await http().get(`/api/llm?id=${id}`).set(auth())).body.data;
  const pending = async (id: string): Promise<PendingTurnData> => (await http().get(`/api/llm/${id}/pending`).set(auth())).body.data;
  const list = async (id: string): Promise<BranchesData> => (await http().get(`/api/llm/${id}/branches`).set(auth())).body.data;
  const switchTo = (id: string, branch: string) => http().post(`/api/llm/${id}/branches/${branch}/play`).set(auth()).send({});
  // A send on the paid model that ends done (charged once); answers its turn id.
  const send = async (id: string, content: string, regenerate = false): Promise<string> => {
    await db().collection('play_turns').updateOne({ _id: new Types.ObjectId(id) }, { $set: { lastSendAt: 0 } });
    const res = await sendTurn(app.baseURL, token, id, { content, model_name: 'paid', regenerate });
    expect(res.events.at(-1)?.type).toBe('done');
    charged += PRICE;
    return (res.events.at(-1) as { turnId: string }).turnId;
  };
  // The hold a killed change left on the turn lets go by itself after 30 s: here at once.
  const holdTimesOut = (id: string) => db().collection('play_turns').updateOne({ _id: new Types.ObjectId(id) }, { $set: { lastSendAt: 0 } });

  /** A story with two lines: the original (two takes pending) and a branch from the prologue (one take pending), the original played. */
  async function twoLines(): Promise<{ id: string; main: { text: string; takes: string[] }; branch: { id: string; text: string; takes: string[] } }> {
    const created = await http().post('/api/llm').set(auth()).send({ name: 'Two lines', prologue_and_characters: PROLOGUE });
    const id = created.body.data.id as string;
    await http().post(`/api/llm/${id}/accept`).set(auth()).send({ userContent: 'Mara: I look out.', newContent: 'The sea was grey.' });
    const text = (await story(id)).main_text;
    const forked = await http().post(`/api/llm/${id}/branches`).set(auth()).send({ at: PROLOGUE.length });
    const b = (forked.body.data as BranchSwitchData).current;
    const onBranch = await send(id, 'Inland');
    expect((await switchTo(id, id)).status).toBe(200);
    const first = await send(id, 'Seaward');
    const second = await send(id, 'Seaward', true);
    return { id, main: { text, takes: [first, second] }, branch: { id: b, text: PROLOGUE, takes: [onBranch] } };
  }

  // What must hold after the restart: one line played whole, its own pending turn shown, money exact.
  async function whole(id: string, lines: Record<string, { text: string; takes: string[] }>): Promise<string> {
    const now = await story(id);
    const played = lines[now.branch_id];
    expect(played).toBeDefined();
    expect(now.main_text).toBe(played.text);
    expect((await list(id)).current).toBe(now.branch_id);
    expect((await pending(id)).takes.map((k) => k.turnId)).toEqual(played.takes);
    expect(await chargedOf(db(), userID)).toBe(charged);
    await expectLedgerExact(db());
    return now.branch_id;
  }

  // After the restart (and the hold timed out), a retry completes the change and both lines are intact.
  async function bothIntact(id: string, lines: Record<string, { text: string; takes: string[] }>, retryTo: string): Promise<void> {
    expect((await switchTo(id, retryTo)).status).toBe(200);
    for (const to of [...Object.keys(lines), retryTo]) {
      expect((await switchTo(id, to)).status).toBe(200);
      expect(await whole(id, lines)).toBe(to);
    }
  }

  beforeAll(async () => {
    ensureBuilt();
    const url = new URL(process.env.TEST_DATABASE_URI!);
    url.pathname = `/branch_crash_${randomBytes(6).toString('hex')}`;
    uri = url.toString();
    conn = await mongoose.createConnection(uri, { serverSelectionTimeoutMS: 5000 }).asPromise();
    stub = await startOpenAIStub({ completionTokens: 200 });
    await start();
    const login = await request(app.baseURL).post('/api/user/login').send({ type: 'username', userName: 'alice', password: 'secret1' });
    token = login.body.data.token;
    userID = login.body.data.userInfo.userID;
    expect((await http().post('/api/user/check-in').set(auth()).send({})).status).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
    await stub?.close();
  });

  it.each(['held', 'parked', 'saved', 'flipped', 'released'])('a switch killed right after "%s"', async (step) => {
    const { id, main, branch } = await twoLines();
    const lines = { [id]: main, [branch.id]: branch };
    writeFileSync(killFile, `branch:${step}`);
    await switchTo(id, branch.id).catch(() => undefined);
    expect(await app.exited).toBe('SIGKILL');
    await start();
    if (step !== 'released') {
      // The dead change still holds the turn: sends wait (not a lost turn, not a mixed story).
      const held = await http().post(`/api/llm/${id}`).set(auth()).send({ content: 'Now', model_name: 'paid' });
      expect(held.body.code).toBe('BRANCH_SWITCHING');
      await holdTimesOut(id);
    }
    // Before the switch wrote the story, the original line is played; from then on, the branch.
    expect(await whole(id, lines)).toBe(['flipped', 'released'].includes(step) ? branch.id : id);
    await bothIntact(id, lines, branch.id);
    const verify = await verifyLedgerCommand(uri);
    expect(verify.status).toBe(0);
  });

  it.each(['tasks-copied', 'created', 'flipped'])('a fork killed right after "%s"', async (step) => {
    const { id, main, branch } = await twoLines();
    const lines: Record<string, { text: string; takes: string[] }> = { [id]: main, [branch.id]: branch };
    writeFileSync(killFile, `branch:${step}`);
    await http().post(`/api/llm/${id}/branches`).set(auth()).send({ at: 4 }).catch(() => undefined);
    expect(await app.exited).toBe('SIGKILL');
    await start();
    await holdTimesOut(id);
    const branches = (await list(id)).branches;
    // Before its document was written the fork left nothing but an unused copy of the tasks; after, the
    // new line is in the list (played once the switch wrote the story).
    expect(branches).toHaveLength(step === 'tasks-copied' ? 2 : 3);
    const forked = branches.find((x) => x.id !== id && x.id !== branch.id);
    if (forked) lines[forked.id] = { text: PROLOGUE.slice(0, 4), takes: [] };
    expect(await whole(id, lines)).toBe(step === 'flipped' ? forked!.id : id);
    await bothIntact(id, lines, forked?.id ?? branch.id);
  });

  it('a delete killed right after the branch went: the rest is left for nobody to find', async () => {
    const { id, main, branch } = await twoLines();
    writeFileSync(killFile, 'branch:deleted');
    await http().delete(`/api/llm/${id}/branches/${branch.id}`).set(auth()).catch(() => undefined);
    expect(await app.exited).toBe('SIGKILL');
    await start();
    await holdTimesOut(id);
    expect((await list(id)).branches.map((x) => x.id)).toEqual([id]);
    expect(await whole(id, { [id]: main })).toBe(id);
    expect((await switchTo(id, branch.id)).body.code).toBe('BRANCH_NOT_FOUND');
  });
});
