// The local OpenAI-compatible stub in a process of its own (forked with IPC), so its timers and writes
// do not share an event loop with the benchmark's clients. Messages:
//   parent -> { set: StubBehaviour }          replaces the behaviour; answered { ok: true }
//   parent -> { lastBody: true }              answered { body } (the last chat request's body)
//   parent -> { stats: true }                 answered { requests, open }
// It says `{ url }` once it listens, and exits when the parent goes away.
import { startOpenAIStub, type StubBehaviour } from '../../test/support/openai-stub';

type Message = { set?: StubBehaviour; lastBody?: true; stats?: true };

async function main(): Promise<void> {
  const stub = await startOpenAIStub();
  process.on('message', (m: Message) => {
    if (m.set) {
      stub.set(m.set);
      process.send!({ ok: true });
    } else if (m.lastBody) {
      process.send!({ body: stub.bodies.at(-1) ?? null });
    } else if (m.stats) {
      process.send!({ requests: stub.requests, open: stub.open });
    }
  });
  process.on('disconnect', () => void stub.close().finally(() => process.exit(0)));
  process.send!({ url: stub.baseURL });
}

void main();
