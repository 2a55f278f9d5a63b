/**
 * The first screen's reads, started before the app has rendered. Opened cold, a screen otherwise asks
 * for its data only once the script, the strings, the screen's chunk and the screen's hooks have run,
 * and one read after another (the session, whether the story is mine, then the story, then what the
 * story's panels show). Started here, they travel while all that happens; `apiRequest` takes each
 * answer once, for the same URL and the same token, instead of asking again. An answer nobody takes
 * is dropped after EARLY_READ_TTL_MS; nothing here changes what the server stores.
 */

export const EARLY_READ_TTL_MS = 10_000;

interface EarlyRead {
  token: string;
  startedAt: number;
  response: Promise<Response>;
}

const started = new Map<string, EarlyRead>();

/** Starts a GET of each URL (already built: `/api/...?query`) with the token, unless one is on its way. */
export function startEarlyReads(urls: readonly string[], token: string, now = Date.now()): void {
  for (const url of urls) {
    if (started.has(url)) continue;
    const response = fetch(url, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
    // Taken or not, a failure here is not an unhandled rejection (the taker sees it).
    response.catch(() => undefined);
    started.set(url, { token, startedAt: now, response });
  }
}

/** The early answer for this URL and token (once), or null: ask the server. */
export function takeEarlyRead(url: string, token: string | null, now = Date.now()): Promise<Response> | null {
  const early = started.get(url);
  if (!early) return null;
  started.delete(url);
  if (early.token !== token || now - early.startedAt > EARLY_READ_TTL_MS) return null;
  return early.response;
}

/** Forgets every early read (tests: after signing out, the token check already keeps them unused). */
export function clearEarlyReads(): void {
  started.clear();
}
