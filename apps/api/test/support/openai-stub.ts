// A local OpenAI-compatible chat-completions (and images/generations) server for tests and benchmarks: real HTTP on 127.0.0.1,
// so the app's SDK code path is exercised as with a real provider. Node built-ins only, so the API tests,
// the browser tests and the benchmarks can all import it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  isTaskRequest,
  lastUser,
  MALFORMED_TASK_ANSWER,
  pieces,
  STUB_WEBP,
  defaultStubChunks,
  stubPng,
} from './openai-stub-answers';
import {
  STUB_MARKERS,
  withMarkers,
  type StubBehaviour,
  type StubImageRequestBody,
  type StubRequestBody,
} from './openai-stub-behaviour';

export { defaultStubChunks, stubPng, stubTaskAnswer } from './openai-stub-answers';
export { longStubChunks, STUB_MARKERS } from './openai-stub-behaviour';
export type { ImageStubBehaviour, StubBehaviour, StubImageRequestBody, StubRequestBody } from './openai-stub-behaviour';

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export const wallClock = () => performance.timeOrigin + performance.now();

export interface OpenAIStub {
  baseURL: string;
  /** The path (with its query) of each request to /chat/completions (the last 200). */
  readonly urls: string[];
  /** Requests received so far (every POST to /chat/completions). */
  readonly requests: number;
  readonly bodies: StubRequestBody[];
  /** The bearer keys of the requests so far (every request, lists included), and their headers. */
  readonly keys: string[];
  readonly headers: IncomingMessage['headers'][];
  /** Streams currently open. */
  readonly open: number;
  /** TCP connections accepted so far (a client that keeps its connections alive opens few). */
  readonly connections: number;
  /** For each request to /chat/completions (the last 200), which request of its connection it was (1: the first). */
  readonly connectionRequests: number[];
  /** Requests to /images/generations so far, and their bodies. */
  readonly imageRequests: number;
  readonly imageBodies: StubImageRequestBody[];
  /** Replaces the behaviour for the following requests. */
  set(behaviour: StubBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startOpenAIStub(initial: StubBehaviour = {}): Promise<OpenAIStub> {
  let behaviour = initial;
  let malformedLeft = initial.malformedTasks ?? 0;
  let requests = 0;
  let open = 0;
  let connections = 0;
  const bodies: StubRequestBody[] = [];
  let imageRequests = 0;
  const imageBodies: StubImageRequestBody[] = [];
  const served = new Map<string, Buffer>();
  const keys: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const connectionRequests: number[] = [];
  const urls: string[] = [];
  const servedOn = new WeakMap<object, number>();
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  // No timeout, no Keep-Alive header, when the behaviour asks the stub to say nothing of it.
  const keepAlive = (b: StubBehaviour) => {
    server.keepAliveTimeout = b.keepAliveHint === false ? 0 : 60_000;
  };
  keepAlive(initial);
  server.maxConnections = 10_000;

  const fail = (res: ServerResponse, status: number, error: object) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error }));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url && served.has(req.url)) {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(served.get(req.url));
      return;
    }
    if (req.method === 'POST' && req.url?.endsWith('/images/generations')) return handleImage(req, res);
    const key = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    keepLast(keys, key);
    keepLast(headers, req.headers);
    if (behaviour.requireKey !== undefined && key !== behaviour.requireKey) {
      fail(res, 401, { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' });
      return;
    }
    if (req.method === 'GET' && req.url?.endsWith('/models') && behaviour.models) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: behaviour.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'stub' })) }));
      return;
    }
    // A query (an api-version) may follow the path.
    if (req.method !== 'POST' || !req.url?.split('?')[0].endsWith('/chat/completions')) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const body = JSON.parse(await readBody(req)) as StubRequestBody;
    const n = ++requests;
    keepLast(bodies, body);
    const nth = (servedOn.get(req.socket) ?? 0) + 1;
    servedOn.set(req.socket, nth);
    keepLast(connectionRequests, nth);
    keepLast(urls, req.url);
    if (behaviour.resetReusedConnections && nth > 1) {
      req.socket.destroy();
      return;
    }
    let b = withMarkers(behaviour, lastUser(body));
    if (b.models && !b.models.includes(body.model)) {
      fail(res, 404, { message: `The model \`${body.model}\` does not exist.`, type: 'invalid_request_error', code: 'model_not_found' });
      return;
    }
    if (b.refuseMaxTokens && body.max_tokens !== undefined) {
      fail(res, 400, {
        message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        type: 'invalid_request_error',
        param: 'max_tokens',
        code: 'unsupported_parameter',
      });
      return;
    }
    if (isTaskRequest(body) && (malformedLeft > 0 || lastUser(body).includes(STUB_MARKERS.malformed))) {
      if (malformedLeft > 0) malformedLeft--;
      b = { ...b, chunks: pieces(MALFORMED_TASK_ANSWER, 16) };
    }
    if (b.httpStatus) {
      res.writeHead(b.httpStatus, { 'Content-Type': b.httpContentType ?? 'application/json' });
      res.end(b.httpBody ?? JSON.stringify({ error: { message: `stub answered ${b.httpStatus}`, type: 'server_error' } }));
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
    res.writeHead(200, { 'Content-Type': b.streamContentType ?? 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
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
      if (b.stallAfter !== undefined && i === b.stallAfter) {
        // Quiet until the client gives up; keep-alive traffic, if any, carries no text.
        while (!closed) {
          if (b.stallWith === 'comments') res.write(': keep-alive\n\n');
          else if (b.stallWith === 'empty-chunks') res.write(frame({ content: '' }));
          await wait(50);
        }
        return;
      }
      if (b.failAfter !== undefined && i === b.failAfter) {
        if (b.failMode === 'error-event') {
          res.end(`data: ${JSON.stringify({ error: { message: 'stub failed mid-stream', type: 'server_error' } })}\n\n`);
        } else if (b.failMode === 'non-json') {
          res.end('data: <html>upstream hiccup</html>\n\n');
        } else if (b.failMode === 'truncated-json') {
          res.end(frame({ content: chunks[i] }).slice(0, 40));
        } else if (b.failMode === 'cut') {
          res.end();
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
    if (b.openAfterDone) res.write('data: [DONE]\n\n');
    else res.end('data: [DONE]\n\n');
  }

  async function handleImage(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = JSON.parse(await readBody(req)) as StubImageRequestBody;
    const n = ++imageRequests;
    keepLast(imageBodies, body);
    const b = behaviour.images ?? {};
    if (b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs));
    const status = body.prompt?.includes(STUB_MARKERS.fail) ? 500 : b.httpStatus;
    if (status) {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `stub images answered ${status}`, type: 'server_error' } }));
      return;
    }
    const [width, height] = (/^(\d+)x(\d+)$/.exec(body.size ?? '') ?? ['', '64', '64']).slice(1).map(Number);
    const png = stubPng(Math.min(width, 2048), Math.min(height, 2048), n);
    let item: object = { b64_json: png.toString('base64') };
    if (b.mode === 'url') {
      const path = `/stub-images/${n}.png`;
      served.set(path, png);
      item = { url: `http://127.0.0.1:${port}${path}` };
    } else if (b.mode === 'not-image') {
      item = { b64_json: Buffer.from('this is not a picture').toString('base64') };
    } else if (b.mode === 'webp') {
      item = { b64_json: STUB_WEBP };
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ created: Math.floor(Date.now() / 1000), data: b.mode === 'empty' ? [] : [item] }));
  }

  server.on('connection', () => connections++);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    get imageRequests() {
      return imageRequests;
    },
    imageBodies,
    get open() {
      return open;
    },
    get connections() {
      return connections;
    },
    connectionRequests,
    urls,
    bodies,
    keys,
    headers,
    set: (next) => {
      behaviour = next;
      malformedLeft = next.malformedTasks ?? 0;
      keepAlive(next);
    },
    reset: () => {
      behaviour = initial;
      malformedLeft = initial.malformedTasks ?? 0;
      keepAlive(initial);
      requests = 0;
      connectionRequests.length = 0;
      bodies.length = 0;
      imageRequests = 0;
      imageBodies.length = 0;
      served.clear();
      keys.length = 0;
      headers.length = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

// What the stub remembers of its requests: the last 200 of each kind.
const KEPT = 200;
function keepLast<T>(list: T[], value: T): void {
  list.push(value);
  if (list.length > KEPT) list.shift();
}
