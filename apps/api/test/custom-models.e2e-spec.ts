import {
  CUSTOM_MODEL_LIMIT,
  ModelStatus,
  ErrorCode,
  type CreateCustomModelDto,
  type SendTurnDto,
  type TestCustomModelDto,
  type UpdateCustomModelDto,
} from '@taleloom/contracts';
import { createServer, type AddressInfo } from 'node:net';
import { Types } from 'mongoose';
import type { Response } from 'supertest';
import { AddressGuard, systemResolver } from '../src/custom-models/address-guard';
import { statusKey } from '../src/custom-models/custom-models.service';
import { ModelsService } from '../src/models/models.service';
import { TurnRunner } from '../src/play/turn.runner';
import { PowerService } from '../src/power/power.service';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { sendTurn, storyDoc, textOf, unthrottle } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

const KEY = 'sk-alice-0123456789-secret';

// A port nothing listens on (taken from the system, then let go).
function closedPort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

describe('custom models (GET/POST /api/custom-models, PUT/DELETE /api/custom-models/{name}, test, play)', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  // Every answer of the suite, to prove the key is in none of them.
  const seen: string[] = [];
  const keep = <R extends Response>(res: R): R => {
    seen.push(JSON.stringify(res.body ?? res.text));
    return res;
  };
  const model = (over: Partial<CreateCustomModelDto> = {}) =>
    ({ model_name: 'stub-chat', base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai', ...over }) satisfies CreateCustomModelDto;
  const add = async (user: TestUser, over: Partial<CreateCustomModelDto> = {}) => keep(await as(t, user).post('/api/custom-models', model(over)));
  const list = async (user: TestUser) => keep(await as(t, user).get('/api/custom-models'));
  const drain = () => t.app.get(TurnRunner).drain();
  const url = (name: string) => `/api/custom-models/${encodeURIComponent(name)}`;

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([{ value: 'paid', points: 50, contextWindow: 4096, maxOutput: 200, baseURL: stub.baseURL }]),
      DEMO_MODEL: 'off',
      // The operator allows the loopback address the stub listens on (as for a local Ollama).
      CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
      CUSTOM_MODEL_TEST_TIMEOUT_SECONDS: '1',
      PROVIDER_TIMEOUT_SECONDS: '5',
    });
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  beforeEach(async () => {
    await t.clean();
    stub.reset();
    stub.set({});
    t.app.get(AddressGuard).resolver = systemResolver;
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await stub.close();
    // The key reached no answer of the whole suite (checked after closing, so a failure leaves nothing open).
    expect(seen.length).toBeGreaterThan(20);
    expect(seen.filter((s) => s.includes(KEY) || s.includes('0123456789-secret'))).toEqual([]);
  });

  it('adds, lists, changes and deletes; answers a masked key only; stores it encrypted', async () => {
    const created = await add(alice, { enable_reasoning: true });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      model_name: 'stub-chat', base_url: stub.baseURL, model_type: 'compatible_openai', enable_reasoning: true, api_key_masked: '••••cret',
    });
    expect(created.body.data).not.toHaveProperty('api_key');
    expect((await list(alice)).body.data.map((m: { model_name: string }) => m.model_name)).toEqual(['stub-chat']);

    const raw = await t.connection.db!.collection('custom_models').findOne({});
    expect(String(raw!._id)).toBe(alice.userID);
    expect(JSON.stringify(raw)).not.toContain('0123456789');
    expect(raw!.models[0].api_key_cipher).toMatch(/^v1\./);

    const changed = keep(await as(t, alice).put(url('STUB-chat'), { base_url: `${stub.baseURL}/`, enable_reasoning: false } satisfies UpdateCustomModelDto));
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ model_name: 'stub-chat', base_url: stub.baseURL, enable_reasoning: false, api_key_masked: '••••cret' });
    const rekeyed = keep(await as(t, alice).put(url('stub-chat'), { api_key: 'sk-new-key-abcdefgh' }));
    expect(rekeyed.body.data.api_key_masked).toBe('••••efgh');

    const deleted = keep(await as(t, alice).delete(url('stub-chat')));
    expect(deleted.status).toBe(200);
    expect((await list(alice)).body.data).toEqual([]);
    const again = keep(await as(t, alice).delete(url('stub-chat')));
    expect([again.status, again.body.code]).toEqual([404, ErrorCode.CUSTOM_MODEL_NOT_FOUND]);
  });

  it(`allows at most ${CUSTOM_MODEL_LIMIT} per user, also when added at the same time`, async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => add(alice, { model_name: `m${n}` })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(CUSTOM_MODEL_LIMIT);
    const refused = answers.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([
      [409, ErrorCode.CUSTOM_MODEL_LIMIT_REACHED],
      [409, ErrorCode.CUSTOM_MODEL_LIMIT_REACHED],
    ]);
    expect((await list(alice)).body.data).toHaveLength(CUSTOM_MODEL_LIMIT);
    const zh = keep(await as(t, alice).post('/api/custom-models', { ...model({ model_name: 'm9' }), language: 'zh-CN' }));
    expect(zh.body.message).toBe('最多只能添加 3 个自定义模型。');
    // Another user's limit is their own.
    expect((await add(bob, { model_name: 'm1' })).status).toBe(201);
  });

  it('keeps names unique per user without regard to case, on add and on rename', async () => {
    expect((await add(alice, { model_name: 'GPT-4o' })).status).toBe(201);
    const dup = await add(alice, { model_name: 'gpt-4O' });
    expect([dup.status, dup.body.code, dup.body.message]).toEqual([409, ErrorCode.CUSTOM_MODEL_NAME_TAKEN, 'Model name already exists, please use another name.']);
    expect((await add(alice, { model_name: 'other' })).status).toBe(201);
    const clash = keep(await as(t, alice).put(url('other'), { model_name: 'gpt-4o' }));
    expect([clash.status, clash.body.code]).toEqual([409, ErrorCode.CUSTOM_MODEL_NAME_TAKEN]);
    // A model may change the case of its own name.
    const recased = keep(await as(t, alice).put(url('gpt-4o'), { model_name: 'gpt-4o' }));
    expect(recased.body.data.model_name).toBe('gpt-4o');
    // Bob may use the same name.
    expect((await add(bob, { model_name: 'GPT-4O' })).status).toBe(201);
  });

  it('requires name, address, key and type, and refuses an address with /chat/completions', async () => {
    const empty = keep(await as(t, alice).post('/api/custom-models', {}));
    expect(empty.status).toBe(400);
    expect(empty.body.details.map((d: { field: string }) => d.field)).toEqual(['model_name', 'base_url', 'api_key', 'model_type']);
    const blank = await add(alice, { api_key: '   ' });
    expect(blank.body.details.map((d: { field: string }) => d.field)).toEqual(['api_key']);
    const type = keep(await as(t, alice).post('/api/custom-models', { ...model(), model_type: 'anthropic' }));
    expect(type.status).toBe(400);
    const endpoint = await add(alice, { base_url: `${stub.baseURL}/chat/completions` });
    expect([endpoint.status, endpoint.body.code]).toEqual([400, ErrorCode.CUSTOM_MODEL_URL_INVALID]);
    const notUrl = await add(alice, { base_url: 'api.openai.com/v1' });
    expect(notUrl.body.code).toBe(ErrorCode.CUSTOM_MODEL_URL_INVALID);
    expect((await list(alice)).body.data).toEqual([]);
    expect((await as(t, alice).get('/api/custom-models').set('Authorization', 'Bearer nope')).status).toBe(401);
  });

  it("never lets another user read, use, test, change or delete someone's model", async () => {
    await add(alice);
    expect((await list(bob)).body.data).toEqual([]);
    const put = keep(await as(t, bob).put(url('stub-chat'), { base_url: 'https://example.com/v1' }));
    expect([put.status, put.body.code]).toEqual([404, ErrorCode.CUSTOM_MODEL_NOT_FOUND]);
    const del = keep(await as(t, bob).delete(url('stub-chat')));
    expect([del.status, del.body.code]).toEqual([404, ErrorCode.CUSTOM_MODEL_NOT_FOUND]);
    const tested = keep(await as(t, bob).post('/api/custom-models/test', {
      model_name: 'stub-chat', base_url: stub.baseURL, model_type: 'compatible_openai', saved_name: 'stub-chat',
    } satisfies TestCustomModelDto));
    expect([tested.status, tested.body.code]).toEqual([404, ErrorCode.CUSTOM_MODEL_NOT_FOUND]);
    const story = await createStory(t, bob);
    const choose = keep(await as(t, bob).patch(`/api/llm?id=${story}`, { model_type: 'compatible_openai', model_name: 'stub-chat' }));
    expect([choose.status, choose.body.code]).toEqual([404, ErrorCode.CUSTOM_MODEL_NOT_FOUND]);
    const sent = await sendTurn(base, bob.token, story, { content: 'Hi', model_type: 'compatible_openai', model_name: 'stub-chat' });
    expect([sent.status, sent.body?.code]).toEqual([404, ErrorCode.CUSTOM_MODEL_NOT_FOUND]);
    expect(stub.requests).toBe(0);
    // Alice's model is untouched.
    expect((await list(alice)).body.data[0]).toMatchObject({ model_name: 'stub-chat', base_url: stub.baseURL });
  });

  it('plays a turn with the story’s custom model: the decrypted key reaches the provider, no power is charged, the throttle holds', async () => {
    await add(alice);
    await t.app.get(PowerService).grant(alice.userID, 1000, 'test', 'grant-1');
    const story = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const chosen = keep(await as(t, alice).patch(`/api/llm?id=${story}`, { model_type: 'compatible_openai', model_name: 'STUB-CHAT' }));
    expect(chosen.body.data).toMatchObject({ model_type: 'compatible_openai', model_name: 'stub-chat' });

    const res = await sendTurn(base, alice.token, story, { role: 'Mara', content: 'I wave.' } satisfies SendTurnDto);
    expect(res.events.map((e) => e.type).slice(-2)).toEqual(['usage', 'done']);
    expect(textOf(res.events)).toBe('Reply 1: The lamp flickered and the story went on.');
    expect(res.events.at(-2)).toMatchObject({ type: 'usage', cost: 0 });
    expect(stub.bodies[0].model).toBe('stub-chat');
    expect(stub.keys).toEqual([KEY]);
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(1000);
    expect(await entriesOf(t, alice.userID, { reason: 'story' })).toEqual([]);
    const pending = await as(t, alice).get(`/api/llm/${story}/pending`);
    expect(pending.body.data).toMatchObject({ state: 'done', model: 'stub-chat', cost: 0 });

    // Still one send per second (as if the last send were just now, however slow this machine is).
    await t.connection.db!.collection('play_turns').updateOne({ _id: new Types.ObjectId(story) }, { $set: { lastSendAt: Date.now() } });
    const fast = await sendTurn(base, alice.token, story, { content: 'Again', model_type: 'compatible_openai', model_name: 'stub-chat' });
    expect([fast.status, fast.body?.code]).toEqual([429, ErrorCode.SEND_TOO_FAST]);
    // Its measured status shows in the list: the one its first token's time gives (FAST within 1.5 s; the
    // thresholds themselves: model-status.spec.ts).
    const listed = (await list(alice)).body.data[0].status;
    expect(listed).not.toBe(ModelStatus.UNKNOWN);
    expect(listed).toBe(t.app.get(ModelsService).tracker.status(statusKey(alice.userID, 'stub-chat')));
  });

  it('splits a reasoning stream: reasoning events apart, never in the story text', async () => {
    await add(alice, { enable_reasoning: true });
    const story = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const custom = { model_type: 'compatible_openai', model_name: 'stub-chat' } as const;

    stub.set({ reasoning: ['Think', 'ing…'], chunks: ['The ', 'door opened.'] });
    const res = await sendTurn(base, alice.token, story, { content: 'Go', ...custom });
    const types = res.events.map((e) => e.type);
    expect(types).toEqual(['user', 'reasoning', 'reasoning', 'delta', 'delta', 'usage', 'done']);
    expect(res.events.filter((e) => e.type === 'reasoning').map((e) => (e as { text: string }).text).join('')).toBe('Thinking…');
    expect(textOf(res.events)).toBe('The door opened.');
    await drain();
    const pending = (await as(t, alice).get(`/api/llm/${story}/pending`)).body.data;
    expect([pending.aiText, pending.reasoning]).toEqual(['The door opened.', 'Thinking…']);

    // A reasoning model served with a <think> block in the content is split the same way.
    await unthrottle(t, story);
    stub.set({ chunks: ['<thi', 'nk>Plan it.</th', 'ink>\n\nThe ', 'ship left.'] });
    const think = await sendTurn(base, alice.token, story, { content: 'Go', ...custom, regenerate: true });
    expect(think.events.filter((e) => e.type === 'reasoning').map((e) => (e as { text: string }).text).join('')).toBe('Plan it.');
    expect(textOf(think.events)).toBe('The ship left.');
    await drain();
    const accepted = await as(t, alice).post(`/api/llm/${story}/accept`, { userContent: '', newContent: 'The ship left.' });
    expect(accepted.status).toBe(200);
    expect((await storyDoc(t, story))!.main_text).toBe('Start.\nThe ship left.');

    // With reasoning off, reasoning is not relayed at all.
    keep(await as(t, alice).put(url('stub-chat'), { enable_reasoning: false }));
    await unthrottle(t, story);
    stub.set({ reasoning: ['hidden'], chunks: ['Plain.'] });
    const off = await sendTurn(base, alice.token, story, { content: 'Go', ...custom });
    expect(off.events.some((e) => e.type === 'reasoning')).toBe(false);
    expect(textOf(off.events)).toBe('Plain.');
  });

  it('renames move the stories that chose the model; deleting sends them back to the platform default', async () => {
    await add(alice);
    const story = await createStory(t, alice);
    await as(t, alice).patch(`/api/llm?id=${story}`, { model_type: 'compatible_openai', model_name: 'stub-chat' });
    keep(await as(t, alice).put(url('stub-chat'), { model_name: 'renamed' }));
    expect((await storyDoc(t, story))!.model_name).toBe('renamed');
    keep(await as(t, alice).delete(url('renamed')));
    expect((await storyDoc(t, story))).toMatchObject({ model_name: '', model_type: '' });
    // Naming the deleted model in a send is refused; the story's own choice falls back to the default.
    const named = await sendTurn(base, alice.token, story, { content: 'Hi', model_type: 'compatible_openai', model_name: 'renamed' });
    expect([named.status, named.body?.code]).toEqual([404, ErrorCode.CUSTOM_MODEL_NOT_FOUND]);
    await t.app.get(PowerService).grant(alice.userID, 100, 'test', 'grant-2');
    const fallback = await sendTurn(base, alice.token, story, { content: 'Hi' });
    expect(fallback.events.at(-1)!.type).toBe('done');
    expect(stub.bodies.at(-1)!.model).toBe('paid');
  });

  it('tests a connection and says what went wrong: bad key, wrong address, missing model, timeout, other errors', async () => {
    const body = { model_name: 'stub-chat', base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai' } satisfies TestCustomModelDto;
    const test = async (over: Partial<TestCustomModelDto> = {}, user = alice) => keep(await as(t, user).post('/api/custom-models/test', { ...body, ...over }));

    stub.set({ models: ['stub-chat', 'other-model'], requireKey: KEY });
    const fine = await test();
    expect(fine.status).toBe(200);
    expect(fine.body.data).toMatchObject({ modelListed: true, models: ['stub-chat', 'other-model'] });
    expect(stub.bodies.at(-1)).toMatchObject({ model: 'stub-chat', max_tokens: 1 });

    const badKey = await test({ api_key: 'sk-wrong' });
    expect([badKey.status, badKey.body.code]).toEqual([422, ErrorCode.CUSTOM_MODEL_KEY_REJECTED]);
    const zh = await test({ api_key: 'sk-wrong', language: 'zh-CN' });
    expect(zh.body.message).toBe('服务商拒绝了该 API 密钥，请检查密钥。');

    const missing = await test({ model_name: 'gpt-nope' });
    expect([missing.status, missing.body.code]).toEqual([422, ErrorCode.CUSTOM_MODEL_MODEL_MISSING]);
    expect(missing.body.params.models).toBe('stub-chat, other-model');

    // The saved model lends its stored key when none is typed.
    await add(alice);
    const saved = await test({ api_key: '', saved_name: 'Stub-Chat' });
    expect(saved.status).toBe(200);
    expect(stub.keys.at(-1)).toBe(KEY);

    // This API itself is no OpenAI-compatible API: a wrong address.
    const wrong = await test({ base_url: `${base}/api` });
    expect([wrong.status, wrong.body.code]).toEqual([502, ErrorCode.CUSTOM_MODEL_ADDRESS_WRONG]);
    const closed = await test({ base_url: `http://127.0.0.1:${await closedPort()}/v1` });
    expect([closed.status, closed.body.code]).toEqual([502, ErrorCode.CUSTOM_MODEL_ADDRESS_UNREACHABLE]);

    stub.set({ firstDelayMs: 1500 });
    const slow = await test();
    expect([slow.status, slow.body.code]).toEqual([504, ErrorCode.CUSTOM_MODEL_TIMEOUT]);

    stub.set({ httpStatus: 429 });
    const busy = await test();
    expect([busy.status, busy.body.code, busy.body.params.status]).toEqual([502, ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR, 'HTTP 429']);
    expect(busy.body.message).toContain('HTTP 429');
  });

  it("works with a model that refuses max_tokens (OpenAI's o1, o3, gpt-5): turns and connection tests ask once more with max_completion_tokens, and remember it", async () => {
    const refusing = { refuseMaxTokens: true, models: ['o4-mini', 'o3'] };
    stub.set(refusing);
    await add(alice, { model_name: 'o4-mini' });
    const story = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const custom = { model_type: 'compatible_openai', model_name: 'o4-mini' } as const;
    const fields = () => stub.bodies.map((b) => [b.max_tokens === undefined ? '-' : 'max_tokens', b.max_completion_tokens === undefined ? '-' : 'max_completion_tokens']);

    const first = await sendTurn(base, alice.token, story, { content: 'I wave.', ...custom });
    // The refusal (request 1) comes before any text: the reply of request 2 streams once, whole.
    expect(first.events.map((e) => e.type)).toEqual(['user', ...Array(9).fill('delta'), 'usage', 'done']);
    expect(textOf(first.events)).toBe('Reply 2: The lamp flickered and the story went on.');
    expect(fields()).toEqual([['max_tokens', '-'], ['-', 'max_completion_tokens']]);
    expect(stub.bodies[1].max_completion_tokens).toBe(stub.bodies[0].max_tokens);
    await drain();
    const pending = (await as(t, alice).get(`/api/llm/${story}/pending`)).body.data;
    expect([pending.state, pending.aiText]).toEqual(['done', 'Reply 2: The lamp flickered and the story went on.']);

    // Learnt: the next turn sends the right field first.
    await unthrottle(t, story);
    const second = await sendTurn(base, alice.token, story, { content: 'Again.', ...custom, regenerate: true });
    expect(textOf(second.events)).toBe('Reply 3: The lamp flickered and the story went on.');
    expect(fields().slice(2)).toEqual([['-', 'max_completion_tokens']]);

    // Test connection: a model not seen yet is asked twice, then once; it shares what turns learnt.
    stub.reset();
    stub.set(refusing);
    const test = async (model_name: string) =>
      keep(await as(t, alice).post('/api/custom-models/test', { model_name, base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai' } satisfies TestCustomModelDto));
    const tested = await test('o3');
    expect([tested.status, tested.body.data?.modelListed]).toEqual([200, true]);
    expect(stub.bodies.map((b) => [b.max_tokens, b.max_completion_tokens])).toEqual([[1, undefined], [undefined, 1]]);
    expect((await test('o3')).status).toBe(200);
    expect((await test('o4-mini')).status).toBe(200);
    expect(stub.bodies.slice(2).map((b) => [b.model, b.max_tokens, b.max_completion_tokens])).toEqual([
      ['o3', undefined, 1],
      ['o4-mini', undefined, 1],
    ]);
    // Other models at the same address still get max_tokens (most compatible servers know only that).
    stub.set({});
    expect((await test('stub-chat')).status).toBe(200);
    expect(stub.bodies.at(-1)).toMatchObject({ model: 'stub-chat', max_tokens: 1 });
  });

  it('changes, plays and deletes a model whose name has a slash (deepseek-ai/DeepSeek-V3), the name URL-encoded in the path', async () => {
    const name = 'deepseek-ai/DeepSeek-V3';
    expect((await add(alice, { model_name: name })).status).toBe(201);
    expect(url(name)).toBe('/api/custom-models/deepseek-ai%2FDeepSeek-V3');
    const changed = keep(await as(t, alice).put(url('DEEPSEEK-AI/deepseek-v3'), { enable_reasoning: true }));
    expect([changed.status, changed.body.data?.model_name, changed.body.data?.enable_reasoning]).toEqual([200, name, true]);
    // Unencoded, the slash splits the path: no such route, and nothing changed.
    const raw = keep(await as(t, alice).put(`/api/custom-models/${name}`, { enable_reasoning: false }));
    expect(raw.status).toBe(404);
    expect((await list(alice)).body.data[0]).toMatchObject({ model_name: name, enable_reasoning: true });

    const story = await createStory(t, alice);
    keep(await as(t, alice).patch(`/api/llm?id=${story}`, { model_type: 'compatible_openai', model_name: name }));
    const played = await sendTurn(base, alice.token, story, { content: 'Hi' });
    expect(played.events.at(-1)!.type).toBe('done');
    expect(stub.bodies.at(-1)!.model).toBe(name);

    const renamed = keep(await as(t, alice).put(url(name), { model_name: 'Qwen/Qwen2.5-72B-Instruct' }));
    expect(renamed.body.data?.model_name).toBe('Qwen/Qwen2.5-72B-Instruct');
    expect((await storyDoc(t, story))!.model_name).toBe('Qwen/Qwen2.5-72B-Instruct');
    const deleted = keep(await as(t, alice).delete(url('Qwen/Qwen2.5-72B-Instruct')));
    expect([deleted.status, deleted.body.data]).toEqual([200, { model_name: 'Qwen/Qwen2.5-72B-Instruct' }]);
    expect((await list(alice)).body.data).toEqual([]);
    expect(await storyDoc(t, story)).toMatchObject({ model_name: '', model_type: '' });
  });

  it('checks the address at connect time too (DNS rebinding): the address connected to is the one checked', async () => {
    const guard = t.app.get(AddressGuard);
    const port = new URL(stub.baseURL).port;
    // "rebind.test" does not exist: only the guard's resolver makes it resolve at all.
    guard.resolver = async () => [{ address: '93.184.216.34', family: 4 }];
    expect((await add(alice, { base_url: `http://rebind.test:${port}/v1` })).status).toBe(201);
    const story = await createStory(t, alice);
    const custom = { model_type: 'compatible_openai', model_name: 'stub-chat' } as const;

    // At send time the name resolves to the metadata address as well: refused before any connection.
    guard.resolver = async () => [{ address: '127.0.0.1', family: 4 }, { address: '169.254.169.254', family: 4 }];
    const refused = await sendTurn(base, alice.token, story, { content: 'Hi', ...custom });
    expect(refused.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED });
    expect(stub.requests).toBe(0);
    const pending = (await as(t, alice).get(`/api/llm/${story}/pending`)).body.data;
    expect([pending.state, pending.errorCode]).toEqual(['failed', ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED]);

    // Resolving to the allowed stub address only, the same name connects — to the address the guard gave.
    guard.resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    await unthrottle(t, story);
    const allowed = await sendTurn(base, alice.token, story, { content: 'Hi', ...custom, regenerate: true });
    expect(allowed.events.at(-1)!.type).toBe('done');
    expect(stub.requests).toBe(1);
  });
});
