// A local OpenAI-compatible chat-completions (and images/generations) server for tests and benchmarks: real HTTP on 127.0.0.1,
// so the app's SDK code path is exercised as with a real provider. Node built-ins only, so jest (API
// tests), vitest (browser tests) and the benchmarks can all import it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { pngChunk } from './png-chunk';

export interface StubBehaviour {
  /** The reply, cut into chunks; a function gets the request body and the request number (1-based). */
  chunks?: string[] | ((body: StubRequestBody, n: number) => string[]);
  /** Reasoning chunks sent before the reply (as `reasoning_content`). */
  reasoning?: string[];
  /** Delay before the first chunk and between chunks, in ms. */
  firstDelayMs?: number;
  delayMs?: number;
  /**
   * After this many reply chunks, break off: 'destroy' the socket, send an 'error' event, send a line
   * that is not JSON ('non-json'), end the body in the middle of a JSON line ('truncated-json'), or
   * end the body cleanly with no finish_reason and no [DONE] ('cut').
   */
  failAfter?: number;
  failMode?: 'destroy' | 'error-event' | 'non-json' | 'truncated-json' | 'cut';
  /** After this many reply chunks, go quiet and keep the connection open ('silence'), or keep it warm
   * with SSE comments or with chunks that carry no text every 50 ms. */
  stallAfter?: number;
  stallWith?: 'silence' | 'comments' | 'empty-chunks';
  /** The stream's Content-Type (default text/event-stream). */
  streamContentType?: string;
  /** Answer with this HTTP status and an error body instead of a stream. */
  httpStatus?: number;
  /** With httpStatus: this body and content type instead of the JSON error (e.g. an HTML page). */
  httpBody?: string;
  httpContentType?: string;
  /** completion_tokens reported in usage (default: the number of chunks). */
  completionTokens?: number;
  /** Each chunk's text is replaced by the wall-clock time it was sent (`t=<ms>;`), for latency benchmarks. */
  stamp?: boolean;
  /** Only this bearer key is accepted; others get 401 (as a provider with a wrong key). */
  requireKey?: string;
  /** The models `GET /models` lists; a completion for another model gets 404 model_not_found. Unset: no list (404). */
  models?: string[];
  /**
   * Refuse a chat request that carries max_tokens as OpenAI's reasoning models do (o1, o3, gpt-5:
   * 400 unsupported_parameter); max_completion_tokens is taken.
   */
  refuseMaxTokens?: boolean;
  /** The next this-many task requests (suggestions or scoring) get an answer that is not JSON. */
  malformedTasks?: number;
  /** How `POST /images/generations` answers (default: a real PNG of the asked size in `b64_json`). */
  images?: ImageStubBehaviour;
  /**
   * A chat request that is not the first on its connection is reset unanswered (the socket destroyed):
   * a provider that closed an idle connection just as the client sent on it.
   */
  resetReusedConnections?: boolean;
  /**
   * false: the stub says nothing of how long it keeps an idle connection (no `Keep-Alive: timeout` header)
   * and never closes one; by default it says 60 s and keeps them that long.
   */
  keepAliveHint?: boolean;
  /** The stream's answer is not ended after its [DONE] (its connection stays busy until the client closes it). */
  openAfterDone?: boolean;
}

/** Behaviour of the images route. A prompt containing `[[fail]]` is answered 500. */
export interface ImageStubBehaviour {
  /** Answer with this HTTP status and an error body. */
  httpStatus?: number;
  /**
   * b64 (default), url (a link to the PNG on this server), empty (no picture), not-image (bytes that
   * are no picture), webp (a 1x1 WebP, as some endpoints answer).
   */
  mode?: 'b64' | 'url' | 'empty' | 'not-image' | 'webp';
  /** Delay before answering, in ms. */
  delayMs?: number;
}

export interface StubImageRequestBody {
  model: string;
  prompt: string;
  size?: string;
  n?: number;
  response_format?: string;
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
export const wallClock = () => performance.timeOrigin + performance.now();

export interface StubRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  stream_options?: { include_usage?: boolean };
}

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

// A real 1x1 lossless WebP.
const STUB_WEBP = 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';

/** Markers a prompt may carry (e.g. typed in a browser test) to steer the default behaviour. */
export const STUB_MARKERS = { fail: '[[fail]]', slow: '[[slow]]', long: '[[long]]', reason: '[[reason]]', malformed: '[[malformed]]' } as const;

/** The reply to a prompt marked `[[long]]`: 40 numbered pieces, 200 ms apart (8 s), in the prompt's language. */
export function longStubChunks(zh: boolean): string[] {
  return Array.from({ length: 40 }, (_, i) => (zh ? `第${i + 1}浪，` : `wave ${i + 1}, `));
}

const lastUser = (body: StubRequestBody) =>
  [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';

/** The default reply: numbered, so a regenerate is visibly different. */
export function defaultStubChunks(body: StubRequestBody, n: number): string[] {
  const all = (body.messages ?? []).map((m) => m.content).join('\n');
  const fold = /<new-text>([\s\S]*?)<\/new-text>/.exec(all);
  if (fold) return [`Summary ${n}: `, `${fold[1].trim().split(/\s+/).slice(0, 8).join(' ')} …`];
  const task = stubTaskAnswer(body);
  if (task !== null) return pieces(task, 40);
  const zh = /[\u3400-\u9fff]/.test(lastUser(body));
  return zh
    ? [`第${n}段回复：`, '灯光', '闪了', '一下，', '故事', '继续', '向前。']
    : [`Reply ${n}:`, ' The', ' lamp', ' flickered', ' and', ' the', ' story', ' went', ' on.'];
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

// Task requests (apps/api/src/tasks/task-prompts.ts) carry these tags; the stub answers them with JSON.
const TASK_TAGS = { groups: '<task-groups-request', score: '<targets-to-score>', story: /<story-text>\n?([\s\S]*?)\n?<\/story-text>/ };
const MALFORMED_TASK_ANSWER = 'Sure! Here are some ideas: {"groups": [{"series_name": "Unfinished", "targets": [';

const isTaskRequest = (body: StubRequestBody) => {
  const all = lastUser(body);
  return all.includes(TASK_TAGS.groups) || all.includes(TASK_TAGS.score);
};

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

type StubTarget = [title: string, type: 'reality' | 'emotion', score: number, probability: number];
const STUB_GROUPS: Record<'en' | 'zh', { series_name: string; main_character: string; targets: StubTarget[] }[]> = {
  en: [
    { series_name: 'Harbour secrets', main_character: 'Mara', targets: [['Find the lighthouse key', 'reality', 2, 60], ["Earn the harbour master's trust", 'emotion', 1, 70]] },
    { series_name: 'Before the storm', main_character: 'Mara', targets: [['Reach the island before the storm', 'reality', 3, 35]] },
    { series_name: 'Old debts', main_character: 'Mara', targets: [["Pay back the smuggler's debt", 'reality', 2, 50], ['Forgive her brother', 'emotion', 3, 30]] },
  ],
  zh: [
    { series_name: '港口的秘密', main_character: '玛拉', targets: [['找到灯塔钥匙', 'reality', 2, 60], ['赢得港务长的信任', 'emotion', 1, 70]] },
    { series_name: '风暴之前', main_character: '玛拉', targets: [['在风暴来临前抵达小岛', 'reality', 3, 35]] },
    { series_name: '旧债', main_character: '玛拉', targets: [['还清欠走私者的债', 'reality', 2, 50], ['原谅她的哥哥', 'emotion', 3, 30]] },
  ],
};

/**
 * The stub's answer to a task request, or null for other requests. Suggestions: three fixed groups in
 * the story's language. Scoring: a target is completed when a line of the story contains its title
 * (that line is quoted as the evidence); otherwise it stays open. Both come in a ```json fence.
 */
export function stubTaskAnswer(body: StubRequestBody): string | null {
  const prompt = lastUser(body);
  const story = TASK_TAGS.story.exec(prompt)?.[1] ?? '';
  const zh = /[\u3400-\u9fff]/.test(story || prompt);
  if (prompt.includes(TASK_TAGS.groups)) {
    const groups = STUB_GROUPS[zh ? 'zh' : 'en'].map((g) => ({
      ...g,
      targets: g.targets.map(([title, type, score, probability]) => ({ title, type, score, probability })),
    }));
    return `\`\`\`json\n${JSON.stringify({ groups }, null, 1)}\n\`\`\``;
  }
  if (!prompt.includes(TASK_TAGS.score)) return null;
  const list = prompt.slice(prompt.indexOf(TASK_TAGS.score));
  const lines = story.split(/\n+/).map((l) => l.trim()).filter(Boolean);
  const targets = [...list.matchAll(/^(\d+)\. \[(\w+)\] (.+)$/gm)].map(([, index, , title]) => {
    const line = lines.find((l) => l.toLowerCase().includes(title.trim().toLowerCase()));
    return line
      ? { index: Number(index), completed: true, evidence: line, reason: zh ? '正文写到了这件事。' : 'The story shows it.', probability: 100 }
      : { index: Number(index), completed: false, evidence: '', reason: zh ? '还没有发生。' : 'It has not happened yet.', probability: 40 };
  });
  return `Here is my judgement:\n\`\`\`json\n${JSON.stringify({ targets })}\n\`\`\``;
}

function withMarkers(b: StubBehaviour, prompt: string): StubBehaviour {
  let out = b;
  if (prompt.includes(STUB_MARKERS.slow)) out = { ...out, delayMs: 300, firstDelayMs: 300 };
  if (prompt.includes(STUB_MARKERS.long)) out = { ...out, delayMs: 200, firstDelayMs: 200, chunks: longStubChunks(/[\u3400-\u9fff]/.test(prompt)) };
  if (prompt.includes(STUB_MARKERS.fail)) out = { ...out, failAfter: 4, failMode: 'destroy', delayMs: out.delayMs ?? 50 };
  if (prompt.includes(STUB_MARKERS.reason)) out = { ...out, reasoning: ['Thinking', ' about', ' it.'] };
  return out;
}

/**
 * A real PNG (8-bit RGB, filter 0 rows, deflated by node:zlib) of the asked size: a colour gradient that
 * differs per request number, so two pictures are not the same bytes.
 */
export function stubPng(width: number, height: number, n = 1): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255) / Math.max(1, width - 1);
      raw[row + 2 + x * 3] = (y * 255) / Math.max(1, height - 1);
      raw[row + 3 + x * 3] = (n * 53) & 255;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
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
