import { ErrorCode } from '@taleloom/contracts';
import { INSTANCE, INSTANCE_TAG } from '../src/common/instance';
import { TurnRepairService } from '../src/play/turn-repair.service';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, type TestUser } from './story-factories';
import { sendTurn, storyDoc, textOf } from './support/play-helpers';
import { playSuite } from './support/play-suite';
import type { OpenAIStub } from './support/openai-stub';
import type { TestApp } from './test-app';

describe('play: streams that break, close or stall, and turns whose process died', () => {
  const suite = playSuite();
  const { drain, grant } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser;
  beforeEach(() => void ({ t, stub, base, alice } = suite));

  it('keeps the partial text of a stream that breaks off, charges nothing and says why in the request language', async () => {
    await grant(alice, 1000);
    const id = await createStory(t, alice);
    stub.set({ failAfter: 3 });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Go', language: 'zh-CN' });
    expect(textOf(res.events)).toBe('Reply 1: The lamp');
    expect(res.events.at(-1)).toEqual({ type: 'error', code: ErrorCode.PROVIDER_ERROR, message: '模型在生成时出错，已保留已生成的文字，未扣除电量。' });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(1000);
    const closes = await entriesOf(t, alice.userID, { kind: { $in: ['settle', 'release'] } });
    expect(closes.map((e) => e.kind)).toEqual(['release']);
    const pending = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(pending.body.data).toMatchObject({ state: 'failed', aiText: 'Reply 1: The lamp', errorCode: ErrorCode.PROVIDER_ERROR, cost: 0 });
    // The partial text can still be saved.
    await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Mara: Go', newContent: 'Reply 1: The lamp' });
    expect((await storyDoc(t, id))!.main_text).toMatch(/Mara: Go\nReply 1: The lamp$/);
  });

  it('finishes, stores and charges once a generation whose connection closed; reopening shows it', async () => {
    await grant(alice, 1000);
    const id = await createStory(t, alice);
    stub.set({ delayMs: 40, completionTokens: 200 });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Go' }, 2);
    expect(res.events.map((e) => e.type)).toEqual(['user', 'delta']);
    // While it runs, a reopened story sees it generating.
    await new Promise((r) => setTimeout(r, 50));
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.state).toBe('generating');
    await drain();
    const pending = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(pending.body.data).toMatchObject({ state: 'done', aiText: 'Reply 1: The lamp flickered and the story went on.', cost: 100 });
    expect(await balanceOf(t, alice.userID)).toBe(900);
    const settles = await entriesOf(t, alice.userID, { kind: 'settle' });
    expect(settles).toHaveLength(1);
    expect(stub.requests).toBe(1);
  });

  it('takes over a turn whose instance died mid-generation and gives its held power back', async () => {
    await grant(alice, 1000);
    const id = await createStory(t, alice);
    const power = t.app.get(PowerService);
    const deadHold = await power.hold(alice.userID, 100, 'dead-generation', { storyID: id });
    expect(await balanceOf(t, alice.userID)).toBe(900);
    // A new story has its (idle) turn document already: the dead generation replaces it.
    await t.connection.db!.collection('play_turns').replaceOne({ _id: (await storyDoc(t, id))!._id }, {
      userID: alice.userID, state: 'generating', generationId: 'dead', holdId: deadHold,
      aiText: 'half', userText: '', lastSendAt: 1, heartbeatAt: 1, summarizedChars: 0,
    }, { upsert: true });
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'failed', aiText: 'half', errorCode: ErrorCode.PROVIDER_ERROR });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free', regenerate: true });
    expect(res.status).toBe(200);
    await drain();
    await new Promise((r) => setTimeout(r, 100));
    expect(await balanceOf(t, alice.userID)).toBe(1000);
  });

  it('repair closes at once the turns of a process of this host that is gone: whole text settled, partial released', async () => {
    await grant(alice, 1000);
    const power = t.app.get(PowerService);
    const gone = `${INSTANCE.host}|${process.pid}|an-earlier-start`;
    const deadTurn = async (fields: object) => {
      const id = await createStory(t, alice);
      await t.connection.db!.collection('play_turns').replaceOne({ _id: (await storyDoc(t, id))!._id }, {
        userID: alice.userID, state: 'generating', generationId: `g-${id}`, owner: gone,
        userText: 'Go', lastSendAt: 1, heartbeatAt: Date.now(), summarizedChars: 0, ...fields,
      }, { upsert: true });
      return id;
    };
    const whole = await deadTurn({ holdId: await power.hold(alice.userID, 100, 'whole'), aiText: 'All of it.', finalCost: 60 });
    const partial = await deadTurn({ holdId: await power.hold(alice.userID, 100, 'partial'), aiText: 'Half', finalCost: null });
    const neverHeld = await deadTurn({ holdId: '0123456789abcdef01234567', aiText: '', finalCost: null });
    // A live turn of this very process is left alone.
    const live = await deadTurn({ owner: INSTANCE_TAG, holdId: null, aiText: 'still going' });
    expect(await t.app.get(TurnRepairService).repair()).toBe(3);
    const view = async (id: string) => (await as(t, alice).get(`/api/llm/${id}/pending`)).body.data;
    expect(await view(whole)).toMatchObject({ state: 'done', aiText: 'All of it.', cost: 60, errorCode: null });
    expect(await view(partial)).toMatchObject({ state: 'failed', aiText: 'Half', cost: 0, errorCode: ErrorCode.PROVIDER_ERROR });
    expect(await view(neverHeld)).toMatchObject({ state: 'failed' });
    expect(await view(live)).toMatchObject({ state: 'generating' });
    expect(await balanceOf(t, alice.userID)).toBe(940);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
    // Again: nothing more to close, nothing charged twice.
    expect(await t.app.get(TurnRepairService).repair()).toBe(0);
    expect(await balanceOf(t, alice.userID)).toBe(940);
  });

  it('a provider gone quiet mid-stream: the text so far is stored within about a second, before the next chunk', async () => {
    const id = await createStory(t, alice);
    stub.set({ chunks: ['The tide ', 'came in.', ' Never sent.'], stallAfter: 2 });
    const sending = sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    await new Promise((r) => setTimeout(r, 1800));
    const pending = (await as(t, alice).get(`/api/llm/${id}/pending`)).body.data;
    expect(pending).toMatchObject({ state: 'generating', aiText: 'The tide came in.' });
    // The idle timeout (5 s here) ends it; the partial text stays.
    const res = await sending;
    expect(res.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.PROVIDER_TIMEOUT });
    await drain();
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'failed', aiText: 'The tide came in.' });
  });
});
