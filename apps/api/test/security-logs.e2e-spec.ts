import { ErrorCode, type CreateCustomModelDto, type LoginDto, type TestCustomModelDto } from '@taleloom/contracts';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import request from 'supertest';
import type { MockInstance } from 'vitest';
import { TurnRunner } from '../src/play/turn.runner';
import { as, createStory, type TestUser } from './story-factories';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { sendTurn, unthrottle } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

// Distinctive, so that any piece of them in a log is found.
const KEY = `sk-LOGKEY-${randomBytes(12).toString('hex')}`;
const NEW_KEY = `sk-LOGNEWKEY-${randomBytes(12).toString('hex')}`;
const PASSWORD = `pw-${randomBytes(8).toString('hex')}`;

// A port nothing listens on (taken from the system, then let go).
function closedPort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

/**
 * Custom models' API keys (and passwords, and sign-in tokens) never reach a log line: the app runs
 * with logging at its most verbose level (trace) into a stream this suite reads, and every request
 * that carries a key (create, update, connection tests that succeed and fail, turns played with the
 * model, a provider that echoes the key in its error) is made; nothing the app wrote (its log, stdout,
 * stderr, console) holds any of them.
 */
describe('logs: custom model keys, passwords and tokens never reach a log line', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let user: TestUser;
  /** Every line the app's logger wrote. */
  const logLines: string[] = [];
  /** Everything written to stdout/stderr or the console meanwhile (a stray console.log, a pretty-printer). */
  const otherOutput: string[] = [];
  const spies: MockInstance[] = [];

  const model = (over: Partial<CreateCustomModelDto> = {}) =>
    ({ model_name: 'stub-chat', base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai', ...over }) satisfies CreateCustomModelDto;
  /** A provider that answers every request with an error whose text repeats the key it was sent. */
  const echoingProvider = (status: number, key: string) =>
    stub.set({ httpStatus: status, httpBody: JSON.stringify({ error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', key } }) });

  beforeAll(async () => {
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
      spies.push(
        vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
          otherOutput.push(String(chunk));
          return write(chunk, ...rest);
        }) as typeof stream.write),
      );
    }
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
      const original = console[method].bind(console);
      spies.push(
        vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
          otherOutput.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
          original(...args);
        }),
      );
    }
    stub = await startOpenAIStub();
    t = await createTestApp(
      {
        LOG_LEVEL: 'trace',
        MODELS_JSON: JSON.stringify([{ value: 'paid', points: 50, contextWindow: 4096, maxOutput: 200, baseURL: stub.baseURL }]),
        DEMO_MODEL: 'off',
        CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
        CUSTOM_MODEL_TEST_TIMEOUT_SECONDS: '2',
        PROVIDER_TIMEOUT_SECONDS: '5',
      },
      { logStream: { write: (line: string) => void logLines.push(line) } },
    );
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const login = await request(t.app.getHttpServer())
      .post('/api/user/login')
      .send({ type: 'username', userName: 'logwatcher', password: PASSWORD } satisfies LoginDto);
    expect(login.status).toBe(200);
    user = { token: login.body.data.token, userID: login.body.data.userInfo.userID, userName: 'logwatcher' };
  });

  afterAll(async () => {
    await t?.app.get(TurnRunner).drain();
    await t?.close();
    await stub?.close();
    for (const spy of spies) spy.mockRestore();
  });

  it('creates, updates, tests and plays with a key at log level trace: no log line holds the key', async () => {
    const custom = { model_type: 'compatible_openai', model_name: 'stub-chat' } as const;
    const test = (over: Partial<TestCustomModelDto> = {}) =>
      as(t, user).post('/api/custom-models/test', { model_name: 'stub-chat', base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai', ...over });

    // Create: refused ones first (a bad type, an address with /chat/completions, a blocked address), then saved.
    expect((await as(t, user).post('/api/custom-models', { ...model(), model_type: 'anthropic' })).status).toBe(400);
    expect((await as(t, user).post('/api/custom-models', model({ base_url: `${stub.baseURL}/chat/completions` }))).body.code).toBe(ErrorCode.CUSTOM_MODEL_URL_INVALID);
    expect((await as(t, user).post('/api/custom-models', model({ base_url: 'http://10.1.2.3/v1' }))).body.code).toBe(ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED);
    expect((await as(t, user).post('/api/custom-models', model())).status).toBe(201);
    expect((await as(t, user).post('/api/custom-models', model({ model_name: 'STUB-CHAT' }))).body.code).toBe(ErrorCode.CUSTOM_MODEL_NAME_TAKEN);

    // Connection tests: a working one, a rejected key, a provider that echoes the key (status 401 and 500),
    // nothing listening (a 5xx answer, whose error the app logs), and the saved model's stored key.
    stub.set({ models: ['stub-chat'], requireKey: KEY });
    expect((await test()).status).toBe(200);
    expect((await test({ api_key: NEW_KEY })).body.code).toBe(ErrorCode.CUSTOM_MODEL_KEY_REJECTED);
    echoingProvider(401, KEY);
    expect((await test()).body.code).toBe(ErrorCode.CUSTOM_MODEL_KEY_REJECTED);
    echoingProvider(500, KEY);
    expect((await test()).body.code).toBe(ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR);
    expect((await test({ api_key: '', saved_name: 'stub-chat' })).body.code).toBe(ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR);
    expect((await test({ base_url: `http://127.0.0.1:${await closedPort()}/v1` })).body.code).toBe(ErrorCode.CUSTOM_MODEL_ADDRESS_UNREACHABLE);

    // Played turns on the model: one fine, then the provider fails echoing the key (401, then 500 mid-story).
    const story = await createStory(t, user, { prologue_and_characters: 'Mara waits at the pier.' });
    expect((await as(t, user).patch(`/api/llm?id=${story}`, custom)).status).toBe(200);
    stub.reset();
    stub.set({});
    const fine = await sendTurn(base, user.token, story, { role: 'Mara', content: 'I wave.', ...custom });
    expect(fine.events.at(-1)!.type).toBe('done');
    expect(stub.keys).toEqual([KEY]);
    for (const status of [401, 500]) {
      await t.app.get(TurnRunner).drain();
      await unthrottle(t, story);
      echoingProvider(status, KEY);
      const failed = await sendTurn(base, user.token, story, { content: 'Again', ...custom, regenerate: true });
      expect(failed.events.at(-1)).toMatchObject({ type: 'error' });
    }

    // Update: a new key, an address, a name; then a turn with the new key that the provider rejects, echoing it.
    const updated = await as(t, user).put('/api/custom-models/stub-chat', { api_key: NEW_KEY, base_url: `${stub.baseURL}/`, enable_reasoning: true });
    expect(updated.status).toBe(200);
    expect((await as(t, user).put('/api/custom-models/stub-chat', { api_key: KEY, base_url: 'http://10.1.2.3/v1' })).body.code).toBe(ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED);
    await t.app.get(TurnRunner).drain();
    await unthrottle(t, story);
    echoingProvider(401, NEW_KEY);
    const rejected = await sendTurn(base, user.token, story, { content: 'Once more', ...custom, regenerate: true });
    expect(rejected.events.at(-1)).toMatchObject({ type: 'error' });
    expect(stub.keys.at(-1)).toBe(NEW_KEY);
    await t.app.get(TurnRunner).drain();

    // The log is really there and verbose: a line per request above (with its headers, the token
    // redacted), and the failed generations' warnings.
    const entries = logLines.map((line) => JSON.parse(line) as { msg?: string; level: number; res?: object; req?: { method: string; url: string; headers?: Record<string, string> } });
    const requests = entries.filter((e) => e.req && e.res).map((e) => `${e.req!.method} ${e.req!.url}`);
    expect(requests.filter((r) => r === 'POST /api/custom-models')).toHaveLength(5);
    expect(requests.filter((r) => r === 'POST /api/custom-models/test')).toHaveLength(6);
    expect(requests.filter((r) => r === 'PUT /api/custom-models/stub-chat')).toHaveLength(2);
    expect(requests.filter((r) => r === `POST /api/llm/${story}`)).toHaveLength(4);
    expect(entries.find((e) => e.req?.url === '/api/custom-models')!.req!.headers!.authorization).toBe('[Redacted]');
    expect(entries.filter((e) => /generation \S+ on stub-chat failed/.test(e.msg ?? ''))).toHaveLength(3);
    // A user's unreachable model (a 502: their mistake, not the app's) is one warning line, without a stack.
    const unreachable = entries.filter((e) => (e.msg ?? '').includes(ErrorCode.CUSTOM_MODEL_ADDRESS_UNREACHABLE));
    expect(unreachable.length).toBeGreaterThan(0);
    for (const e of unreachable) {
      expect(e.level).toBe(40);
      expect(e.msg).not.toMatch(/\n\s+at /);
    }
    expect(entries.some((e) => e.level === 10 || e.level === 20 || e.level === 30)).toBe(true);

    const written = [...logLines, ...otherOutput].join('\n');
    const secrets = {
      key: KEY,
      keyBody: KEY.split('-').at(-1)!,
      newKey: NEW_KEY,
      newKeyBody: NEW_KEY.split('-').at(-1)!,
      password: PASSWORD,
      token: user.token,
      tokenSignature: user.token.split('.')[2],
    };
    expect(Object.entries(secrets).filter(([, secret]) => written.includes(secret)).map(([name]) => name)).toEqual([]);
  });
});
