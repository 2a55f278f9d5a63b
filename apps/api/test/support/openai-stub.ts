// A local OpenAI-compatible chat-completions server for tests and benchmarks: real HTTP on 127.0.0.1,
// so the app's SDK code path is exercised as with a real provider. Node built-ins only, so jest (API
// tests), vitest (browser tests) and the benchmarks can all import it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubBehaviour {
  /** The reply, cut into chunks; a function gets the request body and the request number (1-based). */
  chunks?: string[] | ((body: StubRequestBody, n: number) => string[]);
  /** Reasoning chunks sent before the reply (as `reasoning_content`). */
  reasoning?: string[];
  /** Delay before the first chunk and between chunks, in ms. */
  firstDelayMs?: number;
  delayMs?: number;
  /** After this many reply chunks: break off ('destroy' the socket, or send an 'error' event). */
  failAfter?: number;
  failMode?: 'destroy' | 'error-event';
  /** Answer with this HTTP status and an error body instead of a stream. */
  httpStatus?: number;
  /** completion_tokens reported in usage (default: the number of chunks). */
  completionTokens?: number;
  /** Each chunk's text is replaced by the wall-clock time it was sent (`t=<ms>;`), for latency benchmarks. */
  stamp?: boolean;
  /** Only this bearer key is accepted; others get 401 (as a provider with a wrong key). */
  requireKey?: string;
  /** The models `GET /models` lists; a completion for another model gets 404 model_not_found. Unset: no list (404). */
  models?: string[];
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export const wallClock = () => performance.timeOrigin + performance.now();

export interface StubRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
  stream_options?: { include_usage?: boolean };
}

export interface OpenAIStub {
  baseURL: string;
  /** Requests received so far (every POST to /chat/completions). */
  readonly requests: number;
  readonly bodies: StubRequestBody[];
  /** The bearer keys of the requests so far (every request, lists included). */
  readonly keys: string[];
  /** Streams currently open. */
  readonly open: number;
  /** Replaces the behaviour for the following requests. */
  set(behaviour: StubBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

/** Markers a prompt may carry (e.g. typed in a browser test) to steer the default behaviour. */
export const STUB_MARKERS = { fail: '[[fail]]', slow: '[[slow]]', reason: '[[reason]]' } as const;

const lastUser = (body: StubRequestBody) =>
  [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';

/** The default reply: numbered, so a regenerate is visibly different. */
export function defaultStubChunks(body: StubRequestBody, n: number): string[] {
  const all = (body.messages ?? []).map((m) => m.content).join('\n');
  const fold = /<new-text>([\s\S]*?)<\/new-text>/.exec(all);
  if (fold) return [`Summary ${n}: `, `${fold[1].trim().split(/\s+/).slice(0, 8).join(' ')} …`];
  const zh = /[\u3400-\u9fff]/.test(lastUser(body));
  return zh
    ? [`第${n}段回复：`, '灯光', '闪了', '一下，', '故事', '继续', '向前。']
    : [`Reply ${n}:`, ' The', ' lamp', ' flickered', ' and', ' the', ' story', ' went', ' on.'];
}

export async function startOpenAIStub(initial: StubBehaviour = {}): Promise<OpenAIStub> {
  let behaviour = initial;
  let requests = 0;
  let open = 0;
  const bodies: StubRequestBody[] = [];
  const keys: string[] = [];
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 60_000;
  server.maxConnections = 10_000;

  const fail = (res: ServerResponse, status: number, error: object) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error }));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const key = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    keys.push(key);
    if (keys.length > 200) keys.shift();
    if (behaviour.requireKey !== undefined && key !== behaviour.requireKey) {
      fail(res, 401, { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' });
      return;
    }
    if (req.method === 'GET' && req.url?.endsWith('/models') && behaviour.models) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: behaviour.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'stub' })) }));
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const body = JSON.parse(await readBody(req)) as StubRequestBody;
    const n = ++requests;
    bodies.push(body);
    if (bodies.length > 200) bodies.shift();
    const b = withMarkers(behaviour, lastUser(body));
    if (b.models && !b.models.includes(body.model)) {
      fail(res, 404, { message: `The model \`${body.model}\` does not exist.`, type: 'invalid_request_error', code: 'model_not_found' });
      return;
    }
    if (b.httpStatus) {
      res.writeHead(b.httpStatus, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `stub answered ${b.httpStatus}`, type: 'server_error' } }));
      return;
    }
    const chunks = typeof b.chunks === 'function' ? b.chunks(body, n) : (b.chunks ?? defaultStubChunks(body, n));
    const id = `chatcmpl-stub-${n}`;
    const created = Math.floor(Date.now() / 1000);
    const frame = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    if (!body.stream) {
      if (b.firstDelayMs) await new Promise((r) => setTimeout(r, b.firstDelayMs));
      if (res.destroyed) return;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', created, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: chunks.join('') }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: chunks.length, total_tokens: 1 + chunks.length } }));
      return;
    }
    open++;
    let closed = false;
    res.on('close', () => {
      closed = true;
      open--;
    });
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.write(frame({ role: 'assistant', content: '' }));
    const wait = (ms = 0) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
    await wait(b.firstDelayMs);
    for (const r of b.reasoning ?? []) {
      if (closed) return;
      res.write(frame({ reasoning_content: r }));
      await wait(b.delayMs);
    }
    for (let i = 0; i < chunks.length; i++) {
      if (closed) return;
      if (b.failAfter !== undefined && i === b.failAfter) {
        if (b.failMode === 'error-event') {
          res.end(`data: ${JSON.stringify({ error: { message: 'stub failed mid-stream', type: 'server_error' } })}\n\n`);
        } else {
          // Let what was written reach the client first, as a real connection drop would.
          await wait(20);
          res.destroy();
        }
        return;
      }
      res.write(frame({ content: b.stamp ? `t=${wallClock().toFixed(3)};` : chunks[i] }));
      if (i < chunks.length - 1) await wait(b.delayMs);
    }
    if (closed) return;
    res.write(frame({}, 'stop'));
    const completion = b.completionTokens ?? chunks.length;
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: { prompt_tokens: 10, completion_tokens: completion, total_tokens: 10 + completion } })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    get open() {
      return open;
    },
    bodies,
    keys,
    set: (next) => {
      behaviour = next;
    },
    reset: () => {
      behaviour = initial;
      requests = 0;
      bodies.length = 0;
      keys.length = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function withMarkers(b: StubBehaviour, prompt: string): StubBehaviour {
  let out = b;
  if (prompt.includes(STUB_MARKERS.slow)) out = { ...out, delayMs: 300, firstDelayMs: 300 };
  if (prompt.includes(STUB_MARKERS.fail)) out = { ...out, failAfter: 4, failMode: 'destroy', delayMs: out.delayMs ?? 50 };
  if (prompt.includes(STUB_MARKERS.reason)) out = { ...out, reasoning: ['Thinking', ' about', ' it.'] };
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}
