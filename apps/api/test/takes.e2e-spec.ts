import { ErrorCode, TAKES_PER_TURN_MAX, type AcceptTurnDto, type PendingTurnData, type SendTurnDto } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { TurnRunner } from '../src/play/turn.runner';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { STUB_MARKERS, startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { listenOnLoopback, sendTurn, storyDoc, stubModel, textOf, unthrottle } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

const PRICE = 100;
const reply = (n: number) => `Reply ${n}: The lamp flickered and the story went on.`;

describe('takes: regenerate keeps every take of the pending turn (POST /api/llm/{id} with regenerate)', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  const drain = () => t.app.get(TurnRunner).drain();
  const grant = (user: TestUser, amount: number) => t.app.get(PowerService).grant(user.userID, amount, 'test', `test-grant-${Math.random()}`);
  const pending = async (id: string, user = alice): Promise<PendingTurnData> => (await as(t, user).get(`/api/llm/${id}/pending`)).body.data;
  const turns = () => t.connection.db!.collection('play_turns');

  // One send (a regenerate when asked) that ends done; answers its turn id.
  async function play(id: string, body: SendTurnDto): Promise<string> {
    await unthrottle(t, id);
    const res = await sendTurn(base, alice.token, id, body);
    expect(res.events.at(-1)?.type).toBe('done');
    return (res.events.at(-1) as { turnId: string }).turnId;
  }

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'paid', { points: PRICE }), stubModel(stub.baseURL, 'free', { points: 0 })]),
      DEMO_MODEL: 'off',
      PROVIDER_TIMEOUT_SECONDS: '5',
    });
    base = await listenOnLoopback(t);
  });
  beforeEach(async () => {
    await t.clean();
    stub.reset();
    stub.set({ completionTokens: 200 });
    alice = await signUp(t, 'alice');
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await stub.close();
  });

  it('regenerating twice keeps three takes, each charged once and stored; accepting the second appends it and clears them', async () => {
    await grant(alice, 1000);
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const first = await play(id, { role: 'Mara', content: 'I untie the boat.', model_name: 'paid' });
    const second = await play(id, { role: 'Mara', content: 'I untie the boat.', model_name: 'paid', regenerate: true });
    const third = await play(id, { role: 'Mara', content: 'I untie the boat.', model_name: 'paid', regenerate: true });
    await drain();

    // Stored on the server: a reload (or another device) reads the same takes, oldest first.
    const view = await pending(id);
    expect(view).toMatchObject({ state: 'done', turnId: third, aiText: reply(3), userText: 'Mara: I untie the boat.', cost: PRICE });
    expect(view.takes).toEqual([
      { turnId: first, state: 'done', aiText: reply(1), reasoning: '', model: 'paid', cost: PRICE, errorCode: null },
      { turnId: second, state: 'done', aiText: reply(2), reasoning: '', model: 'paid', cost: PRICE, errorCode: null },
      { turnId: third, state: 'done', aiText: reply(3), reasoning: '', model: 'paid', cost: PRICE, errorCode: null },
    ]);
    expect((await turns().findOne({ _id: new Types.ObjectId(id) }))!.takes).toHaveLength(3);
    // Each generation was held and settled once: three settlements of the price, nothing else.
    expect(await balanceOf(t, alice.userID)).toBe(1000 - 3 * PRICE);
    const settles = await entriesOf(t, alice.userID, { kind: 'settle' });
    expect(settles.map((e) => e.state)).toEqual(['applied', 'applied', 'applied']);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);

    // Accept takes the one shown (the second): only it is appended; every take is gone with the turn.
    const body = { userContent: view.userText, newContent: view.takes[1].aiText, turnId: second } satisfies AcceptTurnDto;
    const accepted = await as(t, alice).post(`/api/llm/${id}/accept`, body);
    expect(accepted.body.data.appended).toBe(`\nMara: I untie the boat.\n${reply(2)}`);
    expect((await storyDoc(t, id))!.main_text).toBe(`Mara waits at the pier.\nMara: I untie the boat.\n${reply(2)}`);
    expect(await pending(id)).toMatchObject({ state: 'idle', takes: [] });
    // A repeat (a double click) appends nothing, with any of the turn's take ids.
    expect((await as(t, alice).post(`/api/llm/${id}/accept`, body)).body.data.appended).toBe('');
    expect((await as(t, alice).post(`/api/llm/${id}/accept`, { ...body, turnId: third })).body.data.appended).toBe('');
    // Accepting released nothing that was settled.
    expect(await balanceOf(t, alice.userID)).toBe(1000 - 3 * PRICE);
  });

  it('undo drops every take; what was charged stays charged (each take was a generation)', async () => {
    await grant(alice, 1000);
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    await play(id, { content: 'Go', model_name: 'paid' });
    await play(id, { content: 'Go', model_name: 'paid', regenerate: true });
    await drain();
    const undone = await as(t, alice).post(`/api/llm/${id}/discard`);
    expect(undone.body.data).toMatchObject({ input: 'Go', aiText: reply(2) });
    expect(undone.body.data.takes.map((k: { aiText: string }) => k.aiText)).toEqual([reply(1), reply(2)]);
    expect(await pending(id)).toMatchObject({ state: 'idle', takes: [] });
    expect((await storyDoc(t, id))!.main_text).toBe('Start.');
    expect(await balanceOf(t, alice.userID)).toBe(1000 - 2 * PRICE);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
  });

  it('a send that goes on accepts the take the user chose (as edited); without `accept`, the newest one', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await play(id, { content: 'Go', model_name: 'free' });
    await play(id, { content: 'Go', model_name: 'free', regenerate: true });
    await unthrottle(t, id);
    const next = await sendTurn(base, alice.token, id, {
      content: 'On', model_name: 'free', accept: { turnId: first, userContent: 'Go', newContent: `${reply(1)} (kept)` },
    });
    expect(next.events[0]).toMatchObject({ type: 'user', appended: `\nGo\n${reply(1)} (kept)` });
    // The new turn starts with one take of its own.
    expect((await pending(id)).takes.map((k) => k.aiText)).toEqual([reply(3)]);
    await play(id, { content: 'On', model_name: 'free', regenerate: true });
    await play(id, { content: 'Last', model_name: 'free' });
    expect((await storyDoc(t, id))!.main_text).toBe(`Start.\nGo\n${reply(1)} (kept)\nOn\n${reply(4)}`);
  });

  it(`holds at most ${TAKES_PER_TURN_MAX} takes: one more regenerate is refused in both languages, nothing charged or generated`, async () => {
    await grant(alice, 10_000);
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    await play(id, { content: 'Go', model_name: 'paid' });
    for (let i = 1; i < TAKES_PER_TURN_MAX; i++) await play(id, { content: 'Go', model_name: 'paid', regenerate: true });
    await drain();
    expect((await pending(id)).takes).toHaveLength(TAKES_PER_TURN_MAX);
    const requests = stub.requests;
    const balance = await balanceOf(t, alice.userID);
    expect(balance).toBe(10_000 - TAKES_PER_TURN_MAX * PRICE);
    for (const [language, words] of [['en', 'already has 10 takes'], ['zh-CN', '已有 10 个版本']] as const) {
      await unthrottle(t, id);
      const refused = await as(t, alice).post(`/api/llm/${id}`, { content: 'Go', model_name: 'paid', regenerate: true, language });
      expect([refused.status, refused.body.code, refused.body.params]).toEqual([409, ErrorCode.TAKES_LIMIT, { max: TAKES_PER_TURN_MAX }]);
      expect(refused.body.message).toContain(words);
    }
    expect(stub.requests).toBe(requests);
    expect(await balanceOf(t, alice.userID)).toBe(balance);
    expect((await pending(id)).takes).toHaveLength(TAKES_PER_TURN_MAX);
    // Going on (accepting one) is still possible, and the next turn starts with room again.
    await play(id, { content: 'On', model_name: 'free' });
    await play(id, { content: 'On', model_name: 'free', regenerate: true });
    expect((await pending(id)).takes).toHaveLength(2);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
  });

  it('a failed take shows with its error and costs nothing; the next regenerate replaces it beside the done ones', async () => {
    await grant(alice, 1000);
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await play(id, { content: 'Go', model_name: 'paid' });
    await unthrottle(t, id);
    const failed = await sendTurn(base, alice.token, id, { content: `Go ${STUB_MARKERS.fail}`, model_name: 'paid', regenerate: true });
    expect(failed.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.PROVIDER_ERROR });
    await drain();
    const view = await pending(id);
    expect(view.state).toBe('failed');
    expect(view.takes.map((k) => [k.turnId === first, k.state, k.errorCode, k.cost])).toEqual([
      [true, 'done', null, PRICE],
      [false, 'failed', ErrorCode.PROVIDER_ERROR, 0],
    ]);
    const third = await play(id, { content: 'Go', model_name: 'paid', regenerate: true });
    await drain();
    expect((await pending(id)).takes.map((k) => k.turnId)).toEqual([first, third]);
    expect(await balanceOf(t, alice.userID)).toBe(1000 - 2 * PRICE);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
  });

  it('a pending turn from before takes were kept keeps its take when regenerated (no manual step)', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const storyId = new Types.ObjectId(id);
    // As an older version left it: done, no takes field, no branch.
    await turns().updateOne(
      { _id: storyId },
      {
        $set: { state: 'done', generationId: 'older-turn', role: '', input: 'Go', userText: 'Go', aiText: 'The older take.', model: 'free', cost: 0, lastSendAt: 0 },
        $unset: { takes: '', branchId: '' },
      },
    );
    expect(await pending(id)).toMatchObject({ state: 'done', takes: [{ turnId: 'older-turn', aiText: 'The older take.', state: 'done' }] });
    const next = await play(id, { content: 'Go', model_name: 'free', regenerate: true });
    await new Promise((r) => setTimeout(r, 50));
    expect((await pending(id)).takes.map((k) => [k.turnId, k.aiText])).toEqual([
      ['older-turn', 'The older take.'],
      [next, reply(1)],
    ]);
    const accepted = await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Go', newContent: 'The older take.', turnId: 'older-turn' });
    expect(accepted.body.data.appended).toBe('\nGo\nThe older take.');
  });

  it('another device sees the takes while the newest is still being written', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await play(id, { content: 'Go', model_name: 'free' });
    stub.set({ delayMs: 150, completionTokens: 200 });
    await unthrottle(t, id);
    let seen: Promise<PendingTurnData> | null = null;
    let another: Promise<{ status: number; body: { code?: string } }> | null = null;
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free', regenerate: true }, undefined, {
      onEvent: (e, n) => {
        if (e.type !== 'delta' || n !== 3) return;
        seen = pending(id);
        // One generation at a time: another regenerate meanwhile is refused (not a lost take).
        another = unthrottle(t, id).then(() => as(t, alice).post(`/api/llm/${id}`, { content: 'Go', model_name: 'free', regenerate: true }));
      },
    });
    expect(textOf(res.events)).toBe(reply(2));
    const during = await seen!;
    expect(during.state).toBe('generating');
    expect(during.takes.map((k) => [k.turnId === first, k.state])).toEqual([
      [true, 'done'],
      [false, 'generating'],
    ]);
    expect((await another!).body.code).toBe(ErrorCode.GENERATION_IN_PROGRESS);
    await drain();
    expect((await pending(id)).takes.map((k) => [k.state, k.aiText])).toEqual([
      ['done', reply(1)],
      ['done', reply(2)],
    ]);
  });
});
