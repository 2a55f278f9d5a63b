import type { ErrorCode } from '@taleloom/contracts/error-code';
import type { ChatRequest } from './chat-provider';

// The messages between the app's thread and the provider thread (provider-thread.ts, provider.worker.ts).

/** What the app's thread asks of the provider thread. */
export type RelayOrder =
  | { op: 'relay'; id: number; req: Omit<ChatRequest, 'signal' | 'custom'> }
  | { op: 'abort'; id: number };

export const TEXT_EVENT = 0;
export const REASONING_EVENT = 1;
export const USAGE_EVENT = 2;
export const DONE_EVENT = 3;
export const FAIL_EVENT = 4;

/** What the provider thread tells of a relay: a chunk, its end, or its failure (code, message, HTTP status or 0). */
export type ThreadEvent =
  | [id: number, kind: typeof TEXT_EVENT | typeof REASONING_EVENT, text: string]
  | [id: number, kind: typeof USAGE_EVENT, promptTokens: number, completionTokens: number]
  | [id: number, kind: typeof DONE_EVENT]
  | [id: number, kind: typeof FAIL_EVENT, code: ErrorCode, message: string, status: number];
