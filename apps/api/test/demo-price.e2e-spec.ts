import { ErrorCode } from '@taleloom/contracts';
import { validateEnv } from '../src/config/env.validation';
import { TurnRunner } from '../src/play/turn.runner';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { listenOnLoopback, sendTurn, textOf } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

describe('the offline demo model on the defaults: a little power per turn, so the economy shows', () => {
  let t: TestApp;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  const price = validateEnv({}).DEMO_MODEL_POINTS;
  const drain = () => t.app.get(TurnRunner).drain();

  beforeAll(async () => {
    // The default price (test-app.ts makes the demo free for the other suites).
    t = await createTestApp({ DEMO_MODEL_POINTS: String(price), DEMO_MODEL_CHUNK_DELAY_MS: '0' });
    base = await listenOnLoopback(t);
  });
  beforeEach(async () => {
    await drain();
    await t.clean();
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
  });
  afterAll(async () => {
    await drain();
    await t.close();
  });

  it('costs a little power a turn: the model list says so, a new user is told "not enough power", a checked-in one is charged, and it shows in power details', async () => {
    expect(price).toBe(80);
    const models = (await as(t, alice).get('/api/model_list')).body.data as { value: string; points: number }[];
    expect(models.find((m) => m.value === 'demo')?.points).toBe(80);
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.', model_name: 'demo' });
    for (const [language, words] of [['en', 'power'], ['zh-CN', '电量']] as const) {
      const refused = await sendTurn(base, alice.token, id, { content: 'Mara: I wave.', language });
      expect([refused.status, refused.body?.code]).toEqual([402, ErrorCode.NOT_ENOUGH_POWER]);
      expect(refused.body?.message).toContain(words);
    }
    expect((await as(t, alice).post('/api/user/check-in', {})).status).toBe(200);
    const played = await sendTurn(base, alice.token, id, { content: 'Mara: I wave.' });
    expect(textOf(played.events).length).toBeGreaterThan(0);
    await drain();
    // Scaled by the reply's share of the 400-token budget: a usual demo reply costs 10 to 25.
    const spent = 5000 - (await balanceOf(t, alice.userID));
    expect(spent).toBeGreaterThanOrEqual(10);
    expect(spent).toBeLessThanOrEqual(80);
    const expense = await as(t, alice).get('/api/user/user-points?page=1&type=expense&pageSize=10');
    expect(expense.body.data.records.map((r: { points: number; reason: string }) => [r.reason, r.points])).toEqual([['story', -spent]]);
  });

  it('pays the author of a public story a royalty when someone else plays it', async () => {
    const source = await createStory(t, alice, { name: 'The pier', prologue_and_characters: 'Mara waits at the pier.', model_name: 'demo' });
    expect((await as(t, alice).post(`/api/user/public/${source}`)).status).toBe(200);
    const clone = (await as(t, bob).post('/api/user/clone-public-story', { userID: alice.userID, storyID: source })).body.data.id as string;
    await as(t, bob).post('/api/user/check-in', {});
    await sendTurn(base, bob.token, clone, { content: 'Mara: I wave.' });
    await drain();
    const spent = 5000 - (await balanceOf(t, bob.userID));
    // 10% of what bob spent, rounded down: at least 1 on the default price.
    expect(await balanceOf(t, alice.userID)).toBe(Math.floor(spent / 10));
    expect(Math.floor(spent / 10)).toBeGreaterThanOrEqual(1);
    expect(await entriesOf(t, alice.userID, { kind: 'royalty' })).toHaveLength(1);
  });
});
