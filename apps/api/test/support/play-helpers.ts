import type { SendTurnDto, StreamEvent } from '@taleloom/contracts';
import { Types } from 'mongoose';
import type { TestApp } from '../test-app';
import { sseEvents } from './sse-blocks';

export interface StreamResult {
  status: number;
  contentType: string;
  events: StreamEvent[];
  /** The JSON error body when the send was refused before streaming. */
  body: { status?: string; code?: string; message?: string; details?: { field: string; constraints: string[]; rules?: string[] }[]; params?: Record<string, string | number> } | null;
  /** The connection broke before the stream ended (only with `allowBreak`). */
  broken?: boolean;
}

export interface SendOptions {
  /** Called with each event as it arrives (e.g. to kill the server at a chosen point). */
  onEvent?: (event: StreamEvent, count: number) => void;
  /** A connection that breaks (the server died) ends the result with `broken` instead of throwing. */
  allowBreak?: boolean;
}

/**
 * Sends a turn over real HTTP and reads the server-sent events. `stopAfter` closes the connection
 * after that many events (the browser going away).
 */
export function sendTurn(
  baseURL: string,
  token: string,
  storyId: string,
  body: SendTurnDto,
  stopAfter?: number,
  options: SendOptions = {},
): Promise<StreamResult> {
  return postEvents(baseURL, token, `/api/llm/${storyId}`, body, stopAfter, options);
}

/** POSTs to a streaming endpoint over real HTTP and reads its server-sent events (or the JSON refusal). */
export async function postEvents(
  baseURL: string,
  token: string,
  path: string,
  body: object,
  stopAfter?: number,
  options: SendOptions = {},
): Promise<StreamResult> {
  const controller = new AbortController();
  const res = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) {
    return { status: res.status, contentType, events: [], body: (await res.json()) as StreamResult['body'] };
  }
  const events: StreamEvent[] = [];
  try {
    for await (const { data } of sseEvents(res.body!)) {
      events.push(JSON.parse(data) as StreamEvent);
      options.onEvent?.(events.at(-1)!, events.length);
      if (stopAfter !== undefined && events.length >= stopAfter) {
        controller.abort();
        return { status: res.status, contentType, events, body: null };
      }
    }
  } catch (error) {
    if (options.allowBreak && !controller.signal.aborted) return { status: res.status, contentType, events, body: null, broken: true };
    if (!controller.signal.aborted) throw error;
  }
  return { status: res.status, contentType, events, body: null };
}

/** Lets the app listen on a free loopback port (streams are read over real HTTP) and answers its base URL. */
export async function listenOnLoopback(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
}

/** The events of one type, typed as that type. */
export const ofType = <K extends StreamEvent['type']>(events: StreamEvent[], type: K) =>
  events.filter((e): e is Extract<StreamEvent, { type: K }> => e.type === type);

export const textOf = (events: StreamEvent[]) =>
  events.map((e) => (e.type === 'delta' ? e.text : '')).join('');

/** Lifts the one-send-per-second throttle of a story (tests that send several times in a row). */
export async function unthrottle(t: TestApp, storyId: string): Promise<void> {
  await t.connection.db!.collection('play_turns').updateOne({ _id: new Types.ObjectId(storyId) }, { $set: { lastSendAt: 0 } });
}

/** A platform model entry (MODELS_JSON) served by the stub at `baseURL`: 100 power, a 200-token reply budget. */
export function stubModel(baseURL: string, value: string, extra: object = {}) {
  return { label: value.toUpperCase(), value, points: 100, contextWindow: 4096, maxOutput: 200, baseURL, ...extra };
}

export async function storyDoc(t: TestApp, storyId: string) {
  return t.connection.db!.collection('stories').findOne({ _id: new Types.ObjectId(storyId) });
}
