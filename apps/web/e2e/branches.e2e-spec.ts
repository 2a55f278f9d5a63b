import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { journeyPairs, launchBrowser, newPage, screenshot, SCREENSHOTS, settled, signUpInBrowser, createStoryInBrowser } from './browser';

const baseURL = inject('baseURL');

const TEXT = {
  en: {
    prologue: 'Mara waits at the pier. The ferry is late.',
    line: 'I wave at the ferry.',
    other: 'I walk inland instead.',
    count: (n: number, total: number) => `${n} / ${total}`,
    forkTitle: 'Branch from here?',
    mainLine: 'Main line',
    branch2: 'Branch 2',
    playing: 'Playing',
    switched: 'Now playing: Main line',
  },
  'zh-CN': {
    prologue: '玛拉在码头等船，渡轮晚点了。',
    line: '我朝渡轮挥手。',
    other: '我转身走向内陆。',
    count: (n: number, total: number) => `${n} / ${total}`,
    forkTitle: '从这里分支？',
    mainLine: '主线',
    branch2: '分支 2',
    playing: '游玩中',
    switched: '正在游玩：主线',
  },
} as const;

const aiText = (page: Page) => page.getByTestId('turn-ai').innerText();
// The story's text as shown, line by line (without the pictures' captions between the lines).
const storyText = (page: Page) =>
  page.getByTestId('play-text').evaluate((el) => {
    const lines = Array.from(el.querySelectorAll('.tl-passage'), (p) => p.firstChild?.textContent ?? '');
    return lines.length ? lines.join('\n') : (el as HTMLElement).innerText;
  });
// Done streaming: the turn's actions are enabled (and their colour transition has finished).
async function waitIdle(page: Page) {
  await expect.poll(() => page.getByTestId('turn-continue').isEnabled()).toBe(true);
  await settled(page);
}

// A finger swiping sideways across the AI part (negative: to the left, which brings the next take).
async function swipe(page: Page, dx: number) {
  await page.getByTestId('turn-ai').evaluate((el, move) => {
    const box = el.getBoundingClientRect();
    const at = (x: number) => new Touch({ identifier: 1, target: el, clientX: x, clientY: box.top + 10 });
    const x0 = box.left + box.width / 2;
    el.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [at(x0)], changedTouches: [at(x0)] }));
    el.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [at(x0 + move)] }));
  }, dx);
}

describe('alternatives (takes) and branches in real Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const { lang, size, viewport } of journeyPairs('en-phone')) {
    it(`regenerates twice, flips between the takes and saves the second; branches from an early passage, plays it and switches back (${lang}, ${viewport.width} px)`, async () => {
      const T = TEXT[lang];
      // What the window shows once animations have settled, with the pointer out of the way (no tooltip).
      const shot = async (n: number, name: string) => {
        await page.mouse.move(1, viewport.height - 1);
        if (!SCREENSHOTS) return;
        await settled(page);
        await screenshot(page, `branches/${lang}-${size}-${n}-${name}`, { fullPage: false });
      };
      const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN', viewport });
      try {
        const { token } = await signUpInBrowser(context, page, lang, 'brancher', { closeDailyPowerDialog: true });
        const storyId = await createStoryInBrowser(page, token, { name: lang === 'en' ? 'Two roads' : '两条路', prologue_and_characters: T.prologue, role: 'Mara' });
        await page.goto(`/play?id=${storyId}`);
        await expect.poll(() => storyText(page)).toBe(T.prologue);

        // A turn, then two regenerates: three takes, each kept. Each regenerate is pressed at once: the
        // page waits for the one-send-per-second rule itself (lived-in.e2e-spec.ts proves it).
        await page.getByTestId('play-textarea').fill(T.line);
        await page.getByTestId('send-button').click();
        await waitIdle(page);
        const takes = [await aiText(page)];
        for (let i = 0; i < 2; i++) {
          await page.getByTestId('turn-regenerate').click();
          await expect.poll(() => aiText(page)).not.toBe(takes.at(-1));
          await waitIdle(page);
          takes.push(await aiText(page));
        }
        expect(new Set(takes).size).toBe(3);
        await expect.poll(() => page.getByTestId('take-count').innerText()).toBe(T.count(3, 3));
        await page.getByTestId('turn-card').scrollIntoViewIfNeeded();
        await shot(1, 'three-takes');

        // Flip back and forth: arrows (and on a phone, a swipe).
        await page.getByTestId('take-previous').click();
        await page.getByTestId('take-previous').click();
        await expect.poll(() => aiText(page)).toBe(takes[0]);
        expect(await page.getByTestId('take-count').innerText()).toBe(T.count(1, 3));
        if (size === 'phone') {
          await swipe(page, -150);
        } else {
          await page.getByTestId('take-next').click();
        }
        await expect.poll(() => aiText(page)).toBe(takes[1]);
        expect(await page.getByTestId('take-count').innerText()).toBe(T.count(2, 3));
        // The takes are the server's: a reload shows the same three (the newest in view).
        await page.reload();
        await expect.poll(() => page.getByTestId('take-count').innerText()).toBe(T.count(3, 3));
        await page.getByTestId('take-previous').click();
        await expect.poll(() => aiText(page)).toBe(takes[1]);
        await page.getByTestId('turn-card').scrollIntoViewIfNeeded();
        await shot(2, 'second-take-shown');

        // Save takes the one shown.
        await page.getByTestId('turn-save').click();
        await page.getByTestId('turn-card').waitFor({ state: 'detached' });
        await expect.poll(() => storyText(page)).toContain(takes[1]);
        const mainText = await storyText(page);
        expect(mainText).not.toContain(takes[0]);
        expect(mainText).not.toContain(takes[2]);

        // Branch from the first passage: asked first, then the new line is played.
        await page.getByTestId('branch-from-passage').first().click();
        await page.getByRole('dialog').filter({ hasText: T.forkTitle }).getByTestId('branch-fork-ok').waitFor();
        await shot(3, 'branch-from-here');
        await page.getByTestId('branch-fork-ok').click();
        await expect.poll(() => storyText(page)).toBe(T.prologue);

        // Play it: a turn on the new line.
        await page.getByTestId('play-textarea').fill(T.other);
        await page.getByTestId('send-button').click();
        await waitIdle(page);
        const branchReply = await aiText(page);
        await page.getByTestId('turn-save').click();
        await page.getByTestId('turn-card').waitFor({ state: 'detached' });
        await expect.poll(() => storyText(page)).toContain(branchReply);
        expect(await storyText(page)).not.toContain(takes[1]);
        await shot(4, 'branch-played');

        // The branch list: both lines, the played one marked; switch back to the original line.
        await page.getByTestId('toolbar-branches').click();
        const items = page.getByTestId('branch-item');
        await expect.poll(() => items.count()).toBe(2);
        await page.getByTestId('branch-list').waitFor();
        expect(await items.nth(0).getByTestId('branch-name').innerText()).toBe(T.mainLine);
        expect(await items.nth(1).getByTestId('branch-name').innerText()).toContain(T.branch2);
        expect(await items.nth(1).getByTestId('branch-name').innerText()).toContain(T.playing);
        await shot(5, 'branch-list');
        await items.nth(0).getByTestId('branch-play').click();
        await page.getByText(T.switched).waitFor();
        await expect.poll(() => storyText(page)).toBe(mainText);
        await page.getByTestId('play-text').scrollIntoViewIfNeeded();
        await shot(6, 'back-on-main-line');
        // No sideways scrolling at this width.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});
