/**
 * The per-chunk cost of reading a provider's stream, in this process's CPU time: K streams at once from
 * the stub (in a process of its own), each CHUNKS chunks CHUNK_MS apart, read by
 *   - `provider`: ChatProvider.stream (what a turn, a task, a summary fold and a picture prompt read),
 *   - `sdk`: the openai SDK's stream read bare (`for await` over `chat.completions.create({stream})`):
 *     what ChatProvider wraps, so provider minus sdk is what the wrapper costs,
 *   - `raw`: the floor, the same request through undici with its body counted, nothing parsed,
 * each in its rounds, alternating. With BENCH_ALS=1 every stream runs inside an AsyncLocalStorage
 * context, as a request's work does under nestjs-pino (promise hooks on). Prints microseconds of CPU
 * per chunk (median of rounds); never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:provider     (BENCH_K=200, BENCH_ROUNDS=6, BENCH_CHUNKS=200, BENCH_CHUNK_MS=20, BENCH_ALS)
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { request } from 'undici';
import { ChatProvider, providerClient } from '../src/models/chat-provider';

const K = Number(process.env.BENCH_K ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 200);
const CHUNK_MS = Number(process.env.BENCH_CHUNK_MS ?? 20);
const als = process.env.BENCH_ALS ? new AsyncLocalStorage<object>() : null;

async function startStub(): Promise<{ baseURL: string; stop(): void }> {
  const child = fork(join(__dirname, 'support', 'stub-process.ts'), [], { execArgv: ['-r', '@swc-node/register'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const baseURL = await new Promise<string>((done) => child.once('message', (m: { url: string }) => done(m.url)));
  await new Promise<void>((done) => {
    child.once('message', () => done());
    child.send({ set: { chunks: Array.from({ length: CHUNKS }, (_, i) => ` word${i}`), delayMs: CHUNK_MS, firstDelayMs: 50 } });
  });
  return { baseURL, stop: () => child.disconnect() };
}

type Reader = (baseURL: string) => Promise<number>;

const messages = [{ role: 'user' as const, content: 'Go on.' }];
const model = (baseURL: string) => ({ baseURL, model: 'free', enableReasoning: false });

const readers: Record<string, Reader> = {
  provider: async (baseURL) => {
    let n = 0;
    for await (const chunk of new ChatProvider().stream({ model: model(baseURL), apiKey: '', messages, maxTokens: 512, idleTimeoutMs: 60_000 })) {
      if (chunk.type === 'delta') n++;
    }
    return n;
  },
  sdk: async (baseURL) => {
    let n = 0;
    const client = sdkClients.get(baseURL) ?? (await providerClient(baseURL, ''));
    sdkClients.set(baseURL, client);
    const stream = await client.chat.completions.create({ model: 'free', messages, max_tokens: 512, stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) if (chunk.choices?.[0]?.delta?.content) n++;
    return n;
  },
};
const sdkClients = new Map<string, Awaited<ReturnType<typeof providerClient>>>();

// The floor: the same request through undici, its body read and counted, nothing parsed.
readers.raw = async (baseURL) => {
  const res = await request(`${baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'free', messages, max_tokens: 512, stream: true, stream_options: { include_usage: true } }),
  });
  let n = 0;
  for await (const bytes of res.body) {
    const text = (bytes as Buffer).toString('utf8');
    for (let at = text.indexOf('"content":" word'); at !== -1; at = text.indexOf('"content":" word', at + 1)) n++;
  }
  return n;
};

async function round(name: string, baseURL: string): Promise<number> {
  const cpu0 = process.cpuUsage();
  const counts = await Promise.all(Array.from({ length: K }, () => (als ? als.run({ request: name }, () => readers[name](baseURL)) : readers[name](baseURL))));
  const used = process.cpuUsage(cpu0);
  const chunks = counts.reduce((a, b) => a + b, 0);
  if (chunks !== K * CHUNKS) throw new Error(`${name}: ${chunks} chunks, expected ${K * CHUNKS}`);
  return (used.user + used.system) / chunks;
}

export async function run(): Promise<void> {
  const stub = await startStub();
  try {
    const results: Record<string, number[]> = { provider: [], sdk: [], raw: [] };
    // Warm-up (JIT), not counted.
    for (const name of Object.keys(readers)) await round(name, stub.baseURL);
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of r % 2 ? ['sdk', 'provider', 'raw'] : ['raw', 'provider', 'sdk']) results[name].push(await round(name, stub.baseURL));
    }
    const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
    console.log(`Provider stream read, ${K} streams x ${CHUNKS} chunks ${CHUNK_MS} ms apart${als ? ', inside an AsyncLocalStorage context' : ''}: CPU per chunk (this process)`);
    for (const [name, v] of Object.entries(results)) console.log(`   ${name.padEnd(9)} median ${med(v).toFixed(1)} us   (rounds: ${v.map((x) => x.toFixed(1)).join(', ')})`);
    console.log(`   provider / sdk: ${(med(results.provider) / med(results.sdk)).toFixed(2)}x`);
  } finally {
    stub.stop();
  }
}

if (require.main === module) {
  run()
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
