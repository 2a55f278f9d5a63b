import { ErrorCode } from '@taleloom/contracts';
import { startOpenAIStub, type OpenAIStub, type StubBehaviour } from '../../test/support/openai-stub';
import { ChatProvider, ProviderFailure, type ChatRequest, type ProviderChunk } from './chat-provider';
import { DEMO_MODEL, type PlatformModel } from '../config/platform-models';
import { startDemoModelServer } from './demo-model-server';
import { TokenLimitFields } from './token-limit-field';

describe('ChatProvider (openai SDK against a local OpenAI-compatible server)', () => {
  let stub: OpenAIStub;
  let model: PlatformModel;
  const provider = new ChatProvider();
  const collect = async (iter: AsyncIterable<ProviderChunk>) => {
    const out: ProviderChunk[] = [];
    for await (const c of iter) out.push(c);
    return out;
  };
  const request = (over: Partial<PlatformModel> = {}) => ({
    model: { ...model, ...over },
    apiKey: '',
    messages: [{ role: 'user' as const, content: 'hello' }],
    maxTokens: 100,
    idleTimeoutMs: 2000,
  });

  beforeAll(async () => {
    stub = await startOpenAIStub();
    model = { ...DEMO_MODEL, value: 'stub', model: 'stub-model', demo: false, baseURL: stub.baseURL };
  });
  afterEach(() => stub.reset());
  afterAll(() => stub.close());

  it('streams deltas and usage, sending the model name, max_tokens and include_usage', async () => {
    stub.set({ chunks: ['One', ' two', ' three'] });
    const chunks = await collect(provider.stream(request()));
    expect(chunks).toEqual([
      { type: 'delta', text: 'One' },
      { type: 'delta', text: ' two' },
      { type: 'delta', text: ' three' },
      { type: 'usage', promptTokens: 10, completionTokens: 3 },
    ]);
    expect(stub.requests).toBe(1);
    expect(stub.bodies[0]).toMatchObject({ model: 'stub-model', max_tokens: 100, stream: true, stream_options: { include_usage: true } });
  });

  it("asks once more with max_completion_tokens when the provider refuses max_tokens (OpenAI's reasoning models), and remembers it", async () => {
    const learning = new ChatProvider(new TokenLimitFields());
    stub.set({ refuseMaxTokens: true, chunks: ['One', ' two'] });
    const first = await collect(learning.stream(request({ model: 'o3' })));
    // The refusal comes before any text: the reply is there once.
    expect(first).toEqual([
      { type: 'delta', text: 'One' },
      { type: 'delta', text: ' two' },
      { type: 'usage', promptTokens: 10, completionTokens: 2 },
    ]);
    expect(stub.bodies.map((b) => [b.max_tokens, b.max_completion_tokens])).toEqual([
      [100, undefined],
      [undefined, 100],
    ]);
    // The next request for that address and model sends the right field first; others keep max_tokens.
    expect(await learning.complete(request({ model: 'o3' }))).toBe('One two');
    expect(stub.bodies.map((b) => b.max_completion_tokens)).toEqual([undefined, 100, 100]);
    stub.set({ chunks: ['Plain'] });
    expect(await learning.complete(request({ model: 'llama3' }))).toBe('Plain');
    expect(stub.bodies.at(-1)).toMatchObject({ model: 'llama3', max_tokens: 100 });
    expect(stub.bodies.at(-1)).not.toHaveProperty('max_completion_tokens');
  });

  it('relays reasoning_content only for models with reasoning enabled', async () => {
    stub.set({ chunks: ['A'], reasoning: ['hm', 'm'] });
    const off = await collect(provider.stream(request()));
    expect(off.filter((c) => c.type === 'reasoning')).toEqual([]);
    const on = await collect(provider.stream(request({ enableReasoning: true })));
    expect(on.slice(0, 3)).toEqual([
      { type: 'reasoning', text: 'hm' },
      { type: 'reasoning', text: 'm' },
      { type: 'delta', text: 'A' },
    ]);
  });

  it('fails with PROVIDER_ERROR when the stream breaks off, after yielding what came', async () => {
    stub.set({ chunks: ['a', 'b', 'c', 'd'], failAfter: 2 });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const c of provider.stream(request())) if (c.type === 'delta') seen.push(c.text);
      })(),
    ).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    expect(seen).toEqual(['a', 'b']);
  });

  it('fails with PROVIDER_ERROR on an error event and on an HTTP error, without retrying', async () => {
    stub.set({ chunks: ['a', 'b'], failAfter: 1, failMode: 'error-event' });
    await expect(collect(provider.stream(request()))).rejects.toBeInstanceOf(ProviderFailure);
    stub.set({ httpStatus: 500 });
    await expect(collect(provider.stream(request()))).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    expect(stub.requests).toBe(2);
  });

  it('fails with PROVIDER_TIMEOUT when the provider goes quiet', async () => {
    stub.set({ chunks: ['a', 'b'], delayMs: 1000 });
    await expect(collect(provider.stream({ ...request(), idleTimeoutMs: 200 }))).rejects.toMatchObject({
      code: ErrorCode.PROVIDER_TIMEOUT,
    });
  });

  it('fails with PROVIDER_ERROR when the body ends without a finish_reason (cut short, or not a stream)', async () => {
    stub.set({ chunks: ['a', 'b', 'c'], failAfter: 2, failMode: 'cut' });
    await expect(collect(provider.stream(request()))).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    stub.set({ httpStatus: 200, httpContentType: 'text/html', httpBody: '<html><body>Welcome</body></html>' });
    await expect(collect(provider.stream(request()))).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
  });

  it('times out a stream kept warm with chunks that carry no text', async () => {
    stub.set({ chunks: ['a', 'b'], stallAfter: 1, stallWith: 'empty-chunks' });
    await expect(collect(provider.stream({ ...request(), idleTimeoutMs: 300 }))).rejects.toMatchObject({
      code: ErrorCode.PROVIDER_TIMEOUT,
    });
  });

  it('drives the offline demo model through the same path, in the story language', async () => {
    const demo = await startDemoModelServer(0);
    try {
      const demoModel = { ...DEMO_MODEL, baseURL: demo.baseURL };
      const en = await provider.complete({ ...request(), model: demoModel, messages: [{ role: 'user', content: 'Mara: I open the door.' }] });
      expect(en.length).toBeGreaterThan(60);
      expect(en).toMatch(/[A-Za-z]/);
      const zh = await provider.complete({ ...request(), model: demoModel, messages: [{ role: 'user', content: '小林：我推开了门。' }] });
      expect(zh).toMatch(/[\u4e00-\u9fff]{20}/);
      const again = await provider.complete({ ...request(), model: demoModel, messages: [{ role: 'user', content: 'Mara: I open the door.' }] });
      expect(again).not.toBe(en);
    } finally {
      await demo.close();
    }
  });

  it("tells a user's own model's failures as the user can act on them, and splits a leading <think> block", async () => {
    const custom = { transport: { key: 'plain', fetch: globalThis.fetch, fetchOptions: {} } };
    stub.set({ requireKey: 'sk-right' });
    await expect(collect(provider.stream({ ...request(), apiKey: 'sk-wrong', custom }))).rejects.toMatchObject({
      code: ErrorCode.CUSTOM_MODEL_KEY_REJECTED,
      status: 401,
    });
    stub.set({ models: ['other'] });
    await expect(collect(provider.stream({ ...request(), custom }))).rejects.toMatchObject({ code: ErrorCode.CUSTOM_MODEL_MODEL_MISSING });
    stub.set({ httpStatus: 503 });
    await expect(collect(provider.stream({ ...request(), custom }))).rejects.toMatchObject({ code: ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR, status: 503 });
    // A platform model's failure stays PROVIDER_ERROR (the user cannot fix the platform's key).
    await expect(collect(provider.stream(request()))).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });

    stub.set({ chunks: ['<think>', 'Hm, a door.', '</think>\n', 'It opens.'] });
    const split = await collect(provider.stream({ ...request({ enableReasoning: true }), custom }));
    expect(split.filter((c) => c.type !== 'usage')).toEqual([
      { type: 'reasoning', text: 'Hm, a door.' },
      { type: 'delta', text: 'It opens.' },
    ]);
  });

  it('relay hands over exactly what stream yields, in order, and fails the same way after the same chunks', async () => {
    // What a reader saw: its chunks, then how it ended.
    const viaStream = async (req: ReturnType<typeof request>) => {
      const seen: ProviderChunk[] = [];
      try {
        for await (const c of provider.stream(req)) seen.push(c);
        return { seen, end: 'ok' };
      } catch (error) {
        return { seen, end: (error as ProviderFailure).code };
      }
    };
    const viaRelay = async (req: ReturnType<typeof request>) => {
      const seen: ProviderChunk[] = [];
      try {
        await provider.relay(req, (c) => seen.push(c));
        return { seen, end: 'ok' };
      } catch (error) {
        return { seen, end: (error as ProviderFailure).code };
      }
    };
    const cases: [Parameters<OpenAIStub['set']>[0], Partial<PlatformModel>, number?][] = [
      [{ chunks: ['One', ' two', ' three'] }, {}],
      [{ chunks: ['A', 'B'], reasoning: ['hm', 'm'] }, { enableReasoning: true }],
      [{ chunks: ['<think>', 'Hm.', '</think>\n', 'It opens.'] }, { enableReasoning: true }],
      [{ chunks: ['a', 'b', 'c', 'd'], failAfter: 2 }, {}],
      [{ chunks: ['a', 'b'], failAfter: 1, failMode: 'error-event' }, {}],
      [{ chunks: ['a', 'b'], failAfter: 1, failMode: 'non-json' }, {}],
      [{ chunks: ['a', 'b'], failAfter: 1, failMode: 'truncated-json' }, {}],
      [{ chunks: ['a', 'b', 'c'], failAfter: 2, failMode: 'cut' }, {}],
      [{ httpStatus: 500 }, {}],
      [{ httpStatus: 200, httpContentType: 'text/html', httpBody: '<html><body>Welcome</body></html>' }, {}],
      [{ chunks: ['a', 'b'], stallAfter: 1, stallWith: 'empty-chunks' }, {}, 300],
    ];
    for (const [behaviour, over, idle] of cases) {
      stub.set(behaviour);
      const req = { ...request(over), ...(idle ? { idleTimeoutMs: idle } : {}) };
      const streamed = await viaStream(req);
      stub.set(behaviour);
      expect({ behaviour, ...(await viaRelay(req)) }).toEqual({ behaviour, ...streamed });
    }
    // Each case above ended as its own test says (a whole answer, or the failure's code).
    stub.set({ chunks: ['a', 'b'], delayMs: 1000 });
    expect((await viaRelay({ ...request(), idleTimeoutMs: 200 })).end).toBe(ErrorCode.PROVIDER_TIMEOUT);
    // Aborted by the caller: the request stops and the relay fails.
    stub.set({ chunks: ['a', 'b', 'c'], delayMs: 300 });
    const abort = new AbortController();
    const seen: ProviderChunk[] = [];
    const relayed = provider.relay({ ...request(), signal: abort.signal }, (c) => {
      seen.push(c);
      abort.abort();
    });
    await expect(relayed).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    expect(seen).toEqual([{ type: 'delta', text: 'a' }]);
  });

  it('keeps the connection to a platform provider for the next request once an answer ends with [DONE]', async () => {
    stub.set({ chunks: ['One', ' two'] });
    const relay = async () => {
      const seen: ProviderChunk[] = [];
      await provider.relay(request(), (c) => seen.push(c));
      return seen.filter((c) => c.type === 'delta').map((c) => (c as { text: string }).text).join('');
    };
    // The first may open a connection (or find one an earlier test left in the pool)...
    expect(await relay()).toBe('One two');
    const opened = stub.connections;
    // ...the next ones, one after the other, go over it: [DONE] no longer closes it.
    for (let i = 0; i < 3; i++) expect(await relay()).toBe('One two');
    expect(stub.connections).toBe(opened);
    // An answer cut short by the caller still closes its connection (nothing half-read is reused).
    stub.set({ chunks: ['a', 'b', 'c'], delayMs: 200 });
    const abort = new AbortController();
    await expect(provider.relay({ ...request(), signal: abort.signal }, () => abort.abort())).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    stub.set({ chunks: ['One', ' two'] });
    expect(await relay()).toBe('One two');
    // The next request was the first on its connection: a new one. (How many undici opens then is its
    // pool's business: run alone, with the aborted connection the pool's only one, it opens two.)
    expect(stub.connectionRequests.at(-1)).toBe(1);
    expect(stub.connections).toBeGreaterThan(opened);
  });

  it('keeps the connection for the next request when a task, fold or picture prompt is read (stream) to its [DONE]', async () => {
    stub.set({ chunks: ['One', ' two'] });
    const read = async () => {
      let text = '';
      for await (const c of provider.stream(request())) if (c.type === 'delta') text += c.text;
      return text;
    };
    expect(await read()).toBe('One two');
    const opened = stub.connections;
    for (let i = 0; i < 3; i++) expect(await provider.complete(request())).toBe('One two');
    expect(await read()).toBe('One two');
    expect(stub.connections).toBe(opened);
    // A reader that stops half-way closes its connection: nothing half-read is reused.
    stub.set({ chunks: ['a', 'b', 'c'], delayMs: 100 });
    for await (const c of provider.stream(request())) if (c.type === 'delta') break;
    stub.set({ chunks: ['One', ' two'] });
    expect(await read()).toBe('One two');
    expect(stub.connections).toBe(opened + 1);
  });

  /** A provider of its own (a fresh server: no connection of the earlier tests in the pool) answering "kept". */
  async function ownProvider(behaviour: StubBehaviour) {
    const own = await startOpenAIStub({ chunks: ['kept'], ...behaviour });
    const req = () => request({ baseURL: own.baseURL });
    return {
      own,
      relay: async () => {
        const seen: ProviderChunk[] = [];
        await provider.relay(req(), (c) => seen.push(c));
        return seen.filter((c) => c.type === 'delta').map((c) => (c as { text: string }).text).join('');
      },
      complete: () => provider.complete(req()),
    };
  }
  // Between two requests, a connection goes back to the pool once its answer has ended.
  const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

  it('sends once more, on a new connection, when the kept one is closed by the provider as the request goes out on it', async () => {
    // A provider whose idle connections close on their own: here, the second request on a connection
    // finds it closed (reset before any byte of an answer), as when its idle timeout beats the pool's.
    const { own, relay, complete } = await ownProvider({ resetReusedConnections: true });
    try {
      expect(await relay()).toBe('kept');
      await pause(50);
      expect(await relay()).toBe('kept');
      await pause(50);
      expect(await complete()).toBe('kept');
      // Each later request met its closed connection once, then went out on a new one.
      expect(own.connectionRequests).toEqual([1, 2, 1, 2, 1]);
      expect(own.connections).toBe(3);
      // A provider that cannot be reached at all is not asked twice.
      const refused = await provider.relay(request({ baseURL: 'http://127.0.0.1:9/v1' }), () => undefined).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    } finally {
      await own.close();
    }
  });

  it("keeps an idle connection 30 s when the provider does not say how long it keeps it (undici's own default: 4 s)", async () => {
    // No Keep-Alive header (the server never times its idle connections out).
    const { own, relay } = await ownProvider({ keepAliveHint: false });
    try {
      expect(await relay()).toBe('kept');
      await pause(4500);
      expect(await relay()).toBe('kept');
      expect(own.connections).toBe(1);
      expect(own.connectionRequests).toEqual([1, 2]);
    } finally {
      await own.close();
    }
  }, 15_000);

  it('sends a request made right after a relay ended on the same connection', async () => {
    const { own, relay } = await ownProvider({});
    try {
      // One after the other, with nothing between them (a fresh provider: no connection in the pool before).
      for (let i = 0; i < 4; i++) expect(await relay()).toBe('kept');
      expect(own.connections).toBe(1);
      expect(own.connectionRequests).toEqual([1, 2, 3, 4]);
    } finally {
      await own.close();
    }
  });

  it('relays an answer whose [DONE] is not followed by its end at once, and closes it 5 s later', async () => {
    const { own, relay } = await ownProvider({ openAfterDone: true });
    try {
      const t0 = performance.now();
      expect(await relay()).toBe('kept');
      // The relay does not wait for the end that never comes...
      expect(performance.now() - t0).toBeLessThan(2000);
      // ...and the answer still holds its connection: the next request goes out on another one.
      expect(await relay()).toBe('kept');
      expect(own.connections).toBe(2);
      expect(own.open).toBe(2);
      // 5 s after their [DONE], both answers are closed by the client (none is left to a provider that never ends).
      await pause(5500);
      expect(own.open).toBe(0);
    } finally {
      await own.close();
    }
  }, 15_000);

  it('relays a platform model whose base URL has a query through the SDK, keeping the query and the connection', async () => {
    const { own } = await ownProvider({ chunks: ['With', ' a query'] });
    try {
      const relay = async () => {
        const seen: ProviderChunk[] = [];
        await provider.relay(request({ baseURL: `${own.baseURL}?api-version=2024-06-01` }), (c) => seen.push(c));
        return seen.filter((c) => c.type === 'delta').map((c) => (c as { text: string }).text).join('');
      };
      expect(await relay()).toBe('With a query');
      await pause(50);
      expect(await relay()).toBe('With a query');
      expect(own.urls).toEqual(['/v1/chat/completions?api-version=2024-06-01', '/v1/chat/completions?api-version=2024-06-01']);
      // Read to its [DONE], the answer's connection went back to the pool.
      expect(own.connectionRequests).toEqual([1, 2]);
    } finally {
      await own.close();
    }
  });

  it("sends a platform model's request as the SDK would (URL, body, key) and fails as the SDK does", async () => {
    const viaSdk = { transport: { key: 'plain', fetch: globalThis.fetch, fetchOptions: {} } };
    const run = async (over: Partial<ChatRequest>) => {
      const seen: ProviderChunk[] = [];
      try {
        await provider.relay({ ...request(), apiKey: 'sk-platform', ...over }, (c) => seen.push(c));
        return { seen, end: 'ok' };
      } catch (error) {
        return { seen, end: (error as ProviderFailure).code };
      }
    };
    for (const baseURL of [stub.baseURL, `${stub.baseURL}/`]) {
      stub.set({ chunks: ['Same', ' request'] });
      const direct = await run({ model: { ...model, baseURL } });
      const sdk = await run({ model: { ...model, baseURL }, custom: viaSdk });
      expect(direct).toEqual(sdk);
      expect(stub.bodies.slice(-2)[0]).toEqual(stub.bodies.slice(-2)[1]);
      expect(stub.keys.slice(-2)).toEqual(['sk-platform', 'sk-platform']);
    }
    // A provider that cannot be reached, and one that refuses: PROVIDER_ERROR, nothing relayed.
    expect(await run({ model: { ...model, baseURL: 'http://127.0.0.1:9/v1' } })).toEqual({ seen: [], end: ErrorCode.PROVIDER_ERROR });
    stub.set({ httpStatus: 429 });
    expect(await run({})).toEqual({ seen: [], end: ErrorCode.PROVIDER_ERROR });
  });
});
