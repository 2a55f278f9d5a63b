/**
 * The `openai` SDK's client, loaded on first use: it is about 230 modules (150 ms on this VM).
 * `warmOpenAI` loads it a moment after the server listens (main.ts), so no later request waits for it.
 */
let sdk: Promise<typeof import('openai')> | undefined;

export const loadOpenAI = (): Promise<typeof import('openai')> => (sdk ??= import('openai'));

export async function warmOpenAI(): Promise<void> {
  await loadOpenAI();
}
