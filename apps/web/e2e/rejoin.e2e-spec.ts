import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { longStubChunks } from '../../api/test/support/openai-stub';
import { createStoryInBrowser, DESKTOP, launchBrowser, newPage, PHONE, signUpInBrowser } from './browser';

const baseURL = inject('baseURL');

// `[[long]]` makes the stub write 40 numbered pieces, 200 ms apart (about 8 s).
const CASES = [
  { lang: 'en', locale: 'en-US', viewport: DESKTOP, line: '[[long]] The tide comes in.', piece: (i: number) => `wave ${i},`, reconnecting: 'Reconnecting' },
  { lang: 'zh-CN', locale: 'zh-CN', viewport: PHONE, line: '[[long]] 潮水涨起来了。', piece: (i: number) => `第${i}浪，`, reconnecting: '正在重新连接' },
] as const;

const aiText = (page: Page) => page.getByTestId('turn-ai').innerText();
const count = (text: string, piece: string) => text.split(piece).length - 1;
/** The number of the last of the 40 pieces in `text` (0: none yet). */
const lastPiece = (text: string, piece: (i: number) => string) => Array.from({ length: 40 }, (_, i) => 40 - i).find((i) => text.includes(piece(i))) ?? 0;

describe('a turn that keeps writing through a dropped connection and shows on another device (real Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const c of CASES) {
    it(`goes offline mid-turn for a few seconds and comes back to the whole turn once; a second window of the same user follows it live (${c.lang}, ${c.viewport.width} px)`, async () => {
      const { context, page } = await newPage(browser, baseURL, { locale: c.locale, viewport: c.viewport });
      const other = await newPage(browser, baseURL, { locale: c.locale, viewport: c.viewport });
      try {
        const { token } = await signUpInBrowser(context, page, c.lang, 'rejoiner');
        const storyId = await createStoryInBrowser(page, token, { name: 'Tide', prologue_and_characters: c.lang === 'en' ? 'The harbour at dusk.' : '黄昏的港口。', role: '' });
        await page.goto(`/play?id=${storyId}`);
        // The same user's other window has the app loaded before the turn (its scripts in its cache): it
        // opens the story during the 8 s turn however loaded the machine, not only when its first load is quick.
        const session = await page.evaluate(() => ({ token: localStorage.getItem('token')!, userInfo: localStorage.getItem('userInfo')!, lang: localStorage.getItem('lang')! }));
        await other.context.addInitScript((s) => {
          localStorage.setItem('token', s.token);
          localStorage.setItem('userInfo', s.userInfo);
          localStorage.setItem('lang', s.lang);
          localStorage.setItem('powerDialogClosedAt', String(Date.now()));
        }, session);
        await other.page.goto('/stories');
        await other.page.getByTestId('story-start').first().waitFor();
        await page.getByTestId('play-textarea').fill(c.line);
        await page.getByTestId('play-textarea').press('Shift+Enter');
        await expect.poll(() => aiText(page), { timeout: 15_000 }).toContain(c.piece(4));

        // The connection goes away for a few seconds: the screen says it is reconnecting, in its language.
        await context.setOffline(true);
        const cutAt = lastPiece(await aiText(page), c.piece);
        await page.getByTestId('turn-reconnecting').waitFor();
        expect(await page.getByTestId('turn-reconnecting').innerText()).toContain(c.reconnecting);

        // Meanwhile the same user opens the story in another window: the turn streams there live,
        // its controls in the generating state.
        await other.page.goto(`/play?id=${storyId}`);
        await other.page.getByTestId('turn-ai').waitFor();
        const first = await aiText(other.page);
        expect(await other.page.getByTestId('turn-continue').isEnabled()).toBe(false);
        await expect.poll(() => aiText(other.page).then((t) => t.length), { timeout: 5000 }).toBeGreaterThan(first.length);
        expect(count(await aiText(other.page), c.piece(40))).toBe(0);

        // Offline while the turn goes on: until the other window has five pieces this one missed.
        await expect.poll(async () => lastPiece(await aiText(other.page), c.piece), { timeout: 15_000 }).toBeGreaterThanOrEqual(Math.min(40, cutAt + 5));
        await context.setOffline(false);
        await page.getByTestId('turn-reconnecting').waitFor({ state: 'hidden', timeout: 10_000 });

        // Both end with the whole turn, every piece once, and the same text.
        for (const p of [page, other.page]) {
          await expect.poll(() => p.getByTestId('turn-continue').isEnabled(), { timeout: 20_000 }).toBe(true);
        }
        const mine = await aiText(page);
        const theirs = await aiText(other.page);
        expect(theirs).toBe(mine);
        for (let i = 1; i <= 40; i++) expect({ piece: c.piece(i), times: count(mine, c.piece(i)) }).toEqual({ piece: c.piece(i), times: 1 });
        expect(mine.replace(/\s+/g, '')).toBe(longStubChunks(c.lang === 'zh-CN').join('').replace(/\s+/g, ''));
      } finally {
        await other.context.close();
        await context.close();
      }
    }, 120_000);
  }
});
