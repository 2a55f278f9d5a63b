import { ErrorCode } from '@taleloom/contracts/error-code';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type OpenAI from 'openai';
import { APIConnectionError, APIError, OpenAIError } from 'openai/error';
import { VERSION as OPENAI_VERSION } from 'openai/version';
import { loadOpenAI } from './openai-sdk';
import { Agent, errors, request, type Dispatcher } from 'undici';
import type { PlatformModel } from '../config/platform-models';
import { classifyCustomModelFailure } from './provider-errors';
import { streamFetch } from './stream-fetch';
import { mechOff } from '../common/mech-off';
import { ThinkSplitter } from './think-splitter';
import { tokenLimit, tokenLimitFields, type TokenLimitField, type TokenLimitFields } from './token-limit-field';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What a provider stream turns into; nothing else leaves this file. */
export type ProviderChunk =
  | { type: 'delta'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'usage'; promptTokens: number; completionTokens: number };

/** How requests reach a provider when the default (global fetch) will not do: users' models go through the address guard. */
export interface ProviderTransport {
  /** Names the transport (part of the client cache key). */
  readonly key: string;
  readonly fetch: typeof globalThis.fetch;
  readonly fetchOptions: Record<string, unknown>;
}

export interface ChatRequest {
  model: Pick<PlatformModel, 'baseURL' | 'model' | 'enableReasoning'>;
  apiKey: string;
  /** A user's own model: its own transport, failures told as the user can act on them, no cached client. */
  custom?: { transport: ProviderTransport };
  messages: ChatMessage[];
  maxTokens: number;
  /** Fails with PROVIDER_TIMEOUT when nothing arrives for this long. */
  idleTimeoutMs: number;
  signal?: AbortSignal;
}

/** A provider failure, with the code the client is told (PROVIDER_ERROR or PROVIDER_TIMEOUT; a custom model's own codes). */
export class ProviderFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    detail: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(detail);
    this.name = 'ProviderFailure';
  }
}

// Fields some OpenAI-compatible providers add to a delta (DeepSeek, Qwen: reasoning_content; OpenRouter: reasoning).
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/**
 * The one provider: OpenAI-compatible chat completions, streamed, through the `openai` SDK.
 * Platform models, the demo model and the test stub all go through this code path.
 */
export class ChatProvider {
  private readonly clients = new Map<string, Promise<OpenAI>>();
  private readonly headers = new Map<string, Record<string, string>>();

  constructor(private readonly tokenFields: TokenLimitFields = tokenLimitFields) {}

  /** The provider's answer as an async iterable (a task request, a summary fold, a picture prompt). */
  stream(req: ChatRequest): AsyncGenerator<ProviderChunk> {
    const out: ProviderChunk[] = [];
    // The reading holds the request only until it is answered (see open): not the generator's frame
    // either. Opened when the generator first runs, as before.
    let asked: ChatRequest | null = req;
    return this.read(() => {
      const read = this.open(asked!, (chunk) => out.push(chunk), false);
      asked = null;
      return read;
    }, out);
  }

  private async *read(open: () => ProviderRead, out: ProviderChunk[]): AsyncGenerator<ProviderChunk> {
    const read = open();
    // The chunks a step produced are yielded before its failure is thrown (as they were read).
    const step = function* (this: void, run: () => void): Generator<ProviderChunk> {
      let failure: { error: unknown } | null = null;
      try {
        run();
      } catch (error) {
        failure = { error };
      }
      // Copied: the consumer runs between two yields and may not see the array change under it.
      if (out.length) yield* out.splice(0);
      if (failure) throw failure.error;
    };
    let body: AsyncIterable<unknown> | null = null;
    try {
      const answer = await read.body();
      if (answer instanceof PushedBody) throw new Error('a pushed body is only for relay');
      body = answer;
      // Leaving the loop does not destroy an undici answer: one that ended with [DONE] is read to its
      // end unseen and its connection kept, as in relayRead; any other is destroyed below.
      for await (const bytes of isReadable(body) ? body.iterator({ destroyOnReturn: false }) : body) {
        yield* step(() => read.feed(bytes as Uint8Array));
        if (read.stopped()) break;
      }
      yield* step(read.drain);
      yield* step(read.check);
    } catch (error) {
      throw read.failure(error);
    } finally {
      if (isReadable(body)) {
        if (read.ended()) settleBody(body);
        else dropBody(body);
      }
      read.close();
    }
  }

  /**
   * The provider's answer handed to `onChunk` as it is read: the socket's data events feed the parser
   * and each chunk is passed on in the same call, no promise per chunk (a turn's stream: what bounds
   * how many streams one process relays). Resolves when the answer is whole; rejects with a
   * ProviderFailure as `stream` does, after the chunks that came before the failure.
   */
  relay(req: ChatRequest, onChunk: (chunk: ProviderChunk) => void): Promise<void> {
    // The relay's frame lives as long as the stream: it holds the reading, not the request (its prompt).
    return this.relayRead(this.open(req, onChunk, true));
  }

  private async relayRead(read: ProviderRead): Promise<void> {
    try {
      const body = await read.body();
      if (body instanceof PushedBody || isReadable(body)) {
        // A turn's answer is pushed as undici parses it; a platform model asked through the SDK (a base
        // URL with a query) answers a Node stream, read through its data events. Either way each piece
        // is fed in the same call, no promise per chunk.
        const source = body instanceof PushedBody ? body : new StreamedBody(body);
        await new Promise<void>((resolve, reject) => {
          source.read({
            data: (bytes) => {
              try {
                read.feed(bytes);
              } catch (error) {
                source.drop();
                return reject(error);
              }
              if (read.ended()) {
                // [DONE]: the answer is whole. What follows ([DONE] is the last event) is read to its end
                // unseen, so the provider's connection goes back to the pool for the next request instead
                // of being closed: a new connection (a TLS handshake with a real provider) per send is
                // what destroying the body here cost. The relay ends on the next turn: by then undici has
                // read the answer's end (it comes with the [DONE]) and freed the connection, so that a
                // request made right after goes out on it instead of opening another.
                source.settle();
                setImmediate(resolve);
              } else if (read.stopped()) {
                source.drop();
                resolve();
              }
            },
            end: resolve,
            error: reject,
          });
        });
      } else {
        for await (const bytes of body) {
          read.feed(bytes as Uint8Array);
          if (read.stopped()) break;
        }
      }
      read.drain();
      read.check();
    } catch (error) {
      throw read.failure(error);
    } finally {
      read.close();
    }
  }

  /**
   * One request to the provider and the reading of its answer, whoever drives it (`stream`, `relay`):
   * the SDK makes the request (headers, errors, the length-field retry); the server-sent events of its
   * answer are parsed by eventsource-parser and turned into chunks for `sink`. The SDK's own reader
   * runs every chunk through a chain of nested async generators, which cost more per chunk than
   * everything else the relay does.
   */
  private open(request: ChatRequest, sink: (chunk: ProviderChunk) => void, pushed: boolean): ProviderRead {
    // The request with its messages (the whole prompt) is needed until the provider answers; from then
    // on, while the answer streams, only these few fields are (an open stream holds no prompt).
    let pending: ChatRequest | null = request;
    const req = { model: request.model, custom: request.custom, apiKey: request.apiKey, idleTimeoutMs: request.idleTimeoutMs, signal: request.signal };
    const controller = new AbortController();
    // Whether `controller` was aborted (only this reading aborts it), read per chunk: a plain variable,
    // not the signal's getter (whose loads are megamorphic across a process's signals, in perf).
    let aborted = false;
    const abort = (reason?: unknown) => {
      aborted = true;
      controller.abort(reason);
    };
    const onAbort = () => abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    // The idle timer: progress only notes when it came (a chunk costs a clock read, not a timer
    // refresh); the timer, when it fires, waits out what is left of the idle time since then.
    let progressAt = performance.now();
    const onIdle = () => {
      const quiet = performance.now() - progressAt;
      if (quiet < req.idleTimeoutMs) {
        timer = setTimeout(onIdle, req.idleTimeoutMs - quiet);
        return;
      }
      timedOut = true;
      abort();
    };
    let timer = setTimeout(onIdle, req.idleTimeoutMs);
    const arm = () => {
      progressAt = performance.now();
    };
    const timeoutCode = req.custom ? ErrorCode.CUSTOM_MODEL_TIMEOUT : ErrorCode.PROVIDER_TIMEOUT;
    // A reasoning model served without a reasoning field may put a <think> block in the content.
    const splitter = req.model.enableReasoning ? new ThinkSplitter() : null;
    let finished = false;
    let ended = false;
    let headers: () => Headers = () => new Headers();
    // Server-sent events as they complete, parsed by eventsource-parser (fed text, calls back per event).
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    const decoder = new TextDecoder();
    const take = (event: EventSourceMessage): void => {
      const chunk = parseEvent(event, headers);
      if (chunk === DONE) {
        ended = true;
        return;
      }
      const choice = chunk.choices?.[0];
      const delta = choice?.delta as (OpenAI.Chat.ChatCompletionChunk.Choice.Delta & ReasoningDelta) | undefined;
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      if (choice?.finish_reason) finished = true;
      // Only progress resets the idle timer: a provider that keeps a stream warm with empty chunks
      // and writes nothing still times out.
      if (delta?.content || reasoning || choice?.finish_reason || chunk.usage) arm();
      if (reasoning && req.model.enableReasoning) sink({ type: 'reasoning', text: reasoning });
      if (delta?.content) {
        if (splitter) for (const piece of splitter.push(delta.content)) sink(piece);
        else sink({ type: 'delta', text: delta.content });
      }
      if (chunk.usage) sink({ type: 'usage', promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 });
    };
    const takeAll = () => {
      for (let i = 0; i < events.length && !ended; i++) take(events[i]);
      events.length = 0;
    };
    return {
      body: async () => {
        const asked = pending!;
        // A provider that refuses the length field is asked once more with the other one (before any text).
        const answer = await this.tokenFields
          .send(req.model.baseURL, req.model.model, (field) =>
            // A base URL with a query (an api-version) is left to the SDK, which keeps its query.
            req.custom || req.model.baseURL.includes('?') || mechOff('handmade') ? this.viaSdk(asked, field, controller.signal) : this.direct(asked, field, controller.signal, pushed),
          )
          .finally(() => (pending = null));
        headers = answer.headers;
        return answer.body;
      },
      feed: (bytes) => {
        parser.feed(decoder.decode(bytes, { stream: true }));
        takeAll();
      },
      // Methods, not getters: an object literal with getters is made in dictionary mode (its getters are
      // new closures each time), and every read of one per chunk went the slow way (IC misses in perf).
      stopped: () => ended || aborted,
      ended: () => ended && !aborted,
      drain: () => {
        if (ended || aborted) return;
        // A last event without its closing blank line still counts (as the SDK's reader has it).
        parser.feed(decoder.decode());
        parser.reset({ consume: true });
        takeAll();
      },
      check: () => {
        // An aborted stream can end quietly instead of throwing.
        if (timedOut) throw new ProviderFailure(timeoutCode, `no data for ${req.idleTimeoutMs} ms`);
        if (aborted) throw new ProviderFailure(ErrorCode.PROVIDER_ERROR, 'aborted');
        // Every OpenAI-compatible stream ends its answer with a finish_reason. A body that ends without
        // one was cut short (a dropped connection, a proxy's time limit) or was not a stream at all
        // (an HTML page, a JSON error under status 200): its text is not a whole answer.
        if (!finished) throw new ProviderFailure(ErrorCode.PROVIDER_ERROR, 'the stream ended without a finish_reason');
        if (splitter) for (const piece of splitter.end()) sink(piece);
      },
      failure: (error) => {
        if (error instanceof ProviderFailure) return error;
        if (timedOut) return new ProviderFailure(timeoutCode, `no data for ${req.idleTimeoutMs} ms`);
        if (req.custom) {
          const failure = classifyCustomModelFailure(error);
          // The detail goes to the log: a provider that echoes the key must not put it there.
          const detail = req.apiKey ? failure.detail.split(req.apiKey).join('••••') : failure.detail;
          return new ProviderFailure(failure.code, detail, failure.status);
        }
        return new ProviderFailure(ErrorCode.PROVIDER_ERROR, describe(error));
      },
      close: () => {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      },
    };
  }

  /** A whole answer as one string (used to fold old text into the summary). */
  async complete(req: ChatRequest): Promise<string> {
    let text = '';
    for await (const chunk of this.stream(req)) if (chunk.type === 'delta') text += chunk.text;
    return text;
  }

  // A user's own model: the SDK makes the request through the model's transport (the address guard).
  private async viaSdk(req: ChatRequest, field: TokenLimitField, signal: AbortSignal): Promise<ProviderAnswer> {
    const response = await (await this.client(req)).chat.completions
      .create(
        {
          model: req.model.model,
          messages: req.messages,
          ...tokenLimit(field, req.maxTokens),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal },
      )
      .asResponse();
    const body = response.body as unknown as AsyncIterable<Uint8Array> | null;
    if (!body) throw new OpenAIError('Attempted to iterate over a response with no body');
    return { headers: () => response.headers, body };
  }

  /**
   * A platform model (the operator's provider, the demo model): the request the SDK would send (its
   * URL, body and headers), sent with undici directly, and refusals thrown as the SDK's own errors
   * (`APIError.generate`, as the SDK does on a status that is not 2xx; APIConnectionError when the
   * provider cannot be reached). The SDK's per-request work (building, encoding and logging the
   * request, wrapping the answer) cost a tenth of a send's CPU before its first token.
   */
  private async direct(req: ChatRequest, field: TokenLimitField, signal: AbortSignal, pushed: boolean): Promise<ProviderAnswer> {
    // As bytes: undici keeps the body it was given until the answer ends (a string it would keep beside
    // its own copy in bytes), so an open stream holds its prompt's JSON once.
    const body = Buffer.from(
      JSON.stringify({
        model: req.model.model,
        messages: req.messages,
        ...tokenLimit(field, req.maxTokens),
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    let answer: Pick<Dispatcher.ResponseData, 'statusCode' | 'headers'> & { body: Dispatcher.ResponseData['body'] | PushedBody };
    const url = chatCompletionsURL(req.model.baseURL);
    const headers = { ...this.platformHeaders(req.apiKey), 'content-length': String(body.length) };
    for (let attempt = 1; ; attempt++) {
      try {
        // A turn's relay takes the answer as undici reads it (pushed); anything else as a Node stream.
        answer = pushed ? await dispatchPost(url, headers, body, signal) : await request(url, { method: 'POST', headers, body, signal, dispatcher: platformAgent });
        break;
      } catch (error) {
        if (signal.aborted) throw error;
        // Connections are kept between requests: a provider that closes an idle one just as a request
        // goes out on it resets it before any byte of an answer. Nothing was read, so it is sent once
        // more (on a new connection) instead of failing the turn; a provider that cannot be reached is not.
        if (attempt === 1 && closedUnderRequest(error)) continue;
        throw new APIConnectionError({ cause: error instanceof Error ? error : new Error(String(error)) });
      }
    }
    if (answer.statusCode < 200 || answer.statusCode > 299) {
      const text = await answer.body.text().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      const json = safeJSON(text);
      throw APIError.generate(answer.statusCode, json as object | undefined, json ? undefined : text, headersOf(answer.headers));
    }
    return { headers: () => headersOf(answer.headers), body: answer.body };
  }

  // What the SDK sends with a request of a platform model (its user agent, the key as a bearer token).
  private platformHeaders(apiKey: string): Record<string, string> {
    let headers = this.headers.get(apiKey);
    if (!headers) {
      headers = { accept: 'application/json', 'content-type': 'application/json', 'user-agent': `OpenAI/JS ${OPENAI_VERSION}`, authorization: `Bearer ${apiKey || 'none'}` };
      // The SDK adds these when they are set in the environment.
      if (process.env.OPENAI_ORG_ID) headers['openai-organization'] = process.env.OPENAI_ORG_ID;
      if (process.env.OPENAI_PROJECT_ID) headers['openai-project'] = process.env.OPENAI_PROJECT_ID;
      // Keyed by the key: one entry per platform model's key (a handful, from the operator's configuration).
      this.headers.set(apiKey, headers);
    }
    return headers;
  }

  private client(req: Pick<ChatRequest, 'model' | 'apiKey' | 'custom'>): Promise<OpenAI> {
    // Users' keys are not kept in a cache that outlives the request (a client is cheap to make).
    if (req.custom) return providerClient(req.model.baseURL, req.apiKey, req.custom.transport);
    const key = `${req.model.baseURL}\n${req.apiKey}`;
    let client = this.clients.get(key);
    if (!client) {
      client = providerClient(req.model.baseURL, req.apiKey);
      this.clients.set(key, client);
    }
    return client;
  }
}

/** An SDK client for one provider. No SDK retries: a retried stream would repeat text the user already saw. */
export async function providerClient(baseURL: string, apiKey: string, transport?: ProviderTransport, timeoutMs?: number): Promise<OpenAI> {
  const { OpenAI: Client } = await loadOpenAI();
  return new Client({
    baseURL,
    apiKey: apiKey || 'none',
    maxRetries: 0,
    ...(timeoutMs ? { timeout: timeoutMs } : {}),
    ...(transport ? { fetch: transport.fetch, fetchOptions: transport.fetchOptions } : { fetch: platformFetch }),
  });
}

// Platform models (the operator's providers, the demo model) stream through undici's Node streams.
const platformFetch = streamFetch();

/** A provider's answer to a chat request: its headers (made when asked for) and its body. */
interface ProviderAnswer {
  headers: () => Headers;
  body: AsyncIterable<Uint8Array> | PushedBody;
}

// The SDK's URL for chat completions under a base URL (one slash between them).
function chatCompletionsURL(baseURL: string): string {
  return `${baseURL.endsWith('/') ? baseURL.slice(0, -1) : baseURL}/chat/completions`;
}

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

function safeJSON(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One provider answer being read (ChatProvider.open). */
interface ProviderRead {
  /** Makes the request; its answer's body. */
  body(): Promise<AsyncIterable<Uint8Array> | PushedBody>;
  /** Bytes of the answer: the chunks they complete go to the sink. */
  feed(bytes: Uint8Array): void;
  /** [DONE] came, or the request was aborted: read no further. */
  stopped(): boolean;
  /** [DONE] came (and the request was not aborted): the answer is whole. */
  ended(): boolean;
  /** The body ended: a last event without its blank line. */
  drain(): void;
  /** Throws when the answer is not whole (timed out, aborted, no finish_reason); else the <think> splitter's rest. */
  check(): void;
  /** What a failure is told as. */
  failure(error: unknown): ProviderFailure;
  close(): void;
}

// How long the rest of an answer after its [DONE] may take to arrive before its connection is given up.
const AFTER_DONE_MS = 5_000;

/**
 * Reads what is left of an answer after its [DONE] (its end, normally in the same packet) and drops
 * it, so that undici keeps the connection for the next request; one that does not end soon is closed.
 */
function settleBody(body: NodeJS.ReadableStream & { destroy(): void }): void {
  const timer = setTimeout(() => body.destroy(), AFTER_DONE_MS);
  timer.unref();
  const done = () => clearTimeout(timer);
  body.on('error', done);
  body.once('end', done);
  body.once('close', done);
  body.resume();
}

/** The rest of an answer is not wanted: it is destroyed, with its connection (its destruction's error is nobody's). */
function dropBody(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** undici's answer as a Node stream (its `request`; the SDK's platform fetch), read through its data events. */
type NodeBody = NodeJS.ReadableStream & {
  destroy(): void;
  off(event: string, listener: (...args: never[]) => void): unknown;
  iterator(options: { destroyOnReturn: boolean }): AsyncIterable<unknown>;
};

function isReadable(body: unknown): body is NodeBody {
  return typeof body === 'object' && body !== null && typeof (body as { on?: unknown }).on === 'function' && typeof (body as { destroy?: unknown }).destroy === 'function';
}

const DONE = Symbol('[DONE]');

/**
 * One server-sent event of a chat-completions stream, as the SDK's own reader takes it: `[DONE]` ends
 * the answer; anything else is JSON (or the stream is broken); an `error` event, or a payload with an
 * `error`, is the provider's failure (an APIError, as the SDK throws it).
 */
function parseEvent(event: EventSourceMessage, headers: () => Headers): OpenAI.Chat.ChatCompletionChunk | typeof DONE {
  if (event.data === '[DONE]') return DONE;
  let data: (OpenAI.Chat.ChatCompletionChunk & { error?: unknown }) | null;
  try {
    data = JSON.parse(event.data) as typeof data;
  } catch {
    throw new SyntaxError('Error reading response: malformed server-sent event JSON.');
  }
  if (event.event === 'error') throw new APIError(undefined, (data as { error?: unknown } | null)?.error ?? data ?? undefined, undefined, headers());
  if (data && data.error) throw new APIError(undefined, data.error as object, undefined, headers());
  return data ?? ({} as OpenAI.Chat.ChatCompletionChunk);
}

function describe(error: unknown): string {
  if (error instanceof APIError) return `${error.status ?? 'no status'}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Where the pieces of a pushed body go (PushedBody.read). */
interface BodyReader {
  data(bytes: Buffer): void;
  end(): void;
  error(error: unknown): void;
}

/**
 * An answer's body handed over piece by piece as undici parses it (Dispatcher.dispatch), instead of
 * through a Node stream (undici's `request` answers a Readable: each piece pushed into it, emitted
 * as a data event and followed by a read-more tick, a twentieth of the API's CPU while 500 streams
 * relay, in perf). Pieces that come before a reader are kept for it.
 */
class PushedBody {
  private reader: BodyReader | null = null;
  private early: Buffer[] | null = [];
  private outcome: { error: unknown } | 'end' | null = null;
  private afterDone: NodeJS.Timeout | null = null;

  constructor(private readonly controller: Dispatcher.DispatchController) {}

  /** Hands what came so far to `reader`, then every piece as it comes, then the end or the failure. */
  read(reader: BodyReader): void {
    this.reader = reader;
    const early = this.early ?? [];
    this.early = null;
    for (const bytes of early) {
      if (this.reader !== reader) return;
      reader.data(bytes);
    }
    if (this.reader !== reader || !this.outcome) return;
    this.reader = null;
    tell(reader, this.outcome);
  }

  /** The whole body as text (an answer that is not 2xx). */
  text(): Promise<string> {
    const parts: Buffer[] = [];
    return new Promise((resolve, reject) => this.read({ data: (b) => parts.push(b), end: () => resolve(Buffer.concat(parts).toString('utf8')), error: reject }));
  }

  /**
   * Read no further, and keep the connection: the rest of the answer (after its [DONE], normally its
   * end in the same packet) is let through unseen; one that does not end within AFTER_DONE_MS is closed.
   */
  settle(): void {
    this.reader = null;
    if (this.outcome) return;
    this.afterDone = setTimeout(() => this.controller.abort(new Error('the answer did not end after its [DONE]')), AFTER_DONE_MS);
    this.afterDone.unref();
  }

  /** Read no further: the rest of the answer is dropped, with its connection. */
  drop(): void {
    this.reader = null;
    if (!this.outcome) this.controller.abort(new Error('the rest of the answer is not wanted'));
  }

  // From the dispatch handler.
  onData(bytes: Buffer): void {
    if (this.reader) this.reader.data(bytes);
    else this.early?.push(bytes);
  }

  onEnd(outcome: { error: unknown } | 'end'): void {
    if (this.outcome) return;
    this.outcome = outcome;
    if (this.afterDone) clearTimeout(this.afterDone);
    const reader = this.reader;
    this.reader = null;
    if (reader) tell(reader, outcome);
  }
}

// How a body ended, told to its reader.
function tell(reader: BodyReader, outcome: { error: unknown } | 'end'): void {
  if (outcome === 'end') reader.end();
  else reader.error(outcome.error);
}

/** A Node stream's answer (undici's Readable) read the way a PushedBody is. */
class StreamedBody {
  private off: (() => void) | null = null;

  constructor(private readonly body: NodeBody) {}

  read(reader: BodyReader): void {
    const { body } = this;
    const end = () => {
      this.detach();
      reader.end();
    };
    const error = (failure: unknown) => {
      this.detach();
      reader.error(failure);
    };
    const data = (bytes: Buffer) => reader.data(bytes);
    this.off = () => {
      body.off('data', data);
      body.off('end', end);
      body.off('close', end);
      body.off('error', error);
    };
    body.on('data', data);
    body.once('end', end);
    // Destroyed without an end (an abort): what happened is told by check().
    body.once('close', end);
    body.once('error', error);
  }

  settle(): void {
    this.detach();
    settleBody(this.body);
  }

  drop(): void {
    this.detach();
    dropBody(this.body);
  }

  private detach(): void {
    this.off?.();
    this.off = null;
  }
}

// Parsed once per base URL: a send's request needs only its origin and path.
const targets = new Map<string, { origin: string; path: string }>();
function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    // Keyed by the platform models' base URLs: a handful, from the operator's configuration.
    targets.set(url, target);
  }
  return target;
}

/**
 * A POST to a platform provider through undici's dispatcher, answered once its status and headers
 * are in, with a body pushed as it is read (PushedBody). It fails as undici's `request` would: with
 * the signal's reason (aborted), or with undici's error before any answer (a refused or reset
 * connection); after the headers, a failure goes to the body's reader.
 */
function dispatchPost(url: string, headers: Record<string, string>, body: Buffer, signal: AbortSignal): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: PushedBody }> {
  return new Promise((resolve, reject) => {
    const reason = () => (signal.reason as unknown) ?? new errors.RequestAbortedError();
    if (signal.aborted) return reject(reason());
    let controller: Dispatcher.DispatchController | null = null;
    let pushed: PushedBody | null = null;
    const onAbort = () => controller?.abort(reason() as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    platformAgent.dispatch(
      { ...targetOf(url), method: 'POST', headers, body },
      {
        onRequestStart: (c) => {
          controller = c;
          if (signal.aborted) c.abort(reason() as Error);
        },
        onResponseStart: (c, statusCode, answerHeaders) => {
          // 1xx: informational, the answer is still to come.
          if (statusCode < 200) return;
          pushed = new PushedBody(c);
          resolve({ statusCode, headers: answerHeaders, body: pushed });
        },
        onResponseData: (_c, bytes) => pushed?.onData(bytes),
        onResponseEnd: () => {
          done();
          pushed?.onEnd('end');
        },
        onResponseError: (_c, error) => {
          done();
          if (pushed) pushed.onEnd({ error });
          else reject(error);
        },
      },
    );
  });
}

/**
 * The connections to platform providers. A provider that says how long it keeps an idle connection
 * (`Keep-Alive: timeout=N`) is taken at its word (less a second); one that does not is kept 30 s instead of
 * undici's 4 s, so that a player who sends every 10 to 30 seconds does not pay a new TCP and TLS handshake
 * to the provider before each first token. A connection the provider closed meanwhile is sent again (see
 * `closedUnderRequest`).
 */
const platformAgent = new Agent({ keepAliveTimeout: 30_000 });

// The socket was closed under a request (undici's "other side closed", a reset, a broken pipe), as
// opposed to a connection that could not be made or a timeout.
const CLOSED_UNDER_REQUEST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
function closedUnderRequest(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLOSED_UNDER_REQUEST.has(code);
}
