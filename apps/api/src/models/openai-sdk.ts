/**
 * The `openai` SDK's client, loaded on first use: it is about 230 modules (150 ms on this VM).
 * `warmOpenAI` loads it once the server listens (main.ts), so no request waits for it.
 */
let sdk: Promise<typeof import('openai')> | undefined;

export const loadOpenAI = (): Promise<typeof import('openai')> => (sdk ??= import('openai'));

export function warmOpenAI(): void {
  void loadOpenAI();
}
