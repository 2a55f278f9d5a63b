// What the OpenAI stub (openai-stub.ts) is asked to do: the behaviours a test sets, the requests it reads,
// and the markers a prompt may carry to steer it.

export interface StubBehaviour {
  /** The reply, cut into chunks; a function gets the request body and the request number (1-based). */
  chunks?: string[] | ((body: StubRequestBody, n: number) => string[]);
  /** Reasoning chunks sent before the reply (as `reasoning_content`). */
  reasoning?: string[];
  /** Delay before the first chunk and between chunks, in ms. */
  firstDelayMs?: number;
  delayMs?: number;
  /**
   * After this many reply chunks, break off: 'destroy' the socket, send an 'error' event, send a line
   * that is not JSON ('non-json'), end the body in the middle of a JSON line ('truncated-json'), or
   * end the body cleanly with no finish_reason and no [DONE] ('cut').
   */
  failAfter?: number;
  failMode?: 'destroy' | 'error-event' | 'non-json' | 'truncated-json' | 'cut';
  /** After this many reply chunks, go quiet and keep the connection open ('silence'), or keep it warm
   * with SSE comments or with chunks that carry no text every 50 ms. */
  stallAfter?: number;
  stallWith?: 'silence' | 'comments' | 'empty-chunks';
  /** The stream's Content-Type (default text/event-stream). */
  streamContentType?: string;
  /** Answer with this HTTP status and an error body instead of a stream. */
  httpStatus?: number;
  /** With httpStatus: this body and content type instead of the JSON error (e.g. an HTML page). */
  httpBody?: string;
  httpContentType?: string;
  /** completion_tokens reported in usage (default: the number of chunks). */
  completionTokens?: number;
  /** Each chunk's text is replaced by the wall-clock time it was sent (`t=<ms>;`), for latency benchmarks. */
  stamp?: boolean;
  /** Only this bearer key is accepted; others get 401 (as a provider with a wrong key). */
  requireKey?: string;
  /** The models `GET /models` lists; a completion for another model gets 404 model_not_found. Unset: no list (404). */
  models?: string[];
  /**
   * Refuse a chat request that carries max_tokens as OpenAI's reasoning models do (o1, o3, gpt-5:
   * 400 unsupported_parameter); max_completion_tokens is taken.
   */
  refuseMaxTokens?: boolean;
  /** The next this-many task requests (suggestions or scoring) get an answer that is not JSON. */
  malformedTasks?: number;
  /** How `POST /images/generations` answers (default: a real PNG of the asked size in `b64_json`). */
  images?: ImageStubBehaviour;
  /**
   * A chat request that is not the first on its connection is reset unanswered (the socket destroyed):
   * a provider that closed an idle connection just as the client sent on it.
   */
  resetReusedConnections?: boolean;
  /**
   * false: the stub says nothing of how long it keeps an idle connection (no `Keep-Alive: timeout` header)
   * and never closes one; by default it says 60 s and keeps them that long.
   */
  keepAliveHint?: boolean;
  /** The stream's answer is not ended after its [DONE] (its connection stays busy until the client closes it). */
  openAfterDone?: boolean;
}

/** Behaviour of the images route. A prompt containing `[[fail]]` is answered 500. */
export interface ImageStubBehaviour {
  /** Answer with this HTTP status and an error body. */
  httpStatus?: number;
  /**
   * b64 (default), url (a link to the PNG on this server), empty (no picture), not-image (bytes that
   * are no picture), webp (a 1x1 WebP, as some endpoints answer).
   */
  mode?: 'b64' | 'url' | 'empty' | 'not-image' | 'webp';
  /** Delay before answering, in ms. */
  delayMs?: number;
}

export interface StubImageRequestBody {
  model: string;
  prompt: string;
  size?: string;
  n?: number;
  response_format?: string;
}

export interface StubRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  stream_options?: { include_usage?: boolean };
}

/** Markers a prompt may carry (e.g. typed in a browser test) to steer the default behaviour. */
export const STUB_MARKERS = { fail: '[[fail]]', slow: '[[slow]]', long: '[[long]]', reason: '[[reason]]', malformed: '[[malformed]]' } as const;

/** The reply to a prompt marked `[[long]]`: 40 numbered pieces, 200 ms apart (8 s), in the prompt's language. */
export function longStubChunks(zh: boolean): string[] {
  return Array.from({ length: 40 }, (_, i) => (zh ? `第${i + 1}浪，` : `wave ${i + 1}, `));
}

export function withMarkers(b: StubBehaviour, prompt: string): StubBehaviour {
  let out = b;
  if (prompt.includes(STUB_MARKERS.slow)) out = { ...out, delayMs: 300, firstDelayMs: 300 };
  if (prompt.includes(STUB_MARKERS.long)) out = { ...out, delayMs: 200, firstDelayMs: 200, chunks: longStubChunks(/[\u3400-\u9fff]/.test(prompt)) };
  if (prompt.includes(STUB_MARKERS.fail)) out = { ...out, failAfter: 4, failMode: 'destroy', delayMs: out.delayMs ?? 50 };
  if (prompt.includes(STUB_MARKERS.reason)) out = { ...out, reasoning: ['Thinking', ' about', ' it.'] };
  return out;
}
