import cluster from 'node:cluster';
import type { AppConfig } from '../config/app-config';
import { DEMO_MODEL } from '../config/platform-models';
import type { ChatRequest, ProviderTransport } from './chat-provider';
import { APP_THREAD_RELAYS, ModelsService, providerThreadWanted } from './models.service';
import { ProviderThread } from './provider-thread';

describe('ModelsService.relay: which thread reads a platform model’s answer (PROVIDER_THREAD)', () => {
  const request = (custom = false): ChatRequest => ({
    model: DEMO_MODEL,
    apiKey: '',
    messages: [{ role: 'user', content: 'hello' }],
    maxTokens: 10,
    idleTimeoutMs: 1000,
    ...(custom ? { custom: { transport: { key: 'guarded', fetch: globalThis.fetch, fetchOptions: {} } satisfies ProviderTransport } } : {}),
  });
  const serviceFor = (mode: 'auto' | 'on' | 'off') => {
    const service = new ModelsService({ models: [], env: { PROVIDER_THREAD: mode } } as unknown as AppConfig);
    // Relays held open until `end`: on this thread (ChatProvider) and on the provider thread.
    const ends: (() => void)[] = [];
    const held = () => new Promise<void>((resolve) => ends.push(resolve));
    const here = jest.spyOn(service.provider, 'relay').mockImplementation(held);
    const thread = jest.spyOn(ProviderThread.prototype, 'relay').mockImplementation(held);
    return { service, here, thread, end: () => ends.shift()!() };
  };
  afterEach(() => jest.restoreAllMocks());

  it('auto: on this thread while fewer than APP_THREAD_RELAYS run here, on the provider thread beyond; a custom model always here', async () => {
    const { service, here, thread, end } = serviceFor('auto');
    const relays = Array.from({ length: APP_THREAD_RELAYS }, () => service.relay(request(), () => undefined));
    expect(here).toHaveBeenCalledTimes(APP_THREAD_RELAYS);
    expect(thread).not.toHaveBeenCalled();
    relays.push(service.relay(request(), () => undefined));
    expect(thread).toHaveBeenCalledTimes(1);
    expect(service.relaysHere).toBe(APP_THREAD_RELAYS);
    // A user's own model stays here (its transport guards the addresses it may reach), however many run.
    relays.push(service.relay(request(true), () => undefined));
    expect(here).toHaveBeenCalledTimes(APP_THREAD_RELAYS + 1);
    // It counts among those read here: with two ended, the next is read here again.
    expect(service.relaysHere).toBe(APP_THREAD_RELAYS + 1);
    end();
    end();
    await new Promise((r) => setImmediate(r));
    expect(service.relaysHere).toBe(APP_THREAD_RELAYS - 1);
    relays.push(service.relay(request(), () => undefined));
    expect(thread).toHaveBeenCalledTimes(1);
    expect(here).toHaveBeenCalledTimes(APP_THREAD_RELAYS + 2);
  });

  it('on: every platform relay on the provider thread; off: none', () => {
    const on = serviceFor('on');
    on.service.relay(request(), () => undefined);
    on.service.relay(request(true), () => undefined);
    expect(on.thread).toHaveBeenCalledTimes(1);
    expect(on.here).toHaveBeenCalledTimes(1);
    jest.restoreAllMocks();
    const off = serviceFor('off');
    for (let i = 0; i < APP_THREAD_RELAYS + 5; i++) off.service.relay(request(), () => undefined);
    expect(off.thread).not.toHaveBeenCalled();
    expect(off.here).toHaveBeenCalledTimes(APP_THREAD_RELAYS + 5);
  });

  it('auto in the processes of API_WORKERS: no provider thread, every relay on the process’s own thread; on: the thread there too', () => {
    expect(providerThreadWanted('auto', false)).toBe(true);
    expect(providerThreadWanted('auto', true)).toBe(false);
    expect(providerThreadWanted('on', true)).toBe(true);
    expect(providerThreadWanted('off', false)).toBe(false);
    jest.replaceProperty(cluster, 'isWorker', true);
    const worker = serviceFor('auto');
    for (let i = 0; i < APP_THREAD_RELAYS + 5; i++) worker.service.relay(request(), () => undefined);
    expect(worker.thread).not.toHaveBeenCalled();
    expect(worker.here).toHaveBeenCalledTimes(APP_THREAD_RELAYS + 5);
    jest.restoreAllMocks();
    jest.replaceProperty(cluster, 'isWorker', true);
    const on = serviceFor('on');
    on.service.relay(request(), () => undefined);
    expect(on.thread).toHaveBeenCalledTimes(1);
  });
});
