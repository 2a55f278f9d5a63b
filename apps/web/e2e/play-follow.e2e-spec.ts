import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStoryInBrowser, journeyPairs, launchBrowser, newPage, screenshot, settled, signUpInBrowser } from './browser';

const baseURL = inject('baseURL');

// A story long enough to scroll at every width, so following the new text is something the page must do.
const PROLOGUE = {
  en: Array.from({ length: 40 }, (_, i) => `Line ${i + 1}: the ferry is late and the pier is cold.`).join('\n'),
  'zh-CN': Array.from({ length: 40 }, (_, i) => `第${i + 1}行：渡轮晚点了，码头很冷。`).join('\n'),
} as const;
const LINES = { en: ['I wave.', 'I wait.', 'I call out.'], 'zh-CN': ['我挥手。', '我等待。', '我呼喊。'] } as const;
type Lang = keyof typeof PROLOGUE;

// Where the newest text and the turn's actions are, against the window and the sticky input bar.
const layout = (page: Page) =>
  page.evaluate(() => {
    const box = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect() ?? null;
    const ai = box('turn-ai');
    const actions = box('turn-actions');
    const input = box('play-input');
    return {
      height: window.innerHeight,
      gap: document.documentElement.scrollHeight - (window.scrollY + window.innerHeight),
      aiBottom: ai?.bottom ?? null,
      actionsTop: actions?.top ?? null,
      actionsBottom: actions?.bottom ?? null,
      inputTop: input?.top ?? null,
      docked: Boolean(document.querySelector('[data-testid="turn-dock"] [data-testid="turn-actions"]')),
    };
  });

// Each send goes at once, as the page's following is what is checked here (a send pressed sooner waits
// for the one-send-per-second rule with a cue, which lived-in.e2e-spec.ts checks): pressed once a second
// has passed since the last turn's first text (the server's second starts before it).
let firstTextAt = 0;
async function secondPassed() {
  const left = firstTextAt + 1000 - Date.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left));
}
async function sendNow(page: Page) {
  await secondPassed();
  await page.getByTestId('send-button').click();
  await expect.poll(async () => (await page.getByTestId('turn-ai').innerText()).length).toBeGreaterThan(0);
  firstTextAt = Date.now();
}

async function waitIdle(page: Page, timeout?: number) {
  await expect.poll(() => page.getByTestId('turn-continue').isEnabled(), { timeout }).toBe(true);
  // The last chunk's growth and its scroll have ended.
  await settled(page);
}

describe('the play screen keeps the reader at the newest text, the turn actions in view', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const satisfies Lang[]) {
    for (const { size, viewport } of journeyPairs('en-desktop').filter((p) => p.lang === lang)) {
      it(`follows every send and keeps undo/regenerate/edit/save/continue in view; stops following when the reader scrolls up (${lang}, ${viewport.width} px)`, async () => {
        const { context, page } = await newPage(browser, baseURL, { viewport, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
        try {
          const { token } = await signUpInBrowser(context, page, lang, 'follow', { closeDailyPowerDialog: true });
          const storyId = await createStoryInBrowser(page, token, { name: lang === 'en' ? 'The cold pier' : '寒冷的码头', prologue_and_characters: PROLOGUE[lang], role: 'Mara' });
          await page.goto(`/play?id=${storyId}`);
          await page.getByTestId('play-textarea').waitFor();
          // Seven sends (lines and continues, each saved before the next): after each the newest text
          // ends above the input bar and every action of the turn is on screen.
          for (let n = 0; n < 7; n++) {
            const line = n % 2 === 0 ? LINES[lang][n % 3] : '';
            await page.getByTestId('play-textarea').fill(line);
            await sendNow(page);
            await page.getByTestId('turn-card').waitFor();
            await waitIdle(page);
            // A picture of an earlier turn may come in at any moment (its caption grows the page): the
            // page follows in the frame after it, so a read between the two may see the page not yet
            // followed. Read until it is at its end (the following is what is checked), then the rest.
            await expect.poll(async () => (await layout(page)).gap, { message: `send ${n + 1}: at the page's end` }).toBeLessThanOrEqual(2);
            const at = await layout(page);
            expect(at.aiBottom!, `send ${n + 1}: the new text above the input`).toBeLessThanOrEqual(at.inputTop! + 1);
            expect(at.actionsTop!, `send ${n + 1}: the actions on screen`).toBeGreaterThanOrEqual(0);
            expect(at.actionsBottom!, `send ${n + 1}: the actions on screen`).toBeLessThanOrEqual(at.height);
            expect(at.docked).toBe(true);
            if (n === 0) await screenshot(page, `play-follow-${lang}-${size}`, { fullPage: false });
            if (n < 6) {
              await page.getByTestId('turn-save').click();
              await page.getByTestId('turn-card').waitFor({ state: 'detached' });
            }
          }

          // The reader scrolls up while the next turn streams: the page stays where they are.
          await page.getByTestId('turn-save').click();
          await page.getByTestId('turn-card').waitFor({ state: 'detached' });
          // A long reply (the stub's [[long]]: 40 pieces over 8 s): the reader scrolls up while it streams
          // however slowly the machine answers, and the text, the turn's actions and the picture of the
          // turn saved just before all grow the page after that.
          await page.getByTestId('play-textarea').fill(`${LINES[lang][0]} [[long]]`);
          await secondPassed();
          await page.getByTestId('send-button').click();
          // The turn is streaming (the send button is locked) before the reader scrolls up.
          await page.waitForFunction(() => (document.querySelector('[data-testid="send-button"]') as HTMLButtonElement | null)?.disabled === true);
          await page.mouse.move(viewport.width / 2, 200);
          await page.mouse.wheel(0, -300);
          await page.getByTestId('turn-card').waitFor();
          // The rest of the 8 s reply, however loaded the machine.
          await waitIdle(page, 30_000);
          const up = await layout(page);
          expect(up.gap, 'not pulled back to the end').toBeGreaterThan(100);
          // The actions are still on screen, docked above the input.
          expect(up.actionsTop!).toBeGreaterThanOrEqual(0);
          expect(up.actionsBottom!).toBeLessThanOrEqual(up.height);
          await screenshot(page, `play-follow-scrolled-up-${lang}-${size}`, { fullPage: false });
          // Back down to the end: the following resumes with the next send.
          await page.mouse.wheel(0, 100_000);
          await expect.poll(async () => (await layout(page)).gap).toBeLessThanOrEqual(48);
        } finally {
          await context.close();
        }
        // Eight sends, the last an 8 s reply, on a loaded 2-core machine.
      }, 180_000);
    }
  }
});
