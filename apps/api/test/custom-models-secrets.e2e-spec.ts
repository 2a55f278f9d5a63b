import { ErrorCode, type CreateCustomModelDto, type TestCustomModelDto } from '@taleloom/contracts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { mongo } from 'mongoose';
import type { Response } from 'supertest';
import { TurnRunner } from '../src/play/turn.runner';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { listenOnLoopback, sendTurn, type StreamResult } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

// A key no other text of the suite contains; its middle alone is searched for as well.
const KEY = 'sk-proj-Zq7vN1xW4kT9-leakcheck-secret';
const MIDDLE = 'Zq7vN1xW4kT9-leakcheck';

/** Every file under a folder, as bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, bytes: readFileSync(path) }];
  });
}

// "The key is stored encrypted and never answered, never logged": proven over every collection of
// the database, every answer (the streamed turn events and /pending included) and every log line.
describe('custom models: the API key never leaves in plain text (database, answers, logs)', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  // Every log line the app writes (LOG_LEVEL trace), and every answer it gives.
  const logs: string[] = [];
  const answers: string[] = [];
  const keep = <R extends Response>(res: R): R => {
    answers.push(JSON.stringify(res.body ?? res.text));
    return res;
  };
  const keepStream = (res: StreamResult): StreamResult => {
    answers.push(JSON.stringify(res.events), JSON.stringify(res.body));
    return res;
  };
  const leaks = (text: string) => text.includes(KEY) || text.includes(MIDDLE);

  beforeAll(async () => {
    stub = await startOpenAIStub({ requireKey: KEY });
    t = await createTestApp(
      { LOG_LEVEL: 'trace', DEMO_MODEL: 'on', CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32', PROVIDER_TIMEOUT_SECONDS: '5' },
      { logStream: { write: (line: string) => void logs.push(line) } },
    );
    base = await listenOnLoopback(t);
    alice = await signUp(t, 'alice');
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it('is in no collection, no file of DATA_DIR, no answer and no log line after saving, testing and playing with it', async () => {
    const model = { model_name: 'my-gpt', base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai' } satisfies CreateCustomModelDto;
    expect(keep(await as(t, alice).post('/api/custom-models', model)).status).toBe(201);
    expect(keep(await as(t, alice).put('/api/custom-models/my-gpt', { api_key: KEY, enable_reasoning: false })).status).toBe(200);
    keep(await as(t, alice).get('/api/custom-models'));

    // Tested with the key typed, and with the saved one lent.
    const typed = keep(await as(t, alice).post('/api/custom-models/test', model satisfies TestCustomModelDto));
    expect(typed.status).toBe(200);
    const saved = keep(await as(t, alice).post('/api/custom-models/test', { ...model, api_key: '', saved_name: 'my-gpt' } satisfies TestCustomModelDto));
    expect(saved.status).toBe(200);

    // A turn played with it, read back every way the web app reads it.
    const story = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    keep(await as(t, alice).patch(`/api/llm?id=${story}`, { model_type: 'compatible_openai', model_name: 'my-gpt' }));
    const played = keepStream(await sendTurn(base, alice.token, story, { content: 'I wave.' }));
    expect(played.events.at(-1)!.type).toBe('done');
    await t.app.get(TurnRunner).drain();
    expect(keep(await as(t, alice).get(`/api/llm/${story}/pending`)).body.data.state).toBe('done');
    keep(await as(t, alice).get(`/api/llm?id=${story}`));
    keep(await as(t, alice).get('/api/user/story-list'));
    keep(await as(t, alice).get('/api/model_list'));
    // The provider received it: the key was in use, not merely stored.
    expect(stub.keys.length).toBeGreaterThanOrEqual(3);
    expect(new Set(stub.keys)).toEqual(new Set([KEY]));

    const collections = await t.connection.db!.listCollections().toArray();
    const names = collections.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['custom_models', 'stories', 'play_turns', 'users']));
    let documents = 0;
    for (const name of names) {
      for (const doc of await t.connection.db!.collection(name).find({}).toArray()) {
        documents++;
        // BSON holds strings as UTF-8 and binary data as its bytes: a key stored any way shows here.
        const bson = Buffer.from(mongo.BSON.serialize(doc));
        const json = mongo.BSON.EJSON.stringify(doc);
        expect([name, bson.includes(KEY) || bson.includes(MIDDLE), leaks(json)]).toEqual([name, false, false]);
      }
    }
    expect(documents).toBeGreaterThan(4);
    // Stored it is, encrypted.
    const set = await t.connection.db!.collection('custom_models').findOne({});
    expect(set!.models[0].api_key_cipher).toMatch(/^v1\./);

    for (const file of filesUnder(t.config.dataDir)) expect([file.path, file.bytes.includes(KEY) || file.bytes.includes(MIDDLE)]).toEqual([file.path, false]);
    expect(answers.filter(leaks)).toEqual([]);
    expect(answers.some((a) => a.includes('••••cret'))).toBe(true);
    // The log was captured (requests and the generation are in it), and the key is in none of its lines.
    expect(logs.some((l) => l.includes('/api/custom-models/test'))).toBe(true);
    expect(logs.filter(leaks)).toEqual([]);
  });

  it('scrubs a provider error that echoes the key: not in the test answer, the stream, /pending or the log', async () => {
    const echo = JSON.stringify({ error: { message: `Quota exceeded for key ${KEY} (org-123)`, type: 'insufficient_quota', code: 'insufficient_quota' } });
    keep(await as(t, alice).post('/api/custom-models', { model_name: 'echo', base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai' }));
    stub.set({ requireKey: KEY, httpStatus: 402, httpBody: echo });
    logs.length = 0;
    const from = answers.length;

    const tested = keep(await as(t, alice).post('/api/custom-models/test', { model_name: 'echo', base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai' }));
    expect([tested.status, tested.body.code]).toEqual([502, ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR]);
    // The provider's words are told, with the key masked.
    expect(tested.body.params.detail).toContain('Quota exceeded for key •••• (org-123)');

    const story = await createStory(t, alice);
    const failed = keepStream(await sendTurn(base, alice.token, story, { content: 'Hi', model_type: 'compatible_openai', model_name: 'echo' }));
    expect(failed.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR });
    await t.app.get(TurnRunner).drain();
    const pending = keep(await as(t, alice).get(`/api/llm/${story}/pending`));
    expect([pending.body.data.state, pending.body.data.errorCode]).toEqual(['failed', ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR]);
    // The provider did send the key back in both failures.
    expect(stub.requests).toBeGreaterThanOrEqual(2);

    expect(answers.slice(from).filter(leaks)).toEqual([]);
    // The failure is in the log, with the provider's words and the key masked.
    const failure = logs.filter((l) => l.includes('failed') && l.includes('Quota exceeded'));
    expect(failure.length).toBeGreaterThan(0);
    expect(failure.join('\n')).toContain('Quota exceeded for key ••••');
    expect(logs.filter(leaks)).toEqual([]);
  });
});
