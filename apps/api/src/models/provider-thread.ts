import { ErrorCode } from '@taleloom/contracts/error-code';
import { join } from 'node:path';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { workerEntry } from '../common/worker-thread';
import { ProviderFailure, type ChatRequest, type ProviderChunk } from './chat-provider';
import { DONE_EVENT, FAIL_EVENT, TEXT_EVENT, USAGE_EVENT, type RelayOrder, type ThreadEvent } from './provider-thread.events';

interface Relay {
  onChunk: (chunk: ProviderChunk) => void;
  done: () => void;
  fail: (failure: ProviderFailure) => void;
}

/**
 * Platform models' streamed answers read on a thread of their own: the provider's socket, undici's
 * HTTP parsing, the server-sent events and their JSON (ChatProvider.relay, as on the app's thread), so
 * the app's thread only writes the chunks to the players. The chunks one turn of the provider thread's
 * loop read (every stream's) come over in one message. Same contract as ChatProvider.relay: the chunks
 * in order, then the promise resolves, or rejects with the ProviderFailure the relay failed with. A
 * user's own model (its transport guards the addresses it may reach) stays on the app's thread.
 *
 * The thread starts at start-up (warm) or with the first relay, and does not keep the process alive while nothing streams;
 * one that stops (a crash) fails the relays it held with PROVIDER_ERROR, and the next relay starts another.
 */
export class ProviderThread {
  private worker: Worker | null = null;
  private lastId = 0;
  private readonly relays = new Map<number, Relay>();
  // The orders not posted yet: those of one turn of this thread's loop go over in one message (a
  // message a send cost the app's thread about 80 µs in a 500-stream burst: the copy, and waking the thread).
  private orders: RelayOrder[] = [];

  constructor(private readonly file = join(__dirname, 'provider.worker')) {}

  /** Relays running now. */
  get running(): number {
    return this.relays.size;
  }

  relay(req: ChatRequest, onChunk: (chunk: ProviderChunk) => void): Promise<void> {
    const { signal } = req;
    if (signal?.aborted) return Promise.reject(new ProviderFailure(ErrorCode.PROVIDER_ERROR, 'aborted'));
    const worker = this.worker ?? this.start();
    const id = ++this.lastId;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => this.order({ op: 'abort', id });
      const forget = () => {
        this.relays.delete(id);
        signal?.removeEventListener('abort', onAbort);
        if (!this.relays.size) worker.unref();
      };
      this.relays.set(id, {
        onChunk,
        done: () => {
          forget();
          resolve();
        },
        fail: (failure) => {
          forget();
          reject(failure);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.ref();
      const { model, apiKey, messages, maxTokens, idleTimeoutMs } = req;
      const order: RelayOrder = {
        op: 'relay',
        id,
        // The model's fields the request is made of (a platform model's object holds more).
        req: { model: { baseURL: model.baseURL, model: model.model, enableReasoning: model.enableReasoning }, apiKey, messages, maxTokens, idleTimeoutMs },
      };
      this.order(order);
    });
  }

  /** Starts the thread now (at start-up), so that the first turn does not wait for it to load. */
  warm(): void {
    if (!this.worker) this.start();
  }

  /** Stops the thread; the relays it held fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.orders = [];
    this.failAll(new ProviderFailure(ErrorCode.PROVIDER_ERROR, 'the provider thread was stopped'));
    await worker?.terminate();
  }

  private start(): Worker {
    const [entry, options] = workerEntry(this.file);
    // The environment shared: the provider headers the SDK takes from it (OPENAI_ORG_ID) as on this thread.
    const worker = new Worker(entry, { ...options, env: SHARE_ENV });
    worker.unref();
    worker.on('message', (events: ThreadEvent[]) => {
      for (const event of events) this.take(worker, event);
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      // Its relays fail below; orders not posted yet were theirs.
      this.orders = [];
      this.failAll(new ProviderFailure(ErrorCode.PROVIDER_ERROR, `the provider thread stopped: ${error.message}`));
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }

  // Posted on the check phase of this turn of the loop, with the others of the same turn.
  private order(order: RelayOrder): void {
    if (this.orders.push(order) === 1) setImmediate(this.post);
  }

  private readonly post = (): void => {
    const orders = this.orders;
    this.orders = [];
    const worker = this.worker;
    if (!worker || !orders.length) return;
    try {
      worker.postMessage(orders);
    } catch {
      // An order that cannot be copied to the thread (nothing of a chat request should be such): each is
      // posted alone, and a relay whose own order fails fails as a provider error.
      for (const order of orders) {
        try {
          worker.postMessage([order]);
        } catch (error) {
          if (order.op === 'relay') this.relays.get(order.id)?.fail(new ProviderFailure(ErrorCode.PROVIDER_ERROR, error instanceof Error ? error.message : String(error)));
        }
      }
    }
  };

  private take(worker: Worker, event: ThreadEvent): void {
    const relay = this.relays.get(event[0]);
    if (!relay) return;
    if (event[1] === DONE_EVENT) return relay.done();
    if (event[1] === FAIL_EVENT) return relay.fail(new ProviderFailure(event[2], event[3], event[4] || undefined));
    try {
      relay.onChunk(event[1] === USAGE_EVENT ? { type: 'usage', promptTokens: event[2], completionTokens: event[3] } : { type: event[1] === TEXT_EVENT ? 'delta' : 'reasoning', text: event[2] });
    } catch (error) {
      // As on this thread: a chunk its taker refused stops the relay, which fails with it.
      this.order({ op: 'abort', id: event[0] });
      relay.fail(new ProviderFailure(ErrorCode.PROVIDER_ERROR, error instanceof Error ? error.message : String(error)));
    }
  }

  private failAll(failure: ProviderFailure): void {
    const relays = [...this.relays.values()];
    this.relays.clear();
    for (const relay of relays) relay.fail(failure);
  }
}
