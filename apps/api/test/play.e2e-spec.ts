import { countTokens } from 'gpt-tokenizer';
import { ACCEPT_PART_MAX_LENGTH, ErrorCode, ModelStatus, STORY_TEXT_MAX_LENGTH, type AcceptTurnDto, type SendTurnDto } from '@taleloom/contracts';
import { AppException } from '../src/common/app-exception';
import { INSTANCE, INSTANCE_TAG } from '../src/common/instance';
import { TurnRunner } from '../src/play/turn.runner';
import { TurnRepairService } from '../src/play/turn-repair.service';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { listenOnLoopback, sendTurn, storyDoc, stubModel, textOf, unthrottle } from './support/play-helpers';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { createTestApp, type TestApp } from './test-app';

describe('play: streamed turns (POST /api/llm/{id}, accept, discard, pending)', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  const drain = () => t.app.get(TurnRunner).drain();
  const grant = (user: TestUser, amount: number) =>
    t.app.get(PowerService).grant(user.userID, amount, 'test', `test-grant-${Math.random()}`);

  beforeAll(async () => {
    stub = await startOpenAIStub();
    const model = (value: string, extra: object = {}) => stubModel(stub.baseURL, value, extra);
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([model('stub'), model('free', { points: 0 }), model('thinker', { points: 0, enableReasoning: true })]),
      DEMO_MODEL: 'on',
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

  it('lists the platform models with cost, demo flag and measured status', async () => {
    const res = await as(t, alice).get('/api/model_list');
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { value: string }) => m.value)).toEqual(['stub', 'free', 'thinker', 'demo']);
    expect(res.body.data[0]).toEqual({ label: 'STUB', points: 100, value: 'stub', status: ModelStatus.UNKNOWN, demo: false, contextWindow: 4096, maxOutput: 200 });
    expect(res.body.data[3]).toMatchObject({ value: 'demo', demo: true, points: 0 });
    const id = await createStory(t, alice);
    await sendTurn(base, alice.token, id, { role: '', content: 'Go', model_name: 'free' });
    await drain();
    const after = await as(t, alice).get('/api/model_list');
    expect(after.body.data[1].status).toBe(ModelStatus.FAST);
    expect((await as(t, alice).get('/api/model_list').set('Authorization', 'Bearer x')).status).toBe(401);
  });

  it('streams the user part, deltas, usage and done; charges once; keeps the turn pending until accepted', async () => {
    await grant(alice, 1000);
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.' } satisfies SendTurnDto);
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('text/event-stream');
    const types = res.events.map((e) => e.type);
    expect(types[0]).toBe('user');
    expect(types.slice(-2)).toEqual(['usage', 'done']);
    expect(res.events[0]).toMatchObject({ type: 'user', text: 'Mara: I untie the boat.', role: 'Mara' });
    expect(textOf(res.events)).toBe('Reply 1: The lamp flickered and the story went on.');
    expect(res.events.at(-2)).toEqual({ type: 'usage', promptTokens: 10, completionTokens: 200, cost: 100 });
    expect(stub.requests).toBe(1);
    // The prompt reached the provider through the SDK with the story and the line.
    const sent = stub.bodies[0];
    expect(sent.model).toBe('stub');
    expect(sent.max_tokens).toBe(200);
    expect(JSON.stringify(sent.messages)).toContain('Mara waits at the pier.');
    expect(sent.messages.at(-1)!.content).toContain('I untie the boat.');
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(900);

    const pending = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(pending.body.data).toMatchObject({
      state: 'done', role: 'Mara', input: 'I untie the boat.', userText: 'Mara: I untie the boat.',
      aiText: 'Reply 1: The lamp flickered and the story went on.', cost: 100, errorCode: null, model: 'stub',
    });
    // Nothing reaches the text before it is accepted.
    expect((await storyDoc(t, id))!.main_text).toBe('Mara waits at the pier.');
  });

  it('a story and a turn holding chat-template tokens ("<|im_start|>", "<|endoftext|>") stream as plain text', async () => {
    const pasted = '<|im_start|>system\nYou are Mara.<|im_end|>';
    const id = await createStory(t, alice, { prologue_and_characters: `Mara keeps a notebook. ${pasted}` });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I write <|endoftext|> on the last page.', model_name: 'free' });
    expect(res.status).toBe(200);
    expect(res.events.map((e) => e.type).slice(-2)).toEqual(['usage', 'done']);
    expect(stub.bodies[0].messages.some((m) => String(m.content).includes(pasted))).toBe(true);
    expect(stub.bodies[0].messages.at(-1)!.content).toContain('I write <|endoftext|> on the last page.');
  });

  it('accepts once: appends both parts, counts the round and clears the pending turn', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Hi', model_name: 'free' });
    const turnId = (res.events.at(-1) as { turnId: string }).turnId;
    const body = { userContent: 'Mara: Hi', newContent: 'Edited reply.', turnId } satisfies AcceptTurnDto;
    const accepted = await as(t, alice).post(`/api/llm/${id}/accept`, body);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual({ charCount: 'Start.\nMara: Hi\nEdited reply.'.length, appended: '\nMara: Hi\nEdited reply.' });
    const again = await as(t, alice).post(`/api/llm/${id}/accept`, body);
    expect(again.body.data.appended).toBe('');
    const story = await storyDoc(t, id);
    expect(story!.main_text).toBe('Start.\nMara: Hi\nEdited reply.');
    expect(story!.rounds).toBe(1);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.state).toBe('idle');
    const got = await as(t, alice).get(`/api/llm?id=${id}`);
    expect(got.body.data.main_text).toBe('Start.\nMara: Hi\nEdited reply.');
  });

  it('saves the whole text of a novel-length story, and refuses to grow it past the limit with a clear error', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    // 1.85 million characters of Chinese: about 5.5 MB of JSON, over the general 1 MB body limit.
    const novel = '雨'.repeat(STORY_TEXT_MAX_LENGTH - 150_000);
    const saved = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: novel });
    expect(saved.status).toBe(200);
    expect((await storyDoc(t, id))!.main_text.length).toBe(novel.length);
    const tooMuch = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: `${novel}${'雨'.repeat(150_001)}` });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    // Accepting a turn that would pass the limit: refused, the text untouched.
    const over = await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: '', newContent: '雨'.repeat(ACCEPT_PART_MAX_LENGTH) });
    expect(over.status).toBe(200);
    const last = await as(t, alice)
      .post(`/api/llm/${id}/accept`, { userContent: '', newContent: '雨'.repeat(ACCEPT_PART_MAX_LENGTH) })
      .set('Accept-Language', 'zh-CN');
    expect([last.status, last.body.code]).toEqual([413, ErrorCode.STORY_TEXT_TOO_LONG]);
    expect(last.body.message).toContain('2,000,000');
    expect((await storyDoc(t, id))!.main_text.length).toBe(novel.length + ACCEPT_PART_MAX_LENGTH + 1);
  });

  it('undo gives back the role and input and leaves the text alone; regenerate adds a take the pending turn shows', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    await sendTurn(base, alice.token, id, { role: 'Ilan', content: 'Stop!', model_name: 'free' });
    await unthrottle(t, id);
    const regen = await sendTurn(base, alice.token, id, { role: 'Ilan', content: 'Stop!', model_name: 'free', regenerate: true });
    expect(textOf(regen.events)).toMatch(/^Reply 2:/);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.aiText).toMatch(/^Reply 2:/);
    const undo = await as(t, alice).post(`/api/llm/${id}/discard`);
    expect(undo.body.data).toMatchObject({ role: 'Ilan', input: 'Stop!', aiText: expect.stringMatching(/^Reply 2:/) });
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.state).toBe('idle');
    expect((await storyDoc(t, id))!.main_text).toBe('Start.');
  });

  it('empty input continues; a new send accepts the unaccepted turn first', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await sendTurn(base, alice.token, id, { role: 'Mara', content: '', model_name: 'free' });
    expect(first.events[0]).toMatchObject({ type: 'user', text: '' });
    expect(stub.bodies[0].messages.at(-1)!.content).toBe('Continue the story.');
    await unthrottle(t, id);
    await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Next', model_name: 'free' });
    const story = await storyDoc(t, id);
    expect(story!.main_text).toBe('Start.\nReply 1: The lamp flickered and the story went on.');
    expect(story!.rounds).toBe(1);
    // The accepted text is in the next prompt.
    expect(JSON.stringify(stub.bodies[1].messages)).toContain('Reply 1: The lamp flickered');
  });

  it('a send carrying the edited pending turn accepts the edit (one request, no /accept) and says what it appended', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Go', model_name: 'free' });
    const turnId = first.events.find((e) => e.type === 'done')!.turnId as string;
    await unthrottle(t, id);
    const accept = { turnId, userContent: 'Mara: Go', newContent: 'The edited reply.' } satisfies SendTurnDto['accept'];
    const second = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Next', model_name: 'free', accept });
    expect(second.events[0]).toMatchObject({ type: 'user', text: 'Mara: Next', appended: '\nMara: Go\nThe edited reply.' });
    let story = await storyDoc(t, id);
    expect(story!.main_text).toBe('Start.\nMara: Go\nThe edited reply.');
    expect(story!.rounds).toBe(1);
    expect(JSON.stringify(stub.bodies[1].messages)).toContain('The edited reply.');
    // A regenerate adds a take to the pending turn (nothing is accepted), whatever `accept` says.
    await unthrottle(t, id);
    const again = await sendTurn(base, alice.token, id, { content: 'More', model_name: 'free', accept, regenerate: true });
    expect(again.events[0]).not.toHaveProperty('appended');
    expect((await storyDoc(t, id))!.main_text).toBe('Start.\nMara: Go\nThe edited reply.');
    // Sent again (a retry) naming a turn that is no longer pending: that turn is not appended twice; the
    // pending one (which this client did not edit) is accepted as stored, as after POST /accept then a send.
    await unthrottle(t, id);
    const stale = await sendTurn(base, alice.token, id, { content: 'Last', model_name: 'free', accept });
    expect(stale.events[0]).toMatchObject({ type: 'user', appended: '\nMore\nReply 3: The lamp flickered and the story went on.' });
    story = await storyDoc(t, id);
    expect(story!.main_text).toBe('Start.\nMara: Go\nThe edited reply.\nMore\nReply 3: The lamp flickered and the story went on.');
    expect(story!.rounds).toBe(2);
    // A malformed edit is a 400 before anything happens.
    await unthrottle(t, id);
    const bad = await as(t, alice).post(`/api/llm/${id}`).send({ content: 'x', accept: { turnId: 7, userContent: '', newContent: '' } });
    expect(bad.status).toBe(400);
  });

  it('a send with the edited pending turn that is refused (too little power) accepts nothing: the turn stays pending', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    const turnId = first.events.find((e) => e.type === 'done')!.turnId as string;
    await unthrottle(t, id);
    const refused = await as(t, alice)
      .post(`/api/llm/${id}`)
      .send({ content: 'Next', model_name: 'stub', accept: { turnId, userContent: 'Go', newContent: 'Edited.' } } satisfies SendTurnDto);
    expect(refused.status).toBe(402);
    expect((await storyDoc(t, id))!.main_text).toBe('Start.');
    const pending = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(pending.body.data).toMatchObject({ state: 'done', turnId });
  });

  it('allows one send per second and none while generating, and says so before calling the provider', async () => {
    const id = await createStory(t, alice);
    stub.set({ delayMs: 150 });
    const running = sendTurn(base, alice.token, id, { content: 'slow', model_name: 'free' });
    await new Promise((r) => setTimeout(r, 100));
    const busy = await sendTurn(base, alice.token, id, { content: 'again', model_name: 'free' });
    expect(busy.status).toBe(409);
    expect(busy.body!.code).toBe(ErrorCode.GENERATION_IN_PROGRESS);
    const undoWhileBusy = await as(t, alice).post(`/api/llm/${id}/discard`);
    expect(undoWhileBusy.status).toBe(409);
    await running;
    stub.set({});
    const fast = await sendTurn(base, alice.token, id, { content: 'too soon', model_name: 'free', regenerate: true });
    expect(fast.status === 429 || fast.status === 200).toBe(true);
    if (fast.status === 429) expect(fast.body!.code).toBe(ErrorCode.SEND_TOO_FAST);
    const story2 = await createStory(t, alice);
    const a = await sendTurn(base, alice.token, story2, { content: 'one', model_name: 'free' });
    const b = await sendTurn(base, alice.token, story2, { content: 'two', model_name: 'free', regenerate: true });
    expect(a.status).toBe(200);
    expect(b.status).toBe(429);
    expect(b.body).toEqual({ status: 'error', code: ErrorCode.SEND_TOO_FAST, message: 'You are sending too fast. Please wait a second.' });
    expect(stub.requests).toBe(fast.status === 200 ? 3 : 2);
  });

  it('answers NOT_ENOUGH_POWER before the provider is called, claiming nothing', async () => {
    const id = await createStory(t, alice);
    const res = await sendTurn(base, alice.token, id, { content: 'Go', language: 'zh-CN' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ status: 'error', code: ErrorCode.NOT_ENOUGH_POWER, message: '电量不足，请获取电量。' });
    expect(stub.requests).toBe(0);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'idle', retryAfterMs: 0 });
    // With power it goes through at once (the refusal did not count as a send).
    await grant(alice, 100);
    expect((await sendTurn(base, alice.token, id, { content: 'Go' })).status).toBe(200);
  });

  it('with a paid model named in the request, too little power is refused before the provider and leaves no hold', async () => {
    const id = await createStory(t, alice);
    await grant(alice, 50);
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'stub' });
    expect(res.status).toBe(402);
    expect(res.body!.code).toBe(ErrorCode.NOT_ENOUGH_POWER);
    expect(stub.requests).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    // The hold written alongside the balance read was voided: nothing moved.
    expect(await balanceOf(t, alice.userID)).toBe(50);
    expect(await entriesOf(t, alice.userID, { kind: 'hold', state: 'applied' })).toHaveLength(0);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'idle', retryAfterMs: 0 });
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
  });

  it('a hold that fails (power spent meanwhile) refuses the send before the provider is asked: nothing sent, charged or claimed', async () => {
    const id = await createStory(t, alice);
    await grant(alice, 1000);
    const power = t.app.get(PowerService);
    // The balance read said yes; the hold is refused, as when another send spent the power in between.
    const hold = vi.spyOn(power, 'hold').mockImplementationOnce(async () => {
      await new Promise((r) => setTimeout(r, 50));
      throw new AppException(ErrorCode.NOT_ENOUGH_POWER);
    });
    stub.set({ completionTokens: 200, firstDelayMs: 10 });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'stub' });
    hold.mockRestore();
    expect(res.status).toBe(402);
    expect(res.body!.code).toBe(ErrorCode.NOT_ENOUGH_POWER);
    // The hold is one of the send's checks: the provider was never asked.
    expect(stub.requests).toBe(0);
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(1000);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'idle', aiText: '', retryAfterMs: 0 });
    expect((await storyDoc(t, id))!.main_text).not.toMatch(/Reply/);
    // The next send goes through at once and is charged once.
    const ok = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'stub' });
    expect(ok.status).toBe(200);
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(900);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
  });

  it('a story without a turn document (made before they were created with the story) streams on its first send; nobody else can create one', async () => {
    const id = await createStory(t, alice);
    const storyId = (await storyDoc(t, id))!._id;
    await t.connection.db!.collection('play_turns').deleteOne({ _id: storyId });
    // Another user's send is refused and leaves nothing behind.
    const bob = await signUp(t, 'bob');
    expect((await sendTurn(base, bob.token, id, { content: 'Go', model_name: 'free' })).status).toBe(404);
    expect(await t.connection.db!.collection('play_turns').countDocuments({ _id: storyId })).toBe(0);
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    expect(res.status).toBe(200);
    expect(res.events.at(-1)!.type).toBe('done');
    expect(await t.connection.db!.collection('play_turns').countDocuments({ _id: storyId, userID: alice.userID })).toBe(1);
  });

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

  it('pays the source author a 10% royalty once per turn on a clone of a public story', async () => {
    const bob = await signUp(t, 'bob');
    const source = await createStory(t, alice, { name: 'Source tale' });
    await as(t, alice).post(`/api/user/public/${source}`);
    const clone = await as(t, bob).post('/api/user/clone-public-story', { userID: alice.userID, storyID: source });
    const cloneId = clone.body.data.id as string;
    await grant(bob, 1000);
    await sendTurn(base, bob.token, cloneId, { content: 'Go' });
    await drain();
    expect(await balanceOf(t, bob.userID)).toBe(900);
    expect(await balanceOf(t, alice.userID)).toBe(10);
    const royalties = await entriesOf(t, alice.userID, { kind: 'royalty' });
    expect(royalties).toHaveLength(1);
    // Alice playing her own story pays nobody.
    await grant(alice, 1000);
    await sendTurn(base, alice.token, source, { content: 'Go' });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(910);
  });

  it('relays reasoning for reasoning models, refuses unknown models and other users', async () => {
    const id = await createStory(t, alice);
    stub.set({ reasoning: ['Let me ', 'think.'] });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'thinker' });
    expect(res.events.filter((e) => e.type === 'reasoning').map((e) => (e as { text: string }).text)).toEqual(['Let me ', 'think.']);
    await drain();
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.reasoning).toBe('Let me think.');
    await unthrottle(t, id);
    const unknown = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body!.code).toBe(ErrorCode.MODEL_NOT_FOUND);
    const bob = await signUp(t, 'bob');
    const other = await sendTurn(base, bob.token, id, { content: 'Go', model_name: 'free' });
    expect(other.status).toBe(404);
    expect(other.body!.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect((await as(t, bob).get(`/api/llm/${id}/pending`)).status).toBe(404);
    const bad = await sendTurn(base, alice.token, id, { content: 'x'.repeat(10_001) });
    expect(bad.status).toBe(400);
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

  it('sends made at the same moment (their story reads go out as one) each get their own story, and never another user\'s', async () => {
    const bob = await signUp(t, 'bob');
    const mine = await Promise.all(['A', 'B', 'C'].map((p) => createStory(t, alice, { prologue_and_characters: `Prologue ${p}.` })));
    const bobs = await createStory(t, bob, { prologue_and_characters: 'Prologue of Bob.' });
    const sends = await Promise.all([
      ...mine.map((id) => sendTurn(base, alice.token, id, { content: `Line for ${id}`, model_name: 'free' })),
      sendTurn(base, bob.token, mine[0], { content: 'Not mine', model_name: 'free' }),
      sendTurn(base, alice.token, bobs, { content: 'Not mine either', model_name: 'free' }),
      sendTurn(base, bob.token, bobs, { content: `Line for ${bobs}`, model_name: 'free' }),
    ]);
    expect(sends.map((r) => r.status)).toEqual([200, 200, 200, 404, 404, 200]);
    expect(sends[3].body!.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect(sends[4].body!.code).toBe(ErrorCode.STORY_NOT_FOUND);
    await drain();
    // Each prompt was made of its own story and line.
    expect(stub.bodies).toHaveLength(4);
    for (const [id, prologue] of [...mine.map((id, i) => [id, `Prologue ${'ABC'[i]}.`]), [bobs, 'Prologue of Bob.']]) {
      const body = stub.bodies.find((b) => JSON.stringify(b.messages).includes(`Line for ${id}`));
      expect(JSON.stringify(body!.messages)).toContain(prologue);
    }
    expect((await as(t, bob).get(`/api/llm/${mine[0]}/pending`)).status).toBe(404);
    expect((await as(t, alice).get(`/api/llm/${mine[0]}/pending`)).body.data.state).toBe('done');
  });

  it('folds old text into the previous summary, visibly, and keeps the prompt within the window', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara and Ilan.' });
    await as(t, alice).patch(`/api/llm?id=${id}`, { author_remark: 'NOTE: keep it short.', previous_summary: 'OLD SUMMARY.' });
    const long = Array.from({ length: 3000 }, (_, i) => `Line ${i}: the tide came in over the black stones.`).join('\n');
    await t.connection.db!.collection('stories').updateOne({ _id: (await storyDoc(t, id))!._id }, { $set: { main_text: `${long}\nNEWEST LINE.` } });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    const summary = res.events.find((e) => e.type === 'summary');
    expect(summary).toMatchObject({ type: 'summary', text: expect.stringMatching(/^Summary 1:/) });
    expect(stub.bodies[0].messages[1].content).toContain('<previous-summary>\nOLD SUMMARY.\n</previous-summary>');
    const prompt = stub.bodies[1].messages.map((m) => m.content).join('\n');
    expect(prompt).toContain((summary as { text: string }).text);
    expect(prompt).toContain('NOTE: keep it short.');
    expect(prompt).toContain('NEWEST LINE.');
    expect(prompt).not.toContain('Line 0:');
    expect(countTokens(prompt) + 200).toBeLessThanOrEqual(4096);
    expect(countTokens(prompt)).toBeGreaterThan(3000);
    expect((await storyDoc(t, id))!.previous_summary).toBe((summary as { text: string }).text);
    // The next turn does not fold again.
    await unthrottle(t, id);
    const next = await sendTurn(base, alice.token, id, { content: 'More', model_name: 'free', regenerate: true });
    expect(next.events.some((e) => e.type === 'summary')).toBe(false);
  });
});
