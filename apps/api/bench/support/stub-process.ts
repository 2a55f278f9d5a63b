// The local OpenAI-compatible stub in a process of its own (forked with IPC), so its timers and writes
// do not share an event loop with the benchmark's clients. Messages:
//   parent -> { set: StubBehaviour }          replaces the behaviour; answered { ok: true }
//   parent -> { lastBody: true }              answered { body } (the last chat request's body)
//   parent -> { stats: true }                 answered { requests, open }
//   parent -> { arrivals: true }              answered { arrivals }: wall-clock times (ms) at which the chat
//                                             requests since the last call came in, then forgotten
// It says `{ url }` once it listens, and exits when the parent goes away.
import { defaultStubChunks, startOpenAIStub, wallClock, type StubBehaviour, type StubRequestBody } from '../../test/support/openai-stub';

type Message = { set?: StubBehaviour; lastBody?: true; stats?: true; arrivals?: true };

async function main(): Promise<void> {
  let arrivals: number[] = [];
  let behaviour: StubBehaviour = {};
  const stub = await startOpenAIStub();
  // A request's arrival is when its body has been read (the stub's chunks() is called then).
  const chunksOf = (body: StubRequestBody, n: number): string[] => {
    arrivals.push(wallClock());
    const c = behaviour.chunks;
    return typeof c === 'function' ? c(body, n) : (c ?? defaultStubChunks(body, n));
  };
  process.on('message', (m: Message) => {
    if (m.set) {
      behaviour = m.set;
      stub.set({ ...m.set, chunks: chunksOf });
      process.send!({ ok: true });
    } else if (m.lastBody) {
      process.send!({ body: stub.bodies.at(-1) ?? null });
    } else if (m.arrivals) {
      process.send!({ arrivals });
      arrivals = [];
    } else if (m.stats) {
      process.send!({ requests: stub.requests, open: stub.open });
    }
  });
  process.on('disconnect', () => void stub.close().finally(() => process.exit(0)));
  process.send!({ url: stub.baseURL });
}

void main();
