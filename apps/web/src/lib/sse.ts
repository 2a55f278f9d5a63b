import type { ApiError, StreamEvent } from '@taleloom/contracts';
import { API_BASE, ApiClientError, CLIENT_ERROR_CODES, notifyUnauthorized } from './api-client';
import { getCurrentLanguage } from './i18n';
import { getToken } from './storage';

/**
 * An incremental parser of server-sent events (the WHATWG rules that matter here): `data:` lines
 * of one event are joined with newlines, a blank line ends the event, `:` lines are comments, an
 * `id:` line sets the last event id (given with every event from then on), and a chunk may end
 * anywhere — inside a line, between `\r` and `\n`, or inside a UTF-8 character.
 */
export function createSseParser(onData: (data: string, id: string | undefined) => void) {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let lastId: string | undefined;
  let pendingCR = false;

  const line = (text: string) => {
    if (text === '') {
      if (data.length) onData(data.join('\n'), lastId);
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) lastId = value;
  };

  const feed = (text: string) => {
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c === '\n' && pendingCR) {
        // The \n of a \r\n split across chunks.
        pendingCR = false;
        start = i + 1;
        continue;
      }
      pendingCR = false;
      if (c === '\n' || c === '\r') {
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 < buffer.length) {
            if (buffer[i + 1] === '\n') i++;
          } else {
            pendingCR = true;
          }
        }
        start = i + 1;
      }
    }
    buffer = buffer.slice(start);
  };

  return {
    push(chunk: Uint8Array | string) {
      feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    },
    /** The stream ended: an unterminated last event is dropped, as the standard says. */
    end() {
      feed(decoder.decode());
      buffer = '';
      data = [];
    },
  };
}

/** A stream event and its id (a turn's events carry their position: see GET /api/llm/{id}/stream). */
export type StreamEventHandler = (event: StreamEvent, id?: string) => void;

/** Reads a stream of bytes as StreamEvents; lines that are not JSON objects are skipped. */
export async function readStreamEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: StreamEventHandler,
): Promise<void> {
  const parser = createSseParser((data, id) => {
    try {
      const event = JSON.parse(data) as StreamEvent;
      if (event && typeof event === 'object' && typeof event.type === 'string') onEvent(event, id);
    } catch {
      // not an event of ours
    }
  });
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    parser.end();
  } finally {
    reader.releaseLock();
  }
}

/**
 * POSTs like the API client (bearer token, `language` in the body) and relays the streamed events.
 * A refusal before the stream (a JSON error) throws ApiClientError, exactly like apiRequest.
 */
export function postStream(
  path: string,
  body: Record<string, unknown>,
  onEvent: StreamEventHandler,
  signal?: AbortSignal,
): Promise<void> {
  const headers = new Headers({ Accept: 'text/event-stream', 'Content-Type': 'application/json' });
  return readStream(path, { method: 'POST', headers, body: JSON.stringify({ ...body, language: getCurrentLanguage() }), signal }, onEvent);
}

/**
 * GETs a stream like postStream (`language` in the query); `lastEventId`: the `Last-Event-ID` header
 * (where a rejoined stream goes on from).
 */
export function getStream(path: string, query: Record<string, string>, lastEventId: string | null, onEvent: StreamEventHandler, signal?: AbortSignal): Promise<void> {
  const headers = new Headers({ Accept: 'text/event-stream' });
  if (lastEventId) headers.set('Last-Event-ID', lastEventId);
  const search = new URLSearchParams({ ...query, language: getCurrentLanguage() });
  return readStream(`${path}?${search.toString()}`, { method: 'GET', headers, signal }, onEvent);
}

async function readStream(path: string, init: RequestInit & { headers: Headers }, onEvent: StreamEventHandler): Promise<void> {
  const token = getToken();
  if (token) init.headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiClientError(0, CLIENT_ERROR_CODES.network, error instanceof Error ? error.message : String(error));
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.includes('text/event-stream') || !response.body) {
    let envelope: Partial<ApiError> = {};
    try {
      envelope = (await response.json()) as typeof envelope;
    } catch {
      // not JSON
    }
    if (response.status === 401) notifyUnauthorized();
    // details and params too: a refusal's message may need them (e.g. the seconds of a rate limit).
    throw new ApiClientError(
      response.status,
      envelope.code ?? CLIENT_ERROR_CODES.badResponse,
      envelope.message ?? response.statusText,
      envelope.details,
      envelope.params,
    );
  }
  await readStreamEvents(response.body, onEvent);
}
