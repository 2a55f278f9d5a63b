/** The first Chromium found (CHROMIUM_PATH, then the Debian packages), or undefined. */
export function chromiumPath(): string | undefined;
/** What to say when none is found. */
export const CHROMIUM_MISSING: string;
/** The flags this network and a fresh profile need. */
export const CHROMIUM_ARGS: readonly string[];
