/**
 * The `openai` SDK's client, loaded on first use: it is about 230 modules (150 ms on this VM), and a
 * platform model's stream does not use it (chat-provider.ts sends that request through undici and
 * takes only the SDK's error classes, from `openai/error`). A custom model's requests, its connection
 * test and pictures do. `warmOpenAI` loads it once the server listens (main.ts), so no request waits.
 */
let sdk: Promise<typeof import('openai')> | undefined;

export const loadOpenAI = (): Promise<typeof import('openai')> => (sdk ??= import('openai'));

export function warmOpenAI(): void {
  void loadOpenAI();
}
