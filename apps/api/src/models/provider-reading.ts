import { ErrorCode } from '@taleloom/contracts/error-code';
import type OpenAI from 'openai';
import { APIError } from 'openai/error';
import type { ChatRequest, ProviderChunk } from './chat-types';
import { classifyCustomModelFailure } from './provider-errors';
import { ThinkSplitter } from './think-splitter';

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
 * What one request to a provider needs besides the SDK: the signal that aborts it (the caller's, or
 * the idle timer's when nothing arrives for `idleTimeoutMs`), the SDK's chunks turned into ours
 * (reasoning only for models with it enabled, a leading <think> block split off), whether the answer
 * was whole, and what a failure is told as.
 */
export class ProviderReading {
  private readonly controller = new AbortController();
  private readonly splitter: ThinkSplitter | null;
  private readonly onAbort = () => this.controller.abort(this.req.signal?.reason);
  private timer: NodeJS.Timeout;
  // When progress last came: a chunk costs a clock read, not a timer refresh.
  private progressAt = performance.now();
  private timedOut = false;
  private finished = false;

  // The few fields of the request it needs (not its messages: an open stream holds no prompt).
  private readonly req: Pick<ChatRequest, 'model' | 'custom' | 'apiKey' | 'idleTimeoutMs' | 'signal'>;

  constructor({ model, custom, apiKey, idleTimeoutMs, signal }: ChatRequest) {
    const req = (this.req = { model, custom, apiKey, idleTimeoutMs, signal });
    this.splitter = req.model.enableReasoning ? new ThinkSplitter() : null;
    if (req.signal?.aborted) this.onAbort();
    else req.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.timer = setTimeout(this.onIdle, req.idleTimeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private readonly onIdle = () => {
    const quiet = performance.now() - this.progressAt;
    if (quiet < this.req.idleTimeoutMs) {
      this.timer = setTimeout(this.onIdle, this.req.idleTimeoutMs - quiet);
      return;
    }
    this.timedOut = true;
    this.controller.abort();
  };

  /** Our chunks of one of the SDK's. */
  *take(chunk: OpenAI.Chat.ChatCompletionChunk): Generator<ProviderChunk> {
    const choice = chunk.choices?.[0];
    const delta = choice?.delta as (OpenAI.Chat.ChatCompletionChunk.Choice.Delta & ReasoningDelta) | undefined;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (choice?.finish_reason) this.finished = true;
    // Only progress resets the idle timer: a provider that keeps a stream warm with empty chunks and
    // writes nothing still times out.
    if (delta?.content || reasoning || choice?.finish_reason || chunk.usage) this.progressAt = performance.now();
    if (reasoning && this.req.model.enableReasoning) yield { type: 'reasoning', text: reasoning };
    if (delta?.content) {
      if (this.splitter) yield* this.splitter.push(delta.content);
      else yield { type: 'delta', text: delta.content };
    }
    if (chunk.usage) yield { type: 'usage', promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 };
  }

  /** The stream ended: throws when the answer is not whole (timed out, aborted, no finish_reason); else the <think> splitter's rest. */
  *end(): Generator<ProviderChunk> {
    // The SDK ends an aborted stream quietly instead of throwing.
    if (this.timedOut) throw this.timeout();
    if (this.controller.signal.aborted) throw new ProviderFailure(ErrorCode.PROVIDER_ERROR, 'aborted');
    // Every OpenAI-compatible stream ends its answer with a finish_reason. A body that ends without one
    // was cut short (a dropped connection, a proxy's time limit) or was not a stream at all (an HTML
    // page, a JSON error under status 200): its text is not a whole answer.
    if (!this.finished) throw new ProviderFailure(ErrorCode.PROVIDER_ERROR, 'the stream ended without a finish_reason');
    if (this.splitter) yield* this.splitter.end();
  }

  /** What a failure is told as. */
  failure(error: unknown): ProviderFailure {
    if (error instanceof ProviderFailure) return error;
    if (this.timedOut) return this.timeout();
    if (this.req.custom) {
      const failure = classifyCustomModelFailure(error);
      // The detail goes to the log: a provider that echoes the key must not put it there.
      const detail = this.req.apiKey ? failure.detail.split(this.req.apiKey).join('••••') : failure.detail;
      return new ProviderFailure(failure.code, detail, failure.status);
    }
    return new ProviderFailure(ErrorCode.PROVIDER_ERROR, describe(error));
  }

  close(): void {
    clearTimeout(this.timer);
    this.req.signal?.removeEventListener('abort', this.onAbort);
  }

  private timeout(): ProviderFailure {
    return new ProviderFailure(this.req.custom ? ErrorCode.CUSTOM_MODEL_TIMEOUT : ErrorCode.PROVIDER_TIMEOUT, `no data for ${this.req.idleTimeoutMs} ms`);
  }
}

function describe(error: unknown): string {
  if (error instanceof APIError) return `${error.status ?? 'no status'}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
