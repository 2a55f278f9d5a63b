import { ErrorCode, SEND_THROTTLE_MS } from '@taleloom/contracts';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Types } from 'mongoose';
import { TOKEN_USER_TTL_MS } from '../src/auth/token-user.cache';
import { requestsWaiting, takeTurns } from '../src/common/request-turns';
import { PlayService } from '../src/play/play.service';
import { SendGuesses } from '../src/play/send-guesses';
import { TurnRepository } from '../src/play/turn.repository';
import { TurnRunner } from '../src/play/turn.runner';
import { PowerService } from '../src/power/power.service';
import { UserRepository } from '../src/users/user.repository';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { listenOnLoopback, sendTurn, storyDoc, stubModel, textOf } from './support/play-helpers';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { createTestApp, type TestApp } from './test-app';

const reply = (n: number) => `Reply ${n}: The lamp flickered and the story went on.`;
const promptOf = (body: { messages: { content: string }[] }) => body.messages.map((m) => m.content).join('\n');

/**
 * A send whose story this process knows (it made it, or played it last) starts its provider request
 * at once, on a guess of what its reads will answer (SendGuesses, TurnRunner.startEarly). The guess
 * goes on only when the reads say exactly that; anything else is dropped before a chunk leaves.
 */
describe('early sends: the provider request starts on a guess the reads must confirm', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  const drain = () => t.app.get(TurnRunner).drain();
  const counts = () => ({ ...t.app.get(SendGuesses).counts });
  const turns = () => t.connection.db!.collection('play_turns');
  // Past the one-second throttle without touching the database (what a user waiting a second does).
  const waitThrottle = () => new Promise((r) => setTimeout(r, SEND_THROTTLE_MS + 20));
  // In order: `event` for each request to the provider (an undici channel), and each claim of a turn.
  const watchOrder = (channel: string, event: string) => {
    const order: string[] = [];
    const onMessage = (message: unknown) => {
      const { request } = message as { request: { path: string } };
      if (request.path.endsWith('/chat/completions')) order.push(event);
    };
    const turnsRepo = t.app.get(TurnRepository);
    const claim = turnsRepo.claim.bind(turnsRepo);
    const spy = jest.spyOn(turnsRepo, 'claim').mockImplementation((...args) => {
      order.push('turn claimed');
      return claim(...args);
    });
    subscribe(channel, onMessage);
    const stop = () => {
      unsubscribe(channel, onMessage);
      spy.mockRestore();
    };
    return { order, stop };
  };

  // Adds 'handler reached' to `order` when the send's handler runs (the caller restores the spy).
  const watchHandler = (order: string[]) => {
    const play = t.app.get(PlayService);
    const send = play.send.bind(play);
    return jest.spyOn(play, 'send').mockImplementation((...args) => {
      order.push('handler reached');
      return send(...args);
    });
  };

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'free', { points: 0 }), stubModel(stub.baseURL, 'paid', { points: 50 })]),
      PROVIDER_TIMEOUT_SECONDS: '5',
      // The order of the provider requests is read on undici's diagnostics channels, which report the
      // requests of this thread: here they are made on it (the provider thread's are the other suites').
      PROVIDER_THREAD: 'off',
    });
    base = await listenOnLoopback(t);
  });
  beforeEach(async () => {
    await t.clean();
    stub.reset();
    stub.set({ completionTokens: 20 });
    alice = await signUp(t, 'alice');
    Object.assign(t.app.get(SendGuesses).counts, { guessed: 0, stood: 0, dropped: 0 });
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await stub.close();
  });

  it('plays a story made here on guesses that stand: one request per turn, the pending turn accepted into the next prompt', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const first = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.', model_name: 'free' });
    expect(textOf(first.events)).toBe(reply(1));
    expect(counts()).toEqual({ guessed: 1, stood: 1, dropped: 0 });
    await drain();
    await waitThrottle();
    // The next send accepts the pending turn (as shown, not edited) before its own: the guess appends it too.
    const second = await sendTurn(base, alice.token, id, { content: 'Then what?', model_name: 'free' });
    expect(second.events[0]).toMatchObject({ type: 'user', appended: `\nMara: I untie the boat.\n${reply(1)}` });
    expect(textOf(second.events)).toBe(reply(2));
    await drain();
    await waitThrottle();
    // Edited before it was accepted: the edit is what the guess appends.
    const turnId = second.events.find((e) => e.type === 'user')!.turnId;
    const third = await sendTurn(base, alice.token, id, {
      content: 'Go on.',
      model_name: 'free',
      accept: { turnId, userContent: 'Then what?', newContent: 'The tide turned.' },
    });
    expect(textOf(third.events)).toBe(reply(3));
    await drain();
    expect(counts()).toEqual({ guessed: 3, stood: 3, dropped: 0 });
    expect(stub.requests).toBe(3);
    expect(promptOf(stub.bodies[1])).toContain(reply(1));
    expect(promptOf(stub.bodies[2])).toContain('The tide turned.');
    expect(promptOf(stub.bodies[2])).not.toContain(reply(2));
    // What was sent is what the story holds and what the context inspector shows.
    expect((await storyDoc(t, id))!.main_text).toBe(`Mara waits at the pier.\nMara: I untie the boat.\n${reply(1)}\nThen what?\nThe tide turned.`);
    const context = (await as(t, alice).get(`/api/llm/${id}/context`)).body.data;
    expect(context.messages.map((m: { parts: { text: string }[] }) => m.parts.map((p) => p.text).join(''))).toEqual(stub.bodies[2].messages.map((m) => m.content));
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'done', aiText: reply(3) });
  });

  it('writes a lone send\'s early provider request before the send claims its turn in the database', async () => {
    // A player's next send: the connection to the provider is kept from an earlier one (undici writes on
    // a kept-alive connection in the check phase of the loop turn; a new one waits for its connect).
    const earlier = await createStory(t, alice, { prologue_and_characters: 'Ilan keeps the lamp.' });
    await sendTurn(base, alice.token, earlier, { role: 'Ilan', content: 'I trim the wick.', model_name: 'free' });
    await drain();
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    // undici announces each request it writes (the API's to the provider; this test's own fetches too).
    const { order, stop } = watchOrder('undici:client:sendHeaders', 'provider request written');
    try {
      const sent = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.', model_name: 'free' });
      expect(textOf(sent.events)).toBe(reply(2));
    } finally {
      stop();
    }
    expect(counts()).toEqual({ guessed: 2, stood: 2, dropped: 0 });
    expect(order).toEqual(['provider request written', 'turn claimed']);
  });

  it('in a burst let in by turns, starts the early provider requests of the sends behind before the checks of those in front', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 6; n++) ids.push(await createStory(t, alice, { prologue_and_characters: `Pier ${n}: Mara waits.` }));
    // A provider whose first token takes a while, as real ones do (one that answers sooner lets the
    // checks of its send go then: its chunks would wait for them).
    stub.set({ completionTokens: 20, firstDelayMs: 300 });
    const { order, stop } = watchOrder('undici:request:create', 'provider request');
    // The six requests wait together (as a burst's do), then come in one a turn.
    let open = false;
    const untake = takeTurns(t.app.getHttpServer(), () => (open ? 1 : 0));
    try {
      const sends = ids.map((id) => sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.', model_name: 'free' }));
      while (requestsWaiting() < ids.length) await new Promise((r) => setTimeout(r, 5));
      open = true;
      const sent = await Promise.all(sends);
      expect(sent.map((r) => textOf(r.events)).sort()).toEqual(ids.map((_, n) => reply(n + 1)).sort());
    } finally {
      stop();
      untake();
    }
    expect(counts()).toEqual({ guessed: 6, stood: 6, dropped: 0 });
    // All but the last let in had started their request before any send claimed its turn (the last
    // found no one waiting behind it: its checks, and those put off, go at once).
    expect(order.filter((o) => o === 'provider request')).toHaveLength(6);
    expect(order.indexOf('turn claimed')).toBeGreaterThanOrEqual(5);
    await drain();
    for (const id of ids) expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'done' });
  });

  it('lets go of the story and the prompt of an early request once it is out: a running stream holds neither', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const runner = t.app.get(TurnRunner);
    const start = runner.start.bind(runner);
    const started: { story: unknown; prompt: unknown }[] = [];
    const spy = jest.spyOn(runner, 'start').mockImplementation((send, early) => {
      if (early) started.push(early);
      return start(send, early);
    });
    // Chunks 40 ms apart: the stream is still relaying when its first chunk has come.
    stub.set({ completionTokens: 20, delayMs: 40 });
    try {
      const res = await fetch(`${base}/api/llm/${id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'Mara', content: 'I untie the boat.', model_name: 'free' }),
      });
      const reader = res.body!.getReader();
      let seen = '';
      while (!seen.includes('"type":"delta"')) seen += new TextDecoder().decode((await reader.read()).value);
      // The early start (a parameter of the running generation, for the stream's whole life) holds nothing of them.
      expect(started).toHaveLength(1);
      expect(started[0]).toMatchObject({ story: null, prompt: null });
      expect(seen).not.toContain('"type":"done"');
      while (!(await reader.read()).done);
    } finally {
      spy.mockRestore();
    }
    expect(counts()).toEqual({ guessed: 1, stood: 1, dropped: 0 });
  });

  it('guesses the first send of a clone, its copied lore included: the entry fires as on a read send', async () => {
    const source = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const entry = await as(t, alice).post(`/api/lore/${source}/entries`, { title: 'The Kestrel', keys: ['boat'], content: 'The Kestrel is a sloop with a red sail.' });
    expect(entry.status).toBe(200);
    const cloned = await as(t, alice).post(`/api/llm/${source}/clone`);
    const id = cloned.body.data.id as string;
    await new Promise((r) => setImmediate(r));
    const res = await sendTurn(base, alice.token, id, { content: 'I untie the boat.', model_name: 'free' });
    expect(textOf(res.events)).toBe(reply(1));
    expect(counts()).toEqual({ guessed: 1, stood: 1, dropped: 0 });
    expect(promptOf(stub.bodies[0])).toContain('The Kestrel is a sloop with a red sail.');
    await drain();
  });

  it('drops a guess the database contradicts (the story written behind its back) before anything is relayed, and plays what was read', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    // Another process (or instance) changed the story, raising its revision as every text write does: this one does not know.
    await t.connection.db!.collection('stories').updateOne({ _id: new Types.ObjectId(id) }, { $set: { main_text: 'Ilan rows out alone.' }, $inc: { stateRev: 1 } });
    stub.set({ completionTokens: 20, firstDelayMs: 40 });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    expect(counts()).toEqual({ guessed: 1, stood: 0, dropped: 1 });
    // The guessed request was aborted; the turn's own request carries the text as read.
    expect(stub.requests).toBe(2);
    expect(promptOf(stub.bodies[0])).not.toContain('Ilan rows out alone.');
    expect(promptOf(stub.bodies[1])).toContain('Ilan rows out alone.');
    expect(res.events.filter((e) => e.type === 'user')).toHaveLength(1);
    expect(textOf(res.events)).toBe(reply(2));
    await drain();
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'done', aiText: reply(2), takes: [{ aiText: reply(2) }] });
  });

  it('reads a story it played last without its text while the text is at the revision it knew, and whole once another write raised it', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const stories = t.connection.db!.collection('stories');
    const _id = new Types.ObjectId(id);
    await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.', model_name: 'free' });
    await drain();
    await waitThrottle();
    // Every text write of the app raises the story's revision (stateRev). A text changed without raising
    // it (only this test does that) shows what the next send took the text from: not from a read.
    const before = (await stories.findOne({ _id }))!;
    await stories.updateOne({ _id }, { $set: { main_text: 'A text no send should see.' } });
    const second = await sendTurn(base, alice.token, id, { content: 'Then what?', model_name: 'free' });
    expect(textOf(second.events)).toBe(reply(2));
    expect(promptOf(stub.bodies[1])).toContain(`Mara waits at the pier.\nMara: I untie the boat.\n${reply(1)}`);
    expect(promptOf(stub.bodies[1])).not.toContain('A text no send should see.');
    await drain();
    // The accepted turn was appended to the text it knew, and the revision raised once.
    const accepted = `Mara waits at the pier.\nMara: I untie the boat.\n${reply(1)}`;
    expect(await stories.findOne({ _id })).toMatchObject({ main_text: accepted, stateRev: before.stateRev + 1 });
    await waitThrottle();
    // Another process's write raises the revision: the next send reads the text whole, and plays it.
    await stories.updateOne({ _id }, { $set: { main_text: 'Ilan rows out alone.' }, $inc: { stateRev: 1 } });
    const third = await sendTurn(base, alice.token, id, { content: 'Go on.', model_name: 'free' });
    expect(textOf(third.events)).toBe(reply(4));
    expect(promptOf(stub.bodies.at(-1)!)).toContain(`Ilan rows out alone.\nThen what?\n${reply(2)}`);
    expect(counts()).toEqual({ guessed: 3, stood: 2, dropped: 1 });
    await drain();
    expect(await stories.findOne({ _id })).toMatchObject({ main_text: `Ilan rows out alone.\nThen what?\n${reply(2)}`, stateRev: before.stateRev + 3 });
  });

  it('saves (accepts) a reply onto the text it knew while the revision stands, the next send starting on it, and onto the text as read once another write raised it', async () => {
    const stories = t.connection.db!.collection('stories');
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const _id = new Types.ObjectId(id);
    const first = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.', model_name: 'free' });
    await drain();
    // A text changed without raising the revision (only this test does that): the save appends to the text it knew.
    await stories.updateOne({ _id }, { $set: { main_text: 'A text no save should see.' } });
    const turnId = first.events.find((e) => e.type === 'user')!.turnId;
    const saved = await as(t, alice).post(`/api/llm/${id}/accept`, { turnId, userContent: 'Mara: I untie the boat.', newContent: reply(1) });
    expect(saved.body.data.appended).toBe(`\nMara: I untie the boat.\n${reply(1)}`);
    expect((await storyDoc(t, id))!.main_text).toBe(`Mara waits at the pier.\nMara: I untie the boat.\n${reply(1)}`);
    await waitThrottle();
    // The next send starts on a guess that stands, and takes the text the save wrote (not read again either).
    await stories.updateOne({ _id }, { $set: { main_text: 'A text no send should see.' } });
    const second = await sendTurn(base, alice.token, id, { content: 'Then what?', model_name: 'free' });
    expect(counts()).toEqual({ guessed: 2, stood: 2, dropped: 0 });
    expect(promptOf(stub.bodies[1])).toContain(`Mara waits at the pier.\nMara: I untie the boat.\n${reply(1)}`);
    expect(promptOf(stub.bodies[1])).not.toContain('A text no send should see.');
    await drain();
    // Raised by another process's write: the save reads the text whole.
    await stories.updateOne({ _id }, { $set: { main_text: 'Ilan rows out alone.' }, $inc: { stateRev: 1 } });
    const next = second.events.find((e) => e.type === 'user')!.turnId;
    const again = await as(t, alice).post(`/api/llm/${id}/accept`, { turnId: next, userContent: 'Then what?', newContent: reply(2) });
    expect(again.body.data.appended).toBe(`\nThen what?\n${reply(2)}`);
    expect((await storyDoc(t, id))!.main_text).toBe(`Ilan rows out alone.\nThen what?\n${reply(2)}`);
  });

  it('drops the guess of a refused send: nothing stored, nothing charged, and the next send reads first', async () => {
    await t.app.get(PowerService).grant(alice.userID, 500, 'test', 'test-grant-early');
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    // A send a moment ago, from another process: this one's guess does not know about it.
    const before = { state: 'idle', lastSendAt: Date.now() };
    await turns().updateOne({ _id: new Types.ObjectId(id) }, { $set: before });
    stub.set({ completionTokens: 20, firstDelayMs: 40 });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    expect([res.status, res.body!.code]).toEqual([429, ErrorCode.SEND_TOO_FAST]);
    expect(counts()).toEqual({ guessed: 1, stood: 0, dropped: 0 });
    await drain();
    expect(await turns().findOne({ _id: new Types.ObjectId(id) })).toMatchObject(before);
    expect(await balanceOf(t, alice.userID)).toBe(500);
    // Forgotten: the next send reads before its request (no guess), and plays.
    await turns().updateOne({ _id: new Types.ObjectId(id) }, { $set: { lastSendAt: 0 } });
    const next = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    expect(textOf(next.events)).toBe(reply(2));
    expect(counts().guessed).toBe(1);
  });

  it('starts a send\'s provider request as the request arrives, before its guard, validation and handler run', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const { order, stop } = watchOrder('undici:request:create', 'provider request');
    const handler = watchHandler(order);
    try {
      const sent = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.', model_name: 'free' });
      expect(textOf(sent.events)).toBe(reply(1));
      // The send took the request started on arrival: one request to the provider, its guess stood.
      expect(handler.mock.calls[0][4]).not.toBeNull();
    } finally {
      handler.mockRestore();
      stop();
    }
    expect(order).toEqual(['provider request', 'handler reached', 'turn claimed']);
    expect(counts()).toEqual({ guessed: 1, stood: 1, dropped: 0 });
    expect(stub.requests).toBe(1);
  });

  it('starts on arrival the send of a player who paused longer than the token-user TTL, and its guard still refuses a token revoked meanwhile', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const reads = jest.spyOn(t.app.get(UserRepository), 'tokenFields');
    // Only the clock moves: the player read for longer than the TTL before sending.
    const pause = () =>
      jest.useFakeTimers({
        now: Date.now() + TOKEN_USER_TTL_MS + 1000,
        advanceTimers: true,
        doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
      });
    const { order, stop } = watchOrder('undici:request:create', 'provider request');
    const handler = watchHandler(order);
    try {
      pause();
      const sent = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.', model_name: 'free' });
      expect(textOf(sent.events)).toBe(reply(1));
      expect(order).toEqual(['provider request', 'handler reached', 'turn claimed']);
      // The guard read the user again (the entry was too old to vouch for the token).
      expect(reads).toHaveBeenCalledTimes(1);
      expect(counts()).toEqual({ guessed: 1, stood: 1, dropped: 0 });
      await drain();
      await waitThrottle();
      // Meanwhile the password changed on another instance: tokens issued before now are refused.
      await t.connection.db!.collection('users').updateOne({ _id: new Types.ObjectId(alice.userID) }, { $set: { tokensValidAfter: new Date(Date.now() + 60_000) } });
      pause();
      const refused = await sendTurn(base, alice.token, id, { content: 'Go on', model_name: 'free' });
      expect([refused.status, refused.body!.code]).toEqual([401, ErrorCode.TOKEN_INVALID]);
      await drain();
      // Started on the likely user, then let go of when the guard refused: nothing claimed, stored or relayed.
      expect(counts()).toEqual({ guessed: 2, stood: 1, dropped: 0 });
      expect(refused.events).toEqual([]);
      expect(await turns().findOne({ _id: new Types.ObjectId(id) })).toMatchObject({ state: 'done', aiText: reply(1) });
      expect((await storyDoc(t, id))!.main_text).toBe('Mara waits at the pier.');
    } finally {
      jest.useRealTimers();
      reads.mockRestore();
      handler.mockRestore();
      stop();
    }
  });

  it('aborts the request started on arrival when validation refuses the body: 400, nothing stored, and the next send plays', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    stub.set({ completionTokens: 20, firstDelayMs: 200 });
    // A language the DTO does not know: the body looks like a send until the validation pipe reads it.
    const refused = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free', language: 'xx' } as never);
    expect([refused.status, refused.body!.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    expect(counts()).toEqual({ guessed: 1, stood: 0, dropped: 0 });
    await drain();
    // Nothing was claimed, written or relayed.
    expect(await turns().findOne({ _id: new Types.ObjectId(id) })).toMatchObject({ state: 'idle', aiText: '' });
    const next = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    expect(textOf(next.events)).toBe(reply(2));
    expect(counts()).toEqual({ guessed: 2, stood: 1, dropped: 0 });
    expect((await storyDoc(t, id))!.main_text).toBe('Mara waits at the pier.');
  });

  it('starts nothing on arrival for a body validation will refuse, another user\'s story or a token it cannot vouch for', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const bob = await signUp(t, 'bob');
    // An unknown field, a content over its limit: refused by validation, no provider request.
    for (const body of [{ content: 'Go', model_name: 'free', temperature: 2 }, { content: 'x'.repeat(10_001), model_name: 'free' }]) {
      const res = await sendTurn(base, alice.token, id, body as never);
      expect([res.status, res.body!.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    }
    // Another user's story: 404, as without the early start.
    const other = await sendTurn(base, bob.token, id, { content: 'Go', model_name: 'free' });
    expect([other.status, other.body!.code]).toEqual([404, ErrorCode.STORY_NOT_FOUND]);
    // A forged token: passport answers it (401).
    const forged = `${alice.token.slice(0, -4)}AAAA`;
    const bad = await sendTurn(base, forged, id, { content: 'Go', model_name: 'free' });
    expect(bad.status).toBe(401);
    await drain();
    expect(counts()).toEqual({ guessed: 0, stood: 0, dropped: 0 });
    expect(stub.requests).toBe(0);
  });

  it('guesses a paid model once this process has seen a balance that covers it: held, gated and charged once, as a read send', async () => {
    await t.app.get(PowerService).grant(alice.userID, 500, 'test', 'test-grant-early-paid');
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    // The first paid send of the user here: no balance seen yet, so it is read before the request.
    const first = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'paid' });
    expect(textOf(first.events)).toBe(reply(1));
    await drain();
    expect(counts().guessed).toBe(0);
    await waitThrottle();
    const second = await sendTurn(base, alice.token, id, { content: 'On', model_name: 'paid' });
    expect(textOf(second.events)).toBe(reply(2));
    await drain();
    expect(counts()).toEqual({ guessed: 1, stood: 1, dropped: 0 });
    const cost = (res: typeof first) => (res.events.find((e) => e.type === 'usage') as { cost: number }).cost;
    expect(cost(first)).toBeGreaterThan(0);
    expect(await balanceOf(t, alice.userID)).toBe(500 - cost(first) - cost(second));
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
    await waitThrottle();
    // An edit through the API: this process forgets what it knew of the story, and reads it first.
    expect((await as(t, alice).patch(`/api/llm?id=${id}`, { author_remark: 'Keep it short.' })).status).toBe(200);
    const free = await sendTurn(base, alice.token, id, { content: 'Again', model_name: 'free' });
    expect(textOf(free.events)).toBe(reply(3));
    expect(promptOf(stub.bodies[2])).toContain('Keep it short.');
    expect(counts().guessed).toBe(1);
  });

  it('drops a paid guess the balance does not cover (spent elsewhere): 402, nothing held or charged', async () => {
    await t.app.get(PowerService).grant(alice.userID, 20, 'test', 'test-grant-early-short');
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    // What this process last saw says 1000 (another process spent it since): a guess is made.
    (t.app.get(PowerService) as unknown as { seen: Map<string, number> }).seen.set(alice.userID.toLowerCase(), 1000);
    stub.set({ completionTokens: 20, firstDelayMs: 40 });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'paid' });
    expect([res.status, res.body!.code]).toEqual([402, ErrorCode.NOT_ENOUGH_POWER]);
    expect(counts()).toEqual({ guessed: 1, stood: 0, dropped: 0 });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(20);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
    expect(await turns().findOne({ _id: new Types.ObjectId(id) })).toMatchObject({ state: 'idle' });
  });
});
