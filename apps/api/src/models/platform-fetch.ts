import type { Agent, fetch as undiciFetch } from 'undici';

type Undici = typeof import('undici');
let undici: Undici | undefined;

/**
 * undici, loaded on the first request to a provider rather than with the app: loading it was about a
 * tenth of the app's module loading before it listens, and no request but a send needs it.
 * `warmUndici` loads it a moment after the server listens (main.ts), so no later send waits for it.
 */
export function loadUndici(): Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous and on first use only (see above)
  return (undici ??= require('undici') as Undici);
}

export function warmUndici(): void {
  loadUndici();
}

// undici keeps an idle connection 4 s when the provider does not say how long it keeps it: a player
// reads a turn for longer than that, and each send would open a new connection (a TLS handshake).
let agent: Agent | undefined;
const platformAgent = (): Agent => (agent ??= new (loadUndici().Agent)({ keepAliveTimeout: 30_000 }));

// How a kept connection that the provider closed just as a request went out on it fails.
const CLOSED_UNDER_REQUEST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function closedUnderRequest(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (CLOSED_UNDER_REQUEST.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}

/**
 * The `fetch` the openai SDK uses for platform models (the operator's providers, the demo model):
 * undici's, over one agent that keeps idle connections 30 s. A provider that closes an idle connection
 * just as a request goes out on it resets it before any byte of an answer: nothing was read, so the
 * request goes once more, on a new connection (the SDK itself retries nothing: maxRetries 0). A
 * provider that cannot be reached is not asked twice.
 */
export const platformFetch = (async (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => {
  const options = { ...init, dispatcher: platformAgent() };
  const { fetch: undiciFetch } = loadUndici();
  try {
    return await undiciFetch(input, options);
  } catch (error) {
    if (init?.signal?.aborted || !closedUnderRequest(error)) throw error;
    return undiciFetch(input, options);
  }
}) as unknown as typeof globalThis.fetch;

// How long the rest of an answer after the SDK stopped reading it (at its [DONE]) may take to arrive
// before its connection is given up.
const AFTER_DONE_MS = 5_000;

/**
 * `fetch` whose streamed answers (text/event-stream) are read to their end when the SDK stops reading
 * them: the SDK stops at [DONE] and cancels the body, and a body cancelled before its end (the end
 * often comes a moment after the [DONE]) closes its connection, so that the next request would open a
 * new one (a TLS handshake with a real provider). The rest is read unseen, 5 s at most, and the
 * connection goes back to the pool. A request aborted by its signal (the caller's abort, the idle
 * timeout) still closes its connection: nothing half-read is reused.
 */
export function drainingFetch(inner: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const source = response.body;
    if (!source || !response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
    const reader = source.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: () => drain(reader),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function drain(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), AFTER_DONE_MS);
  timer.unref();
  const next = (): Promise<void> => reader.read().then(({ done }) => (done ? undefined : next()));
  next()
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}
