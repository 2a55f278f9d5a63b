import { ErrorCode, PowerReason, type CreateCustomModelDto, type SendTurnDto, type StreamEvent } from '@taleloom/contracts';
import { randomBytes } from 'node:crypto';
import { mongo } from 'mongoose';
import type { Response } from 'supertest';
import { AddressGuard } from '../src/custom-models/address-guard';
import { TurnRunner } from '../src/play/turn.runner';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { listenOnLoopback, sendTurn, stubModel, textOf, unthrottle, type StreamResult } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

// Distinctive, so that any piece of it anywhere is found.
const KEY = `sk-SENDKEY-${randomBytes(12).toString('hex')}`;
const KEY_BODY = KEY.split('-').at(-1)!;

/**
 * `POST /api/llm/{id}` with the spec's model fields (model_type, api_key, base_url, model_name,
 * enable_reasoning): that send runs on that OpenAI-compatible model, through the same address guard,
 * transport, timeouts and failure codes as a saved custom model, free of power as a saved one is; the
 * key serves that request only and is in no collection, answer, stream event or log line.
 */
describe('a send with its own model (the spec\'s model fields)', () => {
  let t: TestApp;
  let base: string;
  // The platform's (paid) model and the user's own provider: which one a send reached is told apart.
  let platform: OpenAIStub;
  let own: OpenAIStub;
  let alice: TestUser;
  const logs: string[] = [];
  const answers: string[] = [];
  const drain = () => t.app.get(TurnRunner).drain();
  const keep = <R extends Response>(res: R): R => {
    answers.push(JSON.stringify(res.body ?? res.text));
    return res;
  };
  const send = async (story: string, body: SendTurnDto): Promise<StreamResult> => {
    await drain();
    await unthrottle(t, story);
    const res = await sendTurn(base, alice.token, story, body);
    answers.push(JSON.stringify(res.events), JSON.stringify(res.body));
    return res;
  };
  const ownModel = (over: Partial<SendTurnDto> = {}): SendTurnDto => ({
    model_type: 'compatible_openai',
    base_url: own.baseURL,
    api_key: KEY,
    model_name: 'own-chat',
    ...over,
  });
  const saved = (over: Partial<CreateCustomModelDto> = {}) =>
    ({ model_name: 'saved-chat', base_url: own.baseURL, api_key: KEY, model_type: 'compatible_openai', ...over }) satisfies CreateCustomModelDto;
  const last = (res: StreamResult) => res.events.at(-1) as StreamEvent & { code?: string; message?: string };

  beforeAll(async () => {
    platform = await startOpenAIStub();
    own = await startOpenAIStub({ requireKey: KEY });
    t = await createTestApp(
      {
        LOG_LEVEL: 'trace',
        DEMO_MODEL: 'off',
        MODELS_JSON: JSON.stringify([stubModel(platform.baseURL, 'paid', { points: 50 })]),
        CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
        PROVIDER_TIMEOUT_SECONDS: '2',
      },
      { logStream: { write: (line: string) => void logs.push(line) } },
    );
    base = await listenOnLoopback(t);
    alice = await signUp(t, 'alice');
    expect((await as(t, alice).post('/api/user/check-in', {})).status).toBe(200);
  });
  beforeEach(() => {
    platform.reset();
    own.reset();
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await platform.close();
    await own.close();
  });

  it('streams from that model with its name and key, costs no power, and leaves the key nowhere', async () => {
    const story = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.', model_name: 'paid' });
    const before = await balanceOf(t, alice.userID);
    const played = await send(story, { content: 'I wave.', ...ownModel() });
    expect(last(played).type).toBe('done');
    expect(textOf(played.events)).toContain('The lamp flickered');
    expect(played.events.find((e) => e.type === 'usage')).toMatchObject({ cost: 0 });
    // The provider at that base_url got that model name and that key; the platform's model was not asked.
    expect(own.requests).toBe(1);
    expect(own.bodies[0].model).toBe('own-chat');
    expect(own.headers[0].authorization).toBe(`Bearer ${KEY}`);
    expect(platform.requests).toBe(0);
    await drain();
    // Free, as a saved custom model is: no hold, no charge, no ledger entry.
    expect(await balanceOf(t, alice.userID)).toBe(before);
    expect((await entriesOf(t, alice.userID)).map((e) => e.reason)).toEqual([PowerReason.DAILY_CHECK_IN]);
    const pending = keep(await as(t, alice).get(`/api/llm/${story}/pending`));
    expect([pending.body.data.state, pending.body.data.cost]).toEqual(['done', 0]);

    // That send only: the story keeps its model, and the next send without the fields is the platform's (paid).
    const story$ = keep(await as(t, alice).get(`/api/llm?id=${story}`));
    expect(story$.body.data.model_name).toBe('paid');
    const next = await send(story, { content: 'Again.' });
    expect(last(next).type).toBe('done');
    expect([platform.requests, own.requests]).toEqual([1, 1]);
    await drain();
    expect(await balanceOf(t, alice.userID)).toBeLessThan(before);

    // A client that sends every field always (blank key and address for a platform model) plays the platform's.
    const blank = await send(story, { content: 'Once more.', model_type: 'platform', api_key: '', base_url: '', model_name: 'paid', enable_reasoning: false });
    expect(last(blank).type).toBe('done');
    expect([platform.requests, own.requests]).toEqual([2, 1]);

    // Read back every way the web app reads a story and its turn.
    await drain();
    keep(await as(t, alice).get(`/api/llm/${story}/pending`));
    keep(await as(t, alice).get(`/api/llm/${story}/context`));
    keep(await as(t, alice).get('/api/user/story-list'));
    keep(await as(t, alice).get('/api/model_list'));
    keep(await as(t, alice).get('/api/custom-models'));

    const names = (await t.connection.db!.listCollections().toArray()).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['stories', 'play_turns', 'users', 'ledger_entries', 'turn_contexts']));
    for (const name of names) {
      for (const doc of await t.connection.db!.collection(name).find({}).toArray()) {
        // BSON keeps strings as UTF-8 and binary as its bytes: a key stored any way shows here.
        const bson = Buffer.from(mongo.BSON.serialize(doc));
        expect([name, bson.includes(KEY_BODY), mongo.BSON.EJSON.stringify(doc).includes(KEY_BODY)]).toEqual([name, false, false]);
      }
    }
    expect(answers.filter((a) => a.includes(KEY_BODY))).toEqual([]);
    // The log is really there (the send's request line at trace level), and the key is in none of its lines.
    expect(logs.some((l) => l.includes(`/api/llm/${story}`))).toBe(true);
    expect(logs.filter((l) => l.includes(KEY_BODY))).toEqual([]);
  });

  it('refuses a blocked or malformed address as a saved custom model\'s is, before any request', async () => {
    const story = await createStory(t, alice);
    for (const base_url of ['http://10.1.2.3/v1', 'http://169.254.169.254/latest', 'http://[::1]:11434/v1', `${own.baseURL}/chat/completions`, 'ftp://example.com/v1']) {
      for (const language of ['en', 'zh-CN'] as const) {
        const refused = await send(story, { content: 'Hi', ...ownModel({ base_url }), language });
        const asSaved = keep(await as(t, alice).post('/api/custom-models', { ...saved({ base_url }), language }));
        expect([base_url, refused.status, refused.body?.code, refused.body?.message]).toEqual([base_url, asSaved.status, asSaved.body.code, asSaved.body.message]);
        expect(refused.status).toBe(400);
        expect([ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED, ErrorCode.CUSTOM_MODEL_URL_INVALID]).toContain(refused.body?.code);
      }
    }
    expect(own.requests + platform.requests).toBe(0);
    // Nothing was claimed: the story has no turn.
    expect((await as(t, alice).get(`/api/llm/${story}/pending`)).body.data.state).toBe('idle');

    // A name that passes the check and then resolves to a private address (DNS rebinding) is refused at connect time.
    const guard = t.app.get(AddressGuard);
    const resolver = guard.resolver;
    let lookups = 0;
    guard.resolver = async () => (lookups++ === 0 ? [{ address: '8.8.8.8', family: 4 }] : [{ address: '10.0.0.7', family: 4 }]);
    try {
      const rebound = await send(story, { content: 'Hi', ...ownModel({ base_url: 'http://provider.test/v1' }) });
      expect(last(rebound)).toMatchObject({ type: 'error', code: ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED });
    } finally {
      guard.resolver = resolver;
    }
    expect(lookups).toBeGreaterThanOrEqual(2);
    expect(answers.filter((a) => a.includes(KEY_BODY))).toEqual([]);
  });

  it('tells a wrong key, a silent provider and an unknown model as it does for a saved custom model', async () => {
    const story = await createStory(t, alice);
    const WRONG = 'sk-wrong-key-0000';
    expect(keep(await as(t, alice).post('/api/custom-models', saved({ model_name: 'wrong-key', api_key: WRONG }))).status).toBe(201);
    const before = await balanceOf(t, alice.userID);
    for (const language of ['en', 'zh-CN'] as const) {
      const asSaved = await send(story, { content: 'Hi', model_type: 'compatible_openai', model_name: 'wrong-key', language });
      const rejected = await send(story, { content: 'Hi', ...ownModel({ api_key: WRONG }), language });
      expect(last(asSaved)).toMatchObject({ type: 'error', code: ErrorCode.CUSTOM_MODEL_KEY_REJECTED });
      expect(last(rejected)).toEqual(last(asSaved));
    }
    expect(own.keys).toEqual([WRONG, WRONG, WRONG, WRONG]);
    await drain();
    const failed = keep(await as(t, alice).get(`/api/llm/${story}/pending`));
    expect([failed.body.data.state, failed.body.data.errorCode]).toEqual(['failed', ErrorCode.CUSTOM_MODEL_KEY_REJECTED]);

    // No text for PROVIDER_TIMEOUT_SECONDS: the custom model's timeout code.
    own.set({ requireKey: KEY, stallAfter: 1 });
    const silent = await send(story, { content: 'Hi', ...ownModel() });
    expect(last(silent)).toMatchObject({ type: 'error', code: ErrorCode.CUSTOM_MODEL_TIMEOUT });
    // A model the provider does not have.
    own.set({ requireKey: KEY, models: ['own-chat'] });
    const missing = await send(story, { content: 'Hi', ...ownModel({ model_name: 'no-such-model' }) });
    expect(last(missing)).toMatchObject({ type: 'error', code: ErrorCode.CUSTOM_MODEL_MODEL_MISSING });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(before);
    expect(platform.requests).toBe(0);
  });

  it('answers a clear 400 naming what is missing when the fields come partly', async () => {
    const story = await createStory(t, alice);
    const cases: [SendTurnDto, string[]][] = [
      [{ model_type: 'compatible_openai', base_url: own.baseURL, api_key: KEY }, ['model_name']],
      [{ base_url: own.baseURL }, ['model_name', 'api_key']],
      [{ model_type: 'compatible_openai', api_key: KEY, model_name: 'own-chat' }, ['base_url']],
      [{ api_key: KEY, base_url: '  ', model_name: 'own-chat' }, ['base_url']],
      [{ ...ownModel(), model_type: 'platform' }, ['model_type']],
      [{ ...ownModel(), api_key: 'k'.repeat(1025) }, ['api_key']],
    ];
    for (const [fields, missing] of cases) {
      for (const language of ['en', 'zh-CN'] as const) {
        const refused = await send(story, { content: 'Hi', ...fields, language });
        expect([missing, refused.status, refused.body?.code]).toEqual([missing, 400, ErrorCode.VALIDATION_FAILED]);
        expect(refused.body?.details?.map((d) => d.field).sort()).toEqual([...missing].sort());
        expect(refused.body?.message).toContain(language === 'en' ? 'Some fields are invalid' : '以下字段不合法');
        for (const field of missing) expect(refused.body?.message).toContain(field);
      }
    }
    // Told once, by what is missing.
    const one = await send(story, { content: 'Hi', base_url: own.baseURL, api_key: KEY });
    expect(one.body?.details).toEqual([
      { field: 'model_name', constraints: ['model_name is required: a send with its own model gives base_url, api_key and model_name together'], rules: ['ownModelText'] },
    ]);
    expect(own.requests + platform.requests).toBe(0);
    expect(answers.filter((a) => a.includes(KEY_BODY))).toEqual([]);
  });

  it('passes enable_reasoning through as a saved custom model does', async () => {
    const story = await createStory(t, alice);
    own.set({ requireKey: KEY, reasoning: ['Weighing ', 'the tide.'] });
    expect(keep(await as(t, alice).post('/api/custom-models', saved({ model_name: 'thinker', enable_reasoning: true }))).status).toBe(201);
    const reasoningOf = (res: StreamResult) => res.events.map((e) => (e.type === 'reasoning' ? e.text : '')).join('');

    const asSaved = await send(story, { content: 'Hi', model_type: 'compatible_openai', model_name: 'thinker' });
    const thinking = await send(story, { content: 'Hi', ...ownModel({ enable_reasoning: true }), regenerate: true });
    const plain = await send(story, { content: 'Hi', ...ownModel({ enable_reasoning: false }), regenerate: true });
    for (const res of [asSaved, thinking, plain]) expect(last(res).type).toBe('done');
    expect(reasoningOf(asSaved)).toBe('Weighing the tide.');
    expect(reasoningOf(thinking)).toBe('Weighing the tide.');
    expect(reasoningOf(plain)).toBe('');
    expect(textOf(thinking.events)).not.toContain('Weighing');
    // The same reply budget as the saved model with reasoning (more room than without).
    const budget = (i: number) => own.bodies[i].max_tokens ?? own.bodies[i].max_completion_tokens;
    expect(budget(1)).toBe(budget(0));
    expect(budget(2)).toBeLessThan(budget(1)!);
  });
});
