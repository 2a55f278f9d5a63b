import type OpenAI from 'openai';
import { loadOpenAI } from './openai-sdk';
import { drainingFetch, platformFetch } from './platform-fetch';
import type { ChatRequest, ProviderChunk, ProviderTransport } from './chat-types';
import { ProviderFailure, ProviderReading } from './provider-reading';
import { tokenLimit, tokenLimitFields, type TokenLimitFields } from './token-limit-field';

export { ProviderFailure };
export type { ChatMessage, ChatRequest, ProviderChunk, ProviderTransport } from './chat-types';

/**
 * The one provider: OpenAI-compatible chat completions, streamed, through the `openai` SDK
 * (`chat.completions.create({ stream: true })`, its Stream iterated). Platform models, users' own
 * models (through their transport: the address guard), the demo model and the test stub all go
 * through this code path.
 */
export class ChatProvider {
  private readonly clients = new Map<string, Promise<OpenAI>>();

  constructor(private readonly tokenFields: TokenLimitFields = tokenLimitFields) {}

  /**
   * The provider's answer as it is read. Fails with a ProviderFailure (after the chunks that came
   * before the failure): the provider refused or could not be reached, went quiet for
   * `idleTimeoutMs`, the caller aborted, or the answer was not whole.
   */
  async *stream(req: ChatRequest): AsyncGenerator<ProviderChunk> {
    // Loading the SDK (once) is not the provider's silence: the idle time starts once the client is there.
    const client = await this.client(req);
    const reading = new ProviderReading(req);
    try {
      // A provider that refuses the length field is asked once more with the other one (before any text).
      const answer = await this.tokenFields.send(req.model.baseURL, req.model.model, (field) =>
        client.chat.completions.create(
          { model: req.model.model, messages: req.messages, ...tokenLimit(field, req.maxTokens), stream: true, stream_options: { include_usage: true } },
          { signal: reading.signal },
        ),
      );
      // The request (its prompt) is not held while the answer streams.
      req = { ...req, messages: [] };
      for await (const chunk of answer) yield* reading.take(chunk);
      yield* reading.end();
      // The answer is whole. The caller goes on in the next turn: by then undici has read the answer's
      // end (it comes right after the [DONE]) and freed its connection, so that a request made right
      // after goes out on it instead of opening another.
      await new Promise((resolve) => setImmediate(resolve));
    } catch (error) {
      throw reading.failure(error);
    } finally {
      reading.close();
    }
  }

  /** The provider's answer handed to `onChunk` as it is read; resolves when it is whole, rejects as `stream` does. */
  async relay(req: ChatRequest, onChunk: (chunk: ProviderChunk) => void): Promise<void> {
    for await (const chunk of this.stream(req)) onChunk(chunk);
  }

  /** A whole answer as one string (used to fold old text into the summary). */
  async complete(req: ChatRequest): Promise<string> {
    let text = '';
    for await (const chunk of this.stream(req)) if (chunk.type === 'delta') text += chunk.text;
    return text;
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

const drainingPlatformFetch = drainingFetch(platformFetch);

/**
 * An SDK client for one provider. No SDK retries: a retried stream would repeat text the user already saw.
 * With a `transport` it is a user's host (a custom model, its connection test): organization and project
 * are set to none, so the SDK does not send the operator's OPENAI_ORG_ID / OPENAI_PROJECT_ID there.
 */
export async function providerClient(baseURL: string, apiKey: string, transport?: ProviderTransport, timeoutMs?: number): Promise<OpenAI> {
  const { OpenAI: Client } = await loadOpenAI();
  return new Client({
    baseURL,
    apiKey: apiKey || 'none',
    maxRetries: 0,
    ...(timeoutMs ? { timeout: timeoutMs } : {}),
    ...(transport
      ? { fetch: drainingFetch(transport.fetch), fetchOptions: transport.fetchOptions, organization: null, project: null }
      : { fetch: drainingPlatformFetch }),
  });
}
