import { getStream, type StreamEventHandler } from '../../../lib/sse';

/**
 * `GET /api/llm/{id}/stream`: rejoins the story's turn from `from` (the last event id read; null:
 * from its start) and relays its events, each with its id. `turnId`: the turn `from` belongs to.
 */
export function followTurn(id: string, from: string | null, turnId: string | null, onEvent: StreamEventHandler, signal?: AbortSignal): Promise<void> {
  return getStream(`/llm/${encodeURIComponent(id)}/stream`, turnId ? { turn: turnId } : {}, from, onEvent, signal);
}
