import { ErrorCode, type CreateCustomModelDto, type TestCustomModelDto } from '@taleloom/contracts';
import { AddressGuard } from '../src/custom-models/address-guard';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { sendTurn } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

// The server-side request forgery guard with the default configuration: no private network allowed.
describe('custom models: the address guard without an operator allowance', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let alice: TestUser;
  const body = (base_url: string) =>
    ({ model_name: 'm', base_url, api_key: 'sk-test-key-123456', model_type: 'compatible_openai' }) satisfies CreateCustomModelDto;

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({ DEMO_MODEL: 'on' });
    alice = await signUp(t, 'alice');
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it('refuses loopback, private, link-local, metadata and unique-local addresses, however they are written', async () => {
    const port = new URL(stub.baseURL).port;
    const refused = [
      stub.baseURL,
      `http://localhost:${port}/v1`,
      'http://[::1]:11434/v1',
      'http://10.0.0.8/v1',
      'http://192.168.1.20:1234/v1',
      'http://169.254.169.254/latest',
      'http://100.100.100.200/v1',
      'http://[fd00:ec2::254]/v1',
      'http://[::ffff:127.0.0.1]/v1',
      // Decimal and hex forms of 127.0.0.1.
      'http://2130706433/v1',
      'http://0x7f.1/v1',
    ];
    for (const url of refused) {
      const res = await as(t, alice).post('/api/custom-models', body(url));
      expect([url, res.status, res.body.code]).toEqual([url, 400, ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED]);
    }
    const zh = await as(t, alice).post('/api/custom-models', { ...body(stub.baseURL), language: 'zh-CN' });
    expect(zh.body.message).toBe('此 API 地址指向本机、私有或内部网络，本服务器不允许访问。');
    expect((await as(t, alice).get('/api/custom-models')).body.data).toEqual([]);

    // Testing a connection is refused the same way, before any request.
    const tested = await as(t, alice).post('/api/custom-models/test', body(stub.baseURL) satisfies TestCustomModelDto);
    expect([tested.status, tested.body.code]).toEqual([400, ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED]);
    expect(stub.requests).toBe(0);
  });

  it('saves public addresses; a name that later resolves to a private address is refused at connect time', async () => {
    expect((await as(t, alice).post('/api/custom-models', body('https://8.8.8.8/v1'))).status).toBe(201);
    const guard = t.app.get(AddressGuard);
    guard.resolver = async () => [{ address: '2606:4700:4700::1111', family: 6 }];
    const port = new URL(stub.baseURL).port;
    const saved = await as(t, alice).post('/api/custom-models', { ...body(`http://provider.test:${port}/v1`), model_name: 'rebinding' });
    expect(saved.status).toBe(201);

    // DNS rebinding: the same name now answers with the loopback address the stub listens on.
    guard.resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const story = await createStory(t, alice);
    await t.app.listen(0, '127.0.0.1');
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const res = await sendTurn(base, alice.token, story, { content: 'Hi', model_type: 'compatible_openai', model_name: 'rebinding' });
    expect(res.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED });
    expect(stub.requests).toBe(0);
  });
});
