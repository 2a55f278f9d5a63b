// A crash under load, looked for where it hurts: N users send paid turns, clone one public story,
// check in, and save and load archives, all at once; the built app (dist/main.js) is killed with
// SIGKILL at a random instant of that burst, started again, and checked at once (not minutes
// later): every balance equals its ledger with no stray hold and nothing pending, every turn is done
// or failed and uncharged, every square counter equals its records. Several rounds, each at another
// instant. The app runs as `pnpm start` runs it: on the embedded database in its own DATA_DIR (the
// stand-in inside the app's process, its journal on disk), with `pnpm start`'s node flags; the checks
// reach that database on the loopback port the app names at debug level. It prints the time from the
// kill to the API answering again. CRASH_USERS sets N (12 by default, for CI; `CRASH_USERS=300` for the
// figure under a large burst) and CRASH_ROUNDS the rounds.
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { verifyLedger } from '../src/power/verify-ledger';
import { startFlags } from './support/start-flags';
import { callJson, ensureBuilt, startAppProcess, type AppProcess } from './support/app-process';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { sendTurn } from './support/play-helpers';
import { TEST_JWT_SECRET } from './test-app';

const USERS = Number(process.env.CRASH_USERS ?? 12);
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const PRICE = 100;

interface Player {
  token: string;
  userID: string;
  story: string;
}

describe('faults: SIGKILL at random instants of a burst of sends, clones, check-ins and archive loads', () => {
  let stub: OpenAIStub;
  let app: AppProcess;
  let conn: Connection | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-burst-crash-'));
  const db = () => conn!.db!;
  const players: Player[] = [];
  let author: Player;
  let publicStory = '';

  // Starts the app and connects the checks to its database (a new port at each start).
  const start = async () => {
    await conn?.close(true);
    conn = undefined;
    app = await startAppProcess(
      {
        MONGODB_URI: '',
        DATA_DIR: dataDir,
        // The line that names the embedded database's address (and the requests: a few hundred lines).
        LOG_LEVEL: 'debug',
        JWT_SECRET: TEST_JWT_SECRET,
        MODELS_JSON: JSON.stringify([{ value: 'paid', points: PRICE, maxOutput: 200, baseURL: stub.baseURL }]),
        PROVIDER_TIMEOUT_SECONDS: '5',
        GENERATION_USER_PER_MINUTE: '100000',
        LOGIN_IP_PER_MINUTE: '100000',
      },
      undefined,
      { node: process.execPath, flags: startFlags() },
    );
    const uri = /\[database\] the stand-in listens at (\S+)/.exec(app.output)?.[1];
    if (!uri) throw new Error(`the app did not name its embedded database:\n${app.output}`);
    conn = await mongoose.createConnection(uri, { serverSelectionTimeoutMS: 5000 }).asPromise();
  };
  const signIn = async (name: string): Promise<Player> => {
    const login = await callJson<{ data: { token: string; userInfo: { userID: string } } }>(app, 'POST', '/api/user/login', undefined, { type: 'username', userName: name, password: 'secret1' });
    const { token, userInfo } = login.body.data;
    await callJson(app, 'POST', '/api/user/check-in', token, {});
    const created = await callJson<{ data: { id: string } }>(app, 'POST', '/api/llm', token, { name: `${name}'s tale`, prologue_and_characters: 'A mill by a river.' });
    return { token, userID: userInfo.userID, story: created.body.data.id };
  };

  // Everything at once; answers when every request has ended (answered, refused or cut by the kill).
  const burst = (round: number) =>
    Promise.allSettled(
      players.flatMap((p, i) => [
        sendTurn(app.baseURL, p.token, p.story, { content: `Round ${round}` }, undefined, { allowBreak: true }),
        callJson(app, 'POST', '/api/user/clone-public-story', p.token, { userID: author.userID, storyID: publicStory }),
        callJson(app, 'POST', '/api/user/check-in', p.token, {}),
        i % 2 === 0
          ? callJson(app, 'POST', '/api/archive/save', p.token, { story_id: p.story, archive_index: round })
          : callJson<{ data: { _id: string }[] }>(app, 'GET', `/api/archive/${p.story}`, p.token).then((list) =>
              list.body.data?.[0] ? callJson(app, 'POST', '/api/archive/load', p.token, { archive_id: list.body.data[0]._id }) : null,
            ),
      ]),
    );

  // What must hold at once after the restart.
  async function exact(): Promise<void> {
    const report = await verifyLedger(db());
    expect(report.drifts).toEqual([]);
    expect(report.strayHolds).toEqual([]);
    expect(report.counterDrifts).toEqual([]);
    const entries = db().collection('ledger_entries');
    expect(await entries.countDocuments({ state: 'pending' })).toBe(0);
    expect(await entries.countDocuments({ kind: 'hold', state: 'applied', closed: { $ne: true } })).toBe(0);
    const turns = await db().collection('play_turns').find({}, { projection: { state: 1, cost: 1 } }).toArray();
    expect(turns.filter((t) => t.state === 'generating')).toEqual([]);
    expect(turns.filter((t) => t.state === 'failed' && t.cost !== 0)).toEqual([]);
    const stories = db().collection('stories');
    expect(await stories.countDocuments({ $or: [{ playerDue: { $exists: true } }, { 'creditsDue.0': { $exists: true } }] })).toBe(0);
  }

  beforeAll(async () => {
    ensureBuilt();
    stub = await startOpenAIStub({ chunks: Array.from({ length: 30 }, (_, i) => ` word${i}`), delayMs: 20, completionTokens: 200 });
    await start();
    author = await signIn('author');
    await callJson(app, 'POST', `/api/user/public/${author.story}`, author.token);
    publicStory = author.story;
    players.push(...(await Promise.all(Array.from({ length: USERS }, (_, i) => signIn(`player${i}`)))));
  }, 300_000);
  afterAll(async () => {
    await conn?.close(true);
    await app?.stop();
    await stub?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${ROUNDS} kills at random instants of a burst of ${USERS} users: after each restart everything adds up at once`, async () => {
    const restarts: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await db().collection('play_turns').updateMany({}, { $set: { lastSendAt: 0 } });
      const running = burst(round);
      await new Promise((r) => setTimeout(r, randomInt(50, 800)));
      const killedAt = Date.now();
      await app.kill();
      await running;
      await start();
      restarts.push(Date.now() - killedAt);
      await exact();
    }
    console.log(`restart after SIGKILL under a burst of ${USERS} users: ${restarts.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    // The story plays on after all that: a send streams and ends.
    await db().collection('play_turns').updateMany({}, { $set: { lastSendAt: 0 } });
    const next = await sendTurn(app.baseURL, players[0].token, players[0].story, { content: 'On' });
    expect(next.events.at(-1)?.type).toBe('done');
    await exact();
  }, 600_000);
});
