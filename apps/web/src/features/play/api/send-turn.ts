import type { SendTurnDto, StreamEvent } from '@taleloom/contracts';
import { postStream } from '../../../lib/sse';

/** `POST /api/llm/{id}`: sends a line and relays the streamed events. */
export function sendTurn(
  id: string,
  body: Omit<SendTurnDto, 'language'>,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  return postStream(`/llm/${encodeURIComponent(id)}`, { ...body }, onEvent, signal);
}
