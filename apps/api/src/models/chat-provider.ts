import { ErrorCode } from '@taleloom/contracts';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import OpenAI from 'openai';
import type { PlatformModel } from '../config/platform-models';
import { classifyCustomModelFailure } from './provider-errors';
import { streamFetch } from './stream-fetch';
import { ThinkSplitter } from './think-splitter';
import { tokenLimit, tokenLimitFields, type TokenLimitFields } from './token-limit-field';

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
  private readonly clients = new Map<string, OpenAI>();

  constructor(private readonly tokenFields: TokenLimitFields = tokenLimitFields) {}

  async *stream(req: ChatRequest): AsyncGenerator<ProviderChunk> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    // One timer, pushed back on progress (refresh() is far cheaper per chunk than a new timer).
    const arm = () => {
      if (timer) {
        timer.refresh();
        return;
      }
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, req.idleTimeoutMs);
    };
    arm();
    const timeoutCode = req.custom ? ErrorCode.CUSTOM_MODEL_TIMEOUT : ErrorCode.PROVIDER_TIMEOUT;
    // A reasoning model served without a reasoning field may put a <think> block in the content.
    const splitter = req.model.enableReasoning ? new ThinkSplitter() : null;
    try {
      const client = this.client(req);
      // A provider that refuses the length field is asked once more with the other one (before any text).
      // The SDK makes the request (headers, errors, the refusal above); its answer is read here: the
      // SDK's reader runs every chunk through a chain of nested async generators, which cost more per chunk
      // than everything else the relay does (see parseEvent).
      const response = await this.tokenFields.send(req.model.baseURL, req.model.model, (field) =>
        client.chat.completions
          .create(
            {
              model: req.model.model,
              messages: req.messages,
              ...tokenLimit(field, req.maxTokens),
              stream: true,
              stream_options: { include_usage: true },
            },
            { signal: controller.signal },
          )
          .asResponse(),
      );
      let finished = false;
      let ended = false;
      // Server-sent events as they complete, parsed by eventsource-parser (fed text, calls back per event).
      const events: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (event) => events.push(event) });
      const decoder = new TextDecoder();
      const body = response.body as AsyncIterable<Uint8Array> | null;
      if (!body) throw new OpenAI.OpenAIError('Attempted to iterate over a response with no body');
      const pieces = function* (this: void, event: EventSourceMessage): Generator<ProviderChunk> {
        const chunk = parseEvent(event, response.headers);
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
        if (reasoning && req.model.enableReasoning) yield { type: 'reasoning', text: reasoning };
        if (delta?.content) {
          if (splitter) yield* splitter.push(delta.content);
          else yield { type: 'delta', text: delta.content };
        }
        if (chunk.usage) {
          yield {
            type: 'usage',
            promptTokens: chunk.usage.prompt_tokens ?? 0,
            completionTokens: chunk.usage.completion_tokens ?? 0,
          };
        }
      };
      for await (const bytes of body) {
        parser.feed(decoder.decode(bytes, { stream: true }));
        for (let i = 0; i < events.length && !ended; i++) yield* pieces(events[i]);
        events.length = 0;
        if (ended || controller.signal.aborted) break;
      }
      if (!ended && !controller.signal.aborted) {
        // A last event without its closing blank line still counts (as the SDK's reader has it).
        parser.feed(decoder.decode());
        parser.reset({ consume: true });
        for (let i = 0; i < events.length && !ended; i++) yield* pieces(events[i]);
      }
      // An aborted SDK stream can end quietly instead of throwing.
      if (timedOut) throw new ProviderFailure(timeoutCode, `no data for ${req.idleTimeoutMs} ms`);
      if (controller.signal.aborted) throw new ProviderFailure(ErrorCode.PROVIDER_ERROR, 'aborted');
      // Every OpenAI-compatible stream ends its answer with a finish_reason. A body that ends without
      // one was cut short (a dropped connection, a proxy's time limit) or was not a stream at all
      // (an HTML page, a JSON error under status 200): its text is not a whole answer.
      if (!finished) throw new ProviderFailure(ErrorCode.PROVIDER_ERROR, 'the stream ended without a finish_reason');
      if (splitter) yield* splitter.end();
    } catch (error) {
      if (error instanceof ProviderFailure) throw error;
      if (timedOut) throw new ProviderFailure(timeoutCode, `no data for ${req.idleTimeoutMs} ms`);
      if (req.custom) {
        const failure = classifyCustomModelFailure(error);
        // The detail goes to the log: a provider that echoes the key must not put it there.
        const detail = req.apiKey ? failure.detail.split(req.apiKey).join('••••') : failure.detail;
        throw new ProviderFailure(failure.code, detail, failure.status);
      }
      throw new ProviderFailure(ErrorCode.PROVIDER_ERROR, describe(error));
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** A whole answer as one string (used to fold old text into the summary). */
  async complete(req: ChatRequest): Promise<string> {
    let text = '';
    for await (const chunk of this.stream(req)) if (chunk.type === 'delta') text += chunk.text;
    return text;
  }

  private client(req: Pick<ChatRequest, 'model' | 'apiKey' | 'custom'>): OpenAI {
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
export function providerClient(baseURL: string, apiKey: string, transport?: ProviderTransport, timeoutMs?: number): OpenAI {
  return new OpenAI({
    baseURL,
    apiKey: apiKey || 'none',
    maxRetries: 0,
    ...(timeoutMs ? { timeout: timeoutMs } : {}),
    ...(transport ? { fetch: transport.fetch, fetchOptions: transport.fetchOptions } : { fetch: platformFetch }),
  });
}

// Platform models (the operator's providers, the demo model) stream through undici's Node streams.
const platformFetch = streamFetch();

const DONE = Symbol('[DONE]');

/**
 * One server-sent event of a chat-completions stream, as the SDK's own reader takes it: `[DONE]` ends
 * the answer; anything else is JSON (or the stream is broken); an `error` event, or a payload with an
 * `error`, is the provider's failure (an APIError, as the SDK throws it).
 */
function parseEvent(event: EventSourceMessage, headers: Headers): OpenAI.Chat.ChatCompletionChunk | typeof DONE {
  if (event.data === '[DONE]') return DONE;
  let data: (OpenAI.Chat.ChatCompletionChunk & { error?: unknown }) | null;
  try {
    data = JSON.parse(event.data) as typeof data;
  } catch {
    throw new SyntaxError('Error reading response: malformed server-sent event JSON.');
  }
  if (event.event === 'error') throw new OpenAI.APIError(undefined, (data as { error?: unknown } | null)?.error ?? data ?? undefined, undefined, headers);
  if (data && data.error) throw new OpenAI.APIError(undefined, data.error as object, undefined, headers);
  return data ?? ({} as OpenAI.Chat.ChatCompletionChunk);
}

function describe(error: unknown): string {
  if (error instanceof OpenAI.APIError) return `${error.status ?? 'no status'}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
