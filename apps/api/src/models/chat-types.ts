import type { PlatformModel } from '../config/platform-models';

/** The provider's request and what its stream turns into (ChatProvider, ProviderReading). */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What a provider stream turns into; nothing else leaves this file. */
export type ProviderChunk =
  | { type: 'delta'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'usage'; promptTokens: number; completionTokens: number };

/** How requests reach a provider when the default will not do: users' models go through the address guard. */
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
