import { request, type Dispatcher } from 'undici';

type FetchInput = Parameters<typeof fetch>[0];

// Headers as undici.request takes them, from whatever the SDK passes (a Headers, pairs or a record).
function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => (out[name] = value));
  return out;
}

/**
 * A `fetch` for the `openai` SDK whose streamed answers (text/event-stream) keep undici's Node stream as
 * the body: the SDK reads any async-iterable body, and skipping the WHATWG stream layer between the
 * socket and the SDK's SSE decoder roughly halves the work per chunk, which is what bounds how many
 * streams one API process can relay at once. Every other answer is read whole into a standard
 * Response (errors, JSON, pictures), so the SDK sees nothing unusual there.
 */
export function streamFetch(dispatcher?: Dispatcher): typeof fetch {
  return async (input: FetchInput, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const answer = await request(url, {
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: plainHeaders(init.headers),
      body: (init.body ?? undefined) as string | Buffer | Uint8Array | undefined,
      signal: init.signal ?? undefined,
      ...(dispatcher ? { dispatcher } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const status = answer.statusCode;
    const streamed = status >= 200 && status < 300 && (headers.get('content-type') ?? '').includes('text/event-stream');
    if (streamed) {
      const response = new Response(null, { status, headers });
      Object.defineProperty(response, 'body', { value: answer.body, enumerable: true });
      return response;
    }
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    const empty = status === 204 || status === 205 || status === 304;
    return new Response(empty ? null : bytes, { status, headers });
  };
}
