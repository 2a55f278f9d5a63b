import { ErrorCode } from '@taleloom/contracts/error-code';
import { parentPort } from 'node:worker_threads';
import { ChatProvider, ProviderFailure } from './chat-provider';
import { warmOpenAI } from './openai-sdk';
import { DONE_EVENT, FAIL_EVENT, REASONING_EVENT, TEXT_EVENT, USAGE_EVENT, type RelayOrder, type ThreadEvent } from './provider-thread.events';

// The provider thread (provider-thread.ts): platform models' answers are read and parsed here, and their
// chunks go to the app's thread together, one message for all those one turn of this thread's loop read.
const provider = new ChatProvider();
// The SDK is loaded as the thread starts, not by its first relay.
warmOpenAI();
const running = new Map<number, AbortController>();
// The events not posted yet; a post is due on the next check phase while there are any.
let outbox: ThreadEvent[] = [];

const post = () => {
  const events = outbox;
  outbox = [];
  parentPort!.postMessage(events);
};

const tell = (event: ThreadEvent) => {
  if (outbox.push(event) === 1) setImmediate(post);
};

const take = (order: RelayOrder) => {
  if (order.op === 'abort') {
    running.get(order.id)?.abort();
    return;
  }
  const { id, req } = order;
  const abort = new AbortController();
  running.set(id, abort);
  provider
    .relay({ ...req, signal: abort.signal }, (chunk) => {
      if (chunk.type === 'delta') tell([id, TEXT_EVENT, chunk.text]);
      else if (chunk.type === 'reasoning') tell([id, REASONING_EVENT, chunk.text]);
      else tell([id, USAGE_EVENT, chunk.promptTokens, chunk.completionTokens]);
    })
    .then(
      () => tell([id, DONE_EVENT]),
      (error: unknown) => {
        const failure = error instanceof ProviderFailure ? error : new ProviderFailure(ErrorCode.PROVIDER_ERROR, String(error));
        tell([id, FAIL_EVENT, failure.code, failure.message, failure.status ?? 0]);
      },
    )
    .finally(() => running.delete(id));
};

// The app's thread posts the orders of one turn of its loop together.
parentPort?.on('message', (orders: RelayOrder[]) => {
  for (const order of orders) take(order);
});
