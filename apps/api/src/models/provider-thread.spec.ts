import { ErrorCode } from '@taleloom/contracts';
import { Worker } from 'node:worker_threads';
import { startOpenAIStub, type OpenAIStub } from '../../test/support/openai-stub';
import { DEMO_MODEL, type PlatformModel } from '../config/platform-models';
import { ChatProvider, ProviderFailure, type ChatRequest, type ProviderChunk } from './chat-provider';
import { ProviderThread } from './provider-thread';

describe('ProviderThread: platform models relayed from a thread of their own, as on the app thread', () => {
  let stub: OpenAIStub;
  let model: PlatformModel;
  let thread: ProviderThread;
  const provider = new ChatProvider();
  const request = (over: Partial<PlatformModel> = {}, idleTimeoutMs = 2000): ChatRequest => ({
    model: { ...model, ...over },
    apiKey: 'platform-key',
    messages: [{ role: 'user', content: 'hello' }],
    maxTokens: 100,
    idleTimeoutMs,
  });
  // What a taker saw: its chunks, then how the relay ended (the failure's code and status).
  const seenThrough = async (relay: (req: ChatRequest, onChunk: (c: ProviderChunk) => void) => Promise<void>, req: ChatRequest) => {
    const seen: ProviderChunk[] = [];
    try {
      await relay(req, (c) => seen.push(c));
      return { seen, end: 'ok' };
    } catch (error) {
      expect(error).toBeInstanceOf(ProviderFailure);
      return { seen, end: (error as ProviderFailure).code, status: (error as ProviderFailure).status };
    }
  };

  beforeAll(async () => {
    stub = await startOpenAIStub();
    model = { ...DEMO_MODEL, value: 'stub', model: 'stub-model', demo: false, baseURL: stub.baseURL };
  });
  beforeEach(() => (thread = new ProviderThread()));
  afterEach(async () => {
    await thread.close();
    stub.reset();
  });
  afterAll(() => stub.close());

  it('hands over what the relay on this thread does, in order, and fails with the same code after the same chunks', async () => {
    const cases: [Parameters<OpenAIStub['set']>[0], Partial<PlatformModel>, number?][] = [
      [{ chunks: ['One', ' two', ' three'] }, {}],
      [{ chunks: ['A', 'B'], reasoning: ['hm', 'm'] }, { enableReasoning: true }],
      [{ chunks: ['<think>', 'Hm.', '</think>\n', 'It opens.'] }, { enableReasoning: true }],
      [{ chunks: ['a', 'b', 'c', 'd'], failAfter: 2 }, {}],
      [{ chunks: ['a', 'b'], failAfter: 1, failMode: 'error-event' }, {}],
      [{ chunks: ['a', 'b'], failAfter: 1, failMode: 'non-json' }, {}],
      [{ chunks: ['a', 'b', 'c'], failAfter: 2, failMode: 'cut' }, {}],
      [{ httpStatus: 500 }, {}],
      [{ chunks: ['a', 'b'], stallAfter: 1, stallWith: 'empty-chunks' }, {}, 300],
    ];
    for (const [behaviour, over, idle] of cases) {
      const req = request(over, idle ?? 2000);
      stub.set(behaviour);
      const here = await seenThrough((r, c) => provider.relay(r, c), req);
      stub.set(behaviour);
      expect({ behaviour, ...(await seenThrough((r, c) => thread.relay(r, c), req)) }).toEqual({ behaviour, ...here });
    }
    // The request it made is the platform model's, with the key and the length field.
    stub.set({ chunks: ['x'] });
    await thread.relay(request(), () => undefined);
    expect(stub.bodies.at(-1)).toMatchObject({ model: 'stub-model', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hello' }] });
    expect(stub.keys.at(-1)).toBe('platform-key');
    expect(thread.running).toBe(0);
  });

  it('relays many streams at once, each its own text in order', async () => {
    stub.set({ chunks: ['a', 'b', 'c', 'd', 'e'], delayMs: 5 });
    const texts = await Promise.all(
      Array.from({ length: 40 }, async () => {
        let text = '';
        await thread.relay(request(), (c) => {
          if (c.type === 'delta') text += c.text;
        });
        return text;
      }),
    );
    expect(new Set(texts)).toEqual(new Set(['abcde']));
  });

  it('posts the orders of one turn of the loop in one message; one that cannot be copied fails only its own relay', async () => {
    stub.set({ chunks: ['a', 'b'] });
    thread.warm();
    const posted = jest.spyOn(Worker.prototype, 'postMessage');
    try {
      const uncopyable = { ...request(), messages: [{ role: 'user' as const, content: (() => 'x') as unknown as string }] };
      const relays = [...Array.from({ length: 9 }, () => request()), uncopyable].map((req) => seenThrough((r, c) => thread.relay(r, c), req));
      const ends = await Promise.all(relays);
      expect(ends.slice(0, 9).map((e) => e.end)).toEqual(Array(9).fill('ok'));
      expect(ends[9]).toMatchObject({ seen: [], end: ErrorCode.PROVIDER_ERROR });
      // One message for the ten, then each alone once the copy of the ten failed.
      expect(posted.mock.calls[0][0]).toHaveLength(10);
      expect(posted.mock.calls.slice(1).map(([orders]) => (orders as unknown[]).length)).toEqual(Array(10).fill(1));
    } finally {
      posted.mockRestore();
    }
    expect(thread.running).toBe(0);
  });

  it('times out a quiet provider with PROVIDER_TIMEOUT', async () => {
    stub.set({ chunks: ['a', 'b'], delayMs: 1000 });
    expect((await seenThrough((r, c) => thread.relay(r, c), request({}, 200))).end).toBe(ErrorCode.PROVIDER_TIMEOUT);
  });

  it("stops the provider's answer when the caller aborts, or when the taker of a chunk throws", async () => {
    stub.set({ chunks: ['a', 'b', 'c'], delayMs: 300 });
    const abort = new AbortController();
    const seen: ProviderChunk[] = [];
    const relayed = thread.relay({ ...request(), signal: abort.signal }, (c) => {
      seen.push(c);
      abort.abort();
    });
    await expect(relayed).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    expect(seen).toEqual([{ type: 'delta', text: 'a' }]);
    // Aborted before it started: nothing is asked.
    const before = stub.requests;
    const gone = new AbortController();
    gone.abort();
    await expect(thread.relay({ ...request(), signal: gone.signal }, () => undefined)).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    expect(stub.requests).toBe(before);
    // A taker that throws: the relay fails with its message, and nothing more comes.
    const taken: ProviderChunk[] = [];
    const refused = thread.relay(request(), (c) => {
      taken.push(c);
      throw new Error('the socket is gone');
    });
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR, message: 'the socket is gone' });
    await new Promise((r) => setTimeout(r, 800));
    expect(taken).toHaveLength(1);
    expect(thread.running).toBe(0);
  });

  it('fails the relays it held with PROVIDER_ERROR when the thread stops, and starts another for the next', async () => {
    stub.set({ chunks: ['a', 'b', 'c'], delayMs: 200 });
    const seen: ProviderChunk[] = [];
    const held = thread.relay(request(), (c) => seen.push(c));
    await new Promise((r) => setTimeout(r, 100));
    await thread.close();
    await expect(held).rejects.toMatchObject({ code: ErrorCode.PROVIDER_ERROR });
    stub.set({ chunks: ['One', ' two'] });
    expect(await seenThrough((r, c) => thread.relay(r, c), request())).toEqual({
      seen: [
        { type: 'delta', text: 'One' },
        { type: 'delta', text: ' two' },
        { type: 'usage', promptTokens: 10, completionTokens: 2 },
      ],
      end: 'ok',
    });
  });
});
