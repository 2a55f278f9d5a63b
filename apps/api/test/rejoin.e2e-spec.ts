import { ErrorCode, parseStreamPosition } from '@taleloom/contracts';
import { TurnRunner } from '../src/play/turn.runner';
import { RunningTurns } from '../src/play/running-turns';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { listenOnLoopback, stubModel } from './support/play-helpers';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { assembled, rejoin, sendWithIds, type IdEvent } from './support/stream-events';
import { createTestApp, type TestApp } from './test-app';

// A reply of 60 pieces, 40 ms apart (about 2.4 s): English, Chinese and a character outside the BMP,
// so positions that count UTF-16 code units are checked where a pair could be cut.
const PIECES = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? `潮水第${i}次退去，` : i % 3 === 1 ? `wave ${i} 🌊 ` : `and the lamp turned ${i}. `));
const REASONING = Array.from({ length: 20 }, (_, i) => `thought ${i}; `);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const types = (events: IdEvent[]) => events.map((e) => e.event.type);
const lastId = (events: IdEvent[]) => events.at(-1)!.id!;

/**
 * Rejoining a running turn (GET /api/llm/{id}/stream): every event carries its position as its SSE id;
 * a client that lost the connection gets exactly the rest, from the process running the generation or
 * from another one on the same database; nothing is sent to the provider or charged again.
 */
describe('play: rejoining a turn (GET /api/llm/{id}/stream)', () => {
  let t: TestApp;
  let t2: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let base2: string;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    stub = await startOpenAIStub();
    const env = {
      MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'stub'), stubModel(stub.baseURL, 'thinker', { points: 0, enableReasoning: true })]),
      PROVIDER_TIMEOUT_SECONDS: '5',
    };
    t = await createTestApp(env);
    // A second API instance on the same database (as two processes of API_WORKERS=2 are).
    t2 = await createTestApp(env, { databaseName: t.databaseName });
    base = await listenOnLoopback(t);
    base2 = await listenOnLoopback(t2);
  });
  beforeEach(async () => {
    await t.clean();
    stub.reset();
    stub.set({ chunks: PIECES, delayMs: 40, completionTokens: 60 });
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
    await t.app.get(PowerService).grant(alice.userID, 1000, 'test', `grant-${alice.userID}`);
  });
  afterAll(async () => {
    await t.app.get(TurnRunner).drain();
    await t2.close();
    await t.close();
    await stub.close();
  });

  const storedTurn = async (id: string) => (await as(t, alice).get(`/api/llm/${id}/pending`)).body.data as { state: string; aiText: string; reasoning: string; turnId: string };

  it('gives every event its position; a rejoin from the start, from the middle (Last-Event-ID) and after done assembles the stored turn', async () => {
    const id = await createStory(t, alice);
    // The sender's connection drops after 15 pieces.
    const cut = await sendWithIds(base, alice.token, id, { content: 'The tide.' }, (e, all) => all.filter((x) => x.event.type === 'delta').length === 15);
    expect(cut.events[0]).toMatchObject({ id: '0:0', event: { type: 'user' } });
    // Each id is the text so far, in UTF-16 code units.
    let text = '';
    for (const { id: eventId, event } of cut.events) {
      if (event.type === 'delta') text += event.text;
      expect(parseStreamPosition(eventId)).toEqual({ text: text.length, reasoning: 0 });
    }
    const [fromStart, fromMiddle, third] = await Promise.all([
      rejoin(base, alice.token, id),
      rejoin(base, alice.token, id, lastId(cut.events)),
      // Several followers at once; `from` in the query says the same as the header.
      rejoin(base, alice.token, id, null, undefined, `?from=${lastId(cut.events)}&turn=${cut.events[0].id && (cut.events[0].event as { turnId: string }).turnId}`),
    ]);
    const stored = await storedTurn(id);
    expect(stored.state).toBe('done');
    expect(stored.aiText).toBe(PIECES.join(''));
    expect(fromStart.status).toBe(200);
    expect(types(fromStart.events)[0]).toBe('user');
    expect(types(fromStart.events).slice(-2)).toEqual(['usage', 'done']);
    expect(assembled(fromStart.events).text).toBe(stored.aiText);
    // The middle: what the cut connection had, then the rejoin: the stored text, byte for byte.
    expect(types(fromMiddle.events)).not.toContain('user');
    expect(assembled(cut.events).text + assembled(fromMiddle.events).text).toBe(stored.aiText);
    expect(assembled(cut.events).text + assembled(third.events).text).toBe(stored.aiText);
    expect(fromMiddle.events.at(-1)!.id).toBe(`${stored.aiText.length}:0`);
    // Live: the rejoin did not wait for the end to send its first text.
    expect(fromMiddle.events.filter((e) => e.event.type === 'delta').length).toBeGreaterThan(2);

    // After done: the whole rest and done at once, from whichever point.
    const after = await rejoin(base, alice.token, id);
    expect(types(after.events)).toEqual(['user', 'delta', 'usage', 'done']);
    expect(assembled(after.events).text).toBe(stored.aiText);
    // The usage as the live stream gave it: the cost charged (60 of the model's 200 tokens, 100 power for 200).
    expect(after.events.at(-2)!.event).toEqual({ type: 'usage', promptTokens: 10, completionTokens: 60, cost: 30 });
    expect(fromStart.events.at(-2)!.event).toEqual(after.events.at(-2)!.event);
    const afterMiddle = await rejoin(base2, alice.token, id, lastId(cut.events));
    expect(assembled(cut.events).text + assembled(afterMiddle.events).text).toBe(stored.aiText);

    // One provider request, one charge, whatever was rejoined.
    expect(stub.requests).toBe(1);
    await t.app.get(TurnRunner).drain();
    expect(await balanceOf(t, alice.userID)).toBe(970);
    expect(await entriesOf(t, alice.userID, { state: 'applied', points: { $lt: 0 } })).toHaveLength(1);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
    // The finished generation left this process's memory.
    expect(t.app.get(RunningTurns).size).toBe(0);
  }, 30_000);

  it('rejoins from a second instance on the same database, live about a second behind, and a reasoning turn too', async () => {
    const id = await createStory(t, alice);
    let cutAt: IdEvent[] = [];
    const sender = sendWithIds(base, alice.token, id, { content: 'The tide.' });
    // Cut after 10 pieces on the instance that runs the generation; rejoin on the other.
    await sleep(700);
    const partial = await rejoin(base, alice.token, id, null, (_, all) => all.filter((x) => x.event.type === 'delta').length >= 2);
    cutAt = partial.events;
    const [elsewhere, whole, sent] = await Promise.all([rejoin(base2, alice.token, id, lastId(cutAt)), rejoin(base2, alice.token, id), sender]);
    const stored = await storedTurn(id);
    expect(assembled(sent.events).text).toBe(stored.aiText);
    expect(assembled(cutAt).text + assembled(elsewhere.events).text).toBe(stored.aiText);
    expect(assembled(whole.events).text).toBe(stored.aiText);
    expect(types(whole.events)[0]).toBe('user');
    expect(elsewhere.events.at(-1)!.event).toEqual({ type: 'done', turnId: stored.turnId });
    // Followed while it ran (several reads), at most about a second behind the runner's own events.
    const sentAt = new Map(sent.events.map((e) => [e.id, e.at]));
    const deltas = whole.events.filter((e) => e.event.type === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    const lags = deltas.map((e) => e.at - sentAt.get(e.id)!);
    expect(Math.max(...lags)).toBeLessThanOrEqual(1500);
    expect(whole.events.at(-1)!.at - sent.events.at(-1)!.at).toBeLessThanOrEqual(1500);
    expect(stub.requests).toBe(1);
    await t.app.get(TurnRunner).drain();
    expect(await balanceOf(t, alice.userID)).toBe(970);
    expect(sent.events.find((e) => e.event.type === 'usage')!.event).toMatchObject({ cost: 30 });

    // A reasoning model: the reasoning has its own count in the position.
    stub.set({ chunks: PIECES.slice(0, 20), reasoning: REASONING, delayMs: 40, completionTokens: 20 });
    const thinking = await createStory(t, alice);
    const cut = await sendWithIds(base, alice.token, thinking, { content: 'Think.', model_name: 'thinker' }, (_, all) => all.filter((x) => x.event.type === 'reasoning').length === 5);
    expect(parseStreamPosition(lastId(cut.events))).toEqual({ text: 0, reasoning: REASONING.slice(0, 5).join('').length });
    const [here, there] = await Promise.all([rejoin(base, alice.token, thinking, lastId(cut.events)), rejoin(base2, alice.token, thinking, lastId(cut.events))]);
    const storedThinking = (await as(t, alice).get(`/api/llm/${thinking}/pending`)).body.data as { aiText: string; reasoning: string };
    for (const rejoined of [here, there]) {
      expect(assembled(cut.events).reasoning + assembled(rejoined.events).reasoning).toBe(storedThinking.reasoning);
      expect(assembled(rejoined.events).text).toBe(storedThinking.aiText);
    }
    expect(storedThinking.reasoning).toBe(REASONING.join(''));
  }, 30_000);

  it("refuses another user's story (404, on either instance), a story with no turn, and a position that is not one", async () => {
    const id = await createStory(t, alice);
    const none = await rejoin(base, alice.token, id);
    expect(none.status).toBe(409);
    expect(none.body?.code).toBe(ErrorCode.NO_RUNNING_TURN);
    const sender = sendWithIds(base, alice.token, id, { content: 'The tide.' });
    await sleep(500);
    for (const at of [base, base2]) {
      const other = await rejoin(at, bob.token, id);
      expect(other.status).toBe(404);
      expect(other.body?.code).toBe(ErrorCode.STORY_NOT_FOUND);
    }
    const bad = await rejoin(base, alice.token, id, 'twelve');
    expect(bad.status).toBe(400);
    expect(bad.body?.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect((await rejoin(base, alice.token, 'not-an-id')).status).toBe(404);
    const sent = await sender;
    // Accepted: nothing runs or waits any more.
    const stored = await storedTurn(id);
    await as(t, alice).post(`/api/llm/${id}/accept`).send({ userContent: 'The tide.', newContent: stored.aiText, turnId: stored.turnId }).expect(200);
    const accepted = await rejoin(base2, alice.token, id);
    expect(accepted.body?.code).toBe(ErrorCode.NO_RUNNING_TURN);
    expect(assembled(sent.events).text).toBe(PIECES.join(''));
    // In Chinese when asked.
    const zh = await rejoin(base, alice.token, id, null, undefined, '?language=zh-CN');
    expect(zh.body?.message).toBe('这个故事没有正在生成或等待保存的回合。');
  }, 30_000);

  it('a rejoin names the turn its position belongs to: a newer turn streams from its start', async () => {
    stub.set({ chunks: PIECES.slice(0, 10), delayMs: 10, completionTokens: 10 });
    const id = await createStory(t, alice);
    const first = await sendWithIds(base, alice.token, id, { content: 'One.' });
    const firstTurn = (first.events[0].event as { turnId: string }).turnId;
    await sleep(1100);
    const second = await sendWithIds(base, alice.token, id, { content: 'Two.' });
    expect(second.events.at(-1)!.event.type).toBe('done');
    const stale = await rejoin(base2, alice.token, id, lastId(first.events), undefined, `?turn=${firstTurn}`);
    expect(types(stale.events)[0]).toBe('user');
    expect(assembled(stale.events).text).toBe(assembled(second.events).text);
  }, 30_000);
});
