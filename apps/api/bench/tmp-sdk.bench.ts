import OpenAI from 'openai';
import { Agent, request } from 'undici';
import { startOpenAIStub } from '../test/support/openai-stub';
const agent = new Agent({ keepAliveTimeout: 60_000, connections: 2000 });
const nodeBodyFetch = async (url: any, init: any = {}): Promise<Response> => {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => (headers[k] = v));
  const res = await request(String(url), { method: init.method ?? 'GET', headers, body: init.body ?? undefined, signal: init.signal ?? undefined, dispatcher: agent });
  const outHeaders = new Headers();
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) outHeaders.set(k, Array.isArray(v) ? v.join(', ') : String(v));
  const response = new Response(null, { status: res.statusCode, headers: outHeaders });
  Object.defineProperty(response, 'body', { value: res.body });
  return response;
};
async function main() {
  const stub = await startOpenAIStub();
  stub.set({ delayMs: 0, chunks: Array(40).fill('xyz') });
  const body = { model: 'free', stream: true as const, messages: [{ role: 'user' as const, content: 'Go' }] };
  const clients: Record<string, OpenAI> = {
    global: new OpenAI({ baseURL: stub.baseURL, apiKey: 'x', maxRetries: 0 }),
    nodebody: new OpenAI({ baseURL: stub.baseURL, apiKey: 'x', maxRetries: 0, fetch: nodeBodyFetch as never }),
  };
  for (const round of [1, 2]) for (const [k, c] of Object.entries(clients)) {
    const cpu0 = process.cpuUsage(); const t0 = performance.now(); let chunks = 0;
    await Promise.all(Array.from({ length: 200 }, async () => {
      const s = await c.chat.completions.create(body);
      for await (const ch of s) if (ch.choices?.[0]?.delta?.content) chunks++;
    }));
    const cpu = process.cpuUsage(cpu0); 
    if (round === 2) console.log(k.padEnd(10), 'chunks', chunks, 'wall ms', (performance.now() - t0).toFixed(0), 'cpu ms (incl. stub)', ((cpu.user + cpu.system) / 1000).toFixed(0));
  }
  await stub.close();
}
main();
