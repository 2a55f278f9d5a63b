import type { StreamEvent } from '@taleloom/contracts';
import { sseEvents } from './sse-blocks';

/** A stream event with its SSE id (null: none) and when it was read. */
export interface IdEvent {
  id: string | null;
  event: StreamEvent;
  at: number;
}

export interface IdStream {
  status: number;
  events: IdEvent[];
  /** The JSON refusal, when the request was refused before streaming. */
  body: { code?: string; message?: string } | null;
}

/**
 * A request to a streaming endpoint over real HTTP, read event by event with ids. `stopWhen` closes
 * the connection after the event it returns true for (a client that lost its connection).
 */
export async function readIdStream(
  url: string,
  init: RequestInit,
  stopWhen?: (event: IdEvent, all: IdEvent[]) => boolean,
): Promise<IdStream> {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, signal: controller.signal });
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return { status: res.status, events: [], body: (await res.json()) as IdStream['body'] };
  }
  const events: IdEvent[] = [];
  try {
    for await (const { id, data } of sseEvents(res.body!)) {
      const read: IdEvent = { id, event: JSON.parse(data) as StreamEvent, at: Date.now() };
      events.push(read);
      if (stopWhen?.(read, events)) {
        controller.abort();
        return { status: res.status, events, body: null };
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: res.status, events, body: null };
}

/** GET /api/llm/{id}/stream: rejoins the story's turn (from `lastEventId` when given). */
export function rejoin(baseURL: string, token: string, storyId: string, lastEventId?: string | null, stopWhen?: (event: IdEvent, all: IdEvent[]) => boolean, query = ''): Promise<IdStream> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
  if (lastEventId) headers['Last-Event-ID'] = lastEventId;
  return readIdStream(`${baseURL}/api/llm/${storyId}/stream${query}`, { headers }, stopWhen);
}

/** POST /api/llm/{id}: sends a line, read with ids. */
export function sendWithIds(baseURL: string, token: string, storyId: string, body: object, stopWhen?: (event: IdEvent, all: IdEvent[]) => boolean): Promise<IdStream> {
  return readIdStream(
    `${baseURL}/api/llm/${storyId}`,
    { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    stopWhen,
  );
}

/** The text and the reasoning the events carry, joined as a client joins them. */
export function assembled(events: IdEvent[]): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  for (const { event } of events) {
    if (event.type === 'delta') text += event.text;
    if (event.type === 'reasoning') reasoning += event.text;
  }
  return { text, reasoning };
}
