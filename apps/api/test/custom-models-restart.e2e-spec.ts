import { randomBytes } from 'node:crypto';
import { ErrorCode, type CreateCustomModelDto, type TestCustomModelDto } from '@taleloom/contracts';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEncryptionKey } from '../src/config/encryption-key';
import { TurnRunner } from '../src/play/turn.runner';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { listenOnLoopback, sendTurn, textOf } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

const KEY = 'sk-restart-0123456789-secret';

// With no CUSTOM_MODEL_ENCRYPTION_KEY the API makes one into DATA_DIR/custom-model-key on its first
// start; keys saved before a restart must still decrypt after it (same DATA_DIR, same database).
describe('custom models: the encryption key in DATA_DIR across restarts', () => {
  let stub: OpenAIStub;
  // The apps running, closed (database dropped) at the end of a test even when a check fails.
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string>, databaseName?: string) => {
    const t = await createTestApp({ DEMO_MODEL: 'on', CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32', ...env }, { databaseName });
    apps.push(t);
    return t;
  };
  // A restart: the app goes away, its database stays.
  const stop = async (t: TestApp) => {
    apps.splice(apps.indexOf(t), 1);
    await t.app.close();
  };
  const model = () => ({ model_name: 'kept', base_url: stub.baseURL, api_key: KEY, model_type: 'compatible_openai' }) satisfies CreateCustomModelDto;
  const testSaved = (t: TestApp, user: TestUser) =>
    as(t, user).post('/api/custom-models/test', { ...model(), api_key: '', saved_name: 'kept' } satisfies TestCustomModelDto);

  beforeAll(async () => {
    stub = await startOpenAIStub({ requireKey: KEY });
  });
  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
  });
  afterAll(() => stub.close());

  it('generates the key file on first start, keeps it, and decrypts the keys saved before a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-keys-'));
    const file = join(dataDir, 'custom-model-key');
    expect(existsSync(file)).toBe(false);

    const first = await start({ DATA_DIR: dataDir });
    expect(first.config.env.CUSTOM_MODEL_ENCRYPTION_KEY).toBeUndefined();
    expect(existsSync(file)).toBe(true);
    // Readable by the server's user only, and the 32-byte key the app runs with.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = readFileSync(file, 'utf8');
    expect(parseEncryptionKey(written).equals(first.config.customModelKey)).toBe(true);

    const alice = await signUp(first, 'alice');
    expect((await as(first, alice).post('/api/custom-models', model())).status).toBe(201);
    const stored = (await first.connection.db!.collection('custom_models').findOne({}))!.models[0].api_key_cipher as string;
    expect(stored).toMatch(/^v1\./);
    await stop(first);

    const second = await start({ DATA_DIR: dataDir }, first.databaseName);
    // The file was read, not made again.
    expect(readFileSync(file, 'utf8')).toBe(written);
    expect(second.config.customModelKey.equals(first.config.customModelKey)).toBe(true);
    // The stored key decrypts: a connection test with the saved key, and a turn, reach the provider with it.
    stub.reset();
    const tested = await testSaved(second, alice);
    expect(tested.status).toBe(200);
    const story = await createStory(second, alice);
    const played = await sendTurn(await listenOnLoopback(second), alice.token, story, { content: 'Hi', model_type: 'compatible_openai', model_name: 'kept' });
    expect(played.events.at(-1)!.type).toBe('done');
    expect(textOf(played.events)).toContain('Reply');
    await second.app.get(TurnRunner).drain();
    expect(stub.keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(stub.keys)).toEqual(new Set([KEY]));
    // The ciphertext was only read.
    expect((await second.connection.db!.collection('custom_models').findOne({}))!.models[0].api_key_cipher).toBe(stored);
    await stop(second);

    // Another DATA_DIR is another key: the saved key no longer decrypts, and the user is told to type it again.
    const elsewhere = await start({ DATA_DIR: mkdtempSync(join(tmpdir(), 'taleloom-keys-')) }, first.databaseName);
    expect(elsewhere.config.customModelKey.equals(first.config.customModelKey)).toBe(false);
    const unreadable = await testSaved(elsewhere, alice);
    expect(unreadable.body.code).toBe(ErrorCode.CUSTOM_MODEL_KEY_UNREADABLE);
    expect(unreadable.body.message).toBe('The stored API key of this custom model can no longer be read. Please enter it again.');
  });

  it('uses CUSTOM_MODEL_ENCRYPTION_KEY when set, writing no key file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-keys-'));
    const configured = randomBytes(32);
    const t = await start({ DATA_DIR: dataDir, CUSTOM_MODEL_ENCRYPTION_KEY: configured.toString('hex') });
    expect(t.config.customModelKey.equals(configured)).toBe(true);
    expect(existsSync(join(dataDir, 'custom-model-key'))).toBe(false);
    // A restart with the same configured key reads what was saved.
    const alice = await signUp(t, 'alice');
    expect((await as(t, alice).post('/api/custom-models', model())).status).toBe(201);
    await stop(t);
    const again = await start({ DATA_DIR: dataDir, CUSTOM_MODEL_ENCRYPTION_KEY: configured.toString('base64') }, t.databaseName);
    expect((await testSaved(again, alice)).status).toBe(200);
    expect(stub.keys.at(-1)).toBe(KEY);
  });
});
