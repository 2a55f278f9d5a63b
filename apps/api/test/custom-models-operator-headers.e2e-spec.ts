import type { CreateCustomModelDto, TestCustomModelDto } from '@taleloom/contracts';
import { TurnRunner } from '../src/play/turn.runner';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { listenOnLoopback, sendTurn } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

const ORG = 'org-operator-only';
const PROJECT = 'proj_operator-only';
const OPERATOR_HEADERS = ['openai-organization', 'openai-project'];

/**
 * The `openai` SDK takes OPENAI_ORG_ID and OPENAI_PROJECT_ID from the environment and sends them as
 * headers. They identify the operator's OpenAI account: the operator's own providers get them, a host
 * a user typed for a custom model (its turns and its connection test) never does.
 */
describe("custom models: the operator's OpenAI organization and project are not sent to a user's host", () => {
  let t: TestApp;
  let operator: OpenAIStub;
  let users: OpenAIStub;
  let base: string;
  let alice: TestUser;
  const saved = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
  const operatorHeadersIn = (stub: OpenAIStub) =>
    stub.headers.map((h) => Object.keys(h).filter((name) => OPERATOR_HEADERS.includes(name)).sort());

  beforeAll(async () => {
    process.env.OPENAI_ORG_ID = ORG;
    process.env.OPENAI_PROJECT_ID = PROJECT;
    operator = await startOpenAIStub();
    users = await startOpenAIStub({ models: ['users-model'] });
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([{ value: 'operators-model', points: 0, contextWindow: 4096, maxOutput: 200, baseURL: operator.baseURL }]),
      DEMO_MODEL: 'off',
      CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
      PROVIDER_TIMEOUT_SECONDS: '5',
    });
    base = await listenOnLoopback(t);
    alice = await signUp(t, 'alice');
  });
  afterAll(async () => {
    await t.app.get(TurnRunner).drain();
    await t.close();
    await operator.close();
    await users.close();
    for (const [name, value] of [['OPENAI_ORG_ID', saved.org], ['OPENAI_PROJECT_ID', saved.project]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("a custom model's turn and connection test carry neither header; the operator's model gets both", async () => {
    const model = { model_name: 'users-model', base_url: users.baseURL, api_key: 'sk-users-own-key', model_type: 'compatible_openai' } satisfies CreateCustomModelDto;
    expect((await as(t, alice).post('/api/custom-models', model)).status).toBe(201);

    const tested = await as(t, alice).post('/api/custom-models/test', model satisfies TestCustomModelDto);
    expect(tested.status).toBe(200);
    const story = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const custom = await sendTurn(base, alice.token, story, { content: 'I wave.', model_type: 'compatible_openai', model_name: 'users-model' });
    expect(custom.events.at(-1)!.type).toBe('done');
    await t.app.get(TurnRunner).drain();

    // The user's host was asked (the model list and a one-token completion for the test, then the turn) ...
    expect(users.requests).toBe(2);
    expect(users.headers.length).toBeGreaterThanOrEqual(3);
    expect(users.keys.every((key) => key === 'sk-users-own-key')).toBe(true);
    // ... and never told who the operator is.
    expect(operatorHeadersIn(users).flat()).toEqual([]);

    // The operator's own provider gets them: the variables are in effect in this process.
    const other = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const platform = await sendTurn(base, alice.token, other, { content: 'I wave.' });
    expect(platform.events.at(-1)!.type).toBe('done');
    expect(operator.requests).toBe(1);
    expect(operator.headers.at(-1)).toMatchObject({ 'openai-organization': ORG, 'openai-project': PROJECT });
  });
});
