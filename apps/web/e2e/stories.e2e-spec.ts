import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signUpInBrowser, uniqueName, pressWhenStill } from './browser';

const baseURL = inject('baseURL');

const TEXT = {
  en: { players: 'Players', cloned: 'Your copy is ready' },
  'zh-CN': { players: '玩家数', cloned: '你的副本已就绪' },
} as const;
type Lang = keyof typeof TEXT;

/** A signed-in page for a new user, in `lang`, without going through the login form. */
async function signedIn(browser: Browser, lang: Lang, prefix: string): Promise<{ context: BrowserContext; page: Page; userID: string }> {
  const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN' });
  const { userID } = await signUpInBrowser(context, page, lang, prefix, { closeDailyPowerDialog: true });
  return { context, page, userID };
}

const idOf = (url: string) => new URL(url).searchParams.get('id');

describe('stories in real Chromium: create, publish, share, clone, counters', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`A publishes, B opens the share link and lands in a clone, A sees the counters move (${lang})`, async () => {
      const a = await signedIn(browser, lang, 'author');
      const b = await signedIn(browser, lang, 'reader');
      try {
        // A: an empty list switches to the public tab; then A creates a story.
        await a.page.goto('/stories');
        await a.page.getByTestId('stories-new').click();
        await a.page.waitForURL(/\/create$/);
        const storyName = `Tale ${uniqueName('')}`;
        await a.page.getByTestId('create-name').fill(storyName);
        await a.page.getByTestId('create-prologue').fill('The lighthouse keeper found a letter.\nIt was addressed to her, fifty years ago.');
        await a.page.getByTestId('create-role').fill('Keeper');
        await screenshot(a.page, `create-${lang}`);
        await a.page.getByTestId('create-submit').click();
        await a.page.waitForURL(/\/play\?id=/);
        const storyId = idOf(a.page.url())!;
        await expect.poll(() => a.page.getByTestId('play-title').innerText()).toBe(storyName);

        // A publishes (with a confirmation) and opens the share dialog.
        await a.page.getByTestId('publish-button').click();
        await pressWhenStill(a.page, a.page.locator('.ant-modal-confirm-btns .ant-btn-primary'));
        await a.page.getByTestId('publish-menu').waitFor({ state: 'visible' });
        await a.page.getByTestId('publish-menu').click();
        await pressWhenStill(a.page, 'publish-share');
        const link = await a.page.getByTestId('share-link').inputValue();
        expect(link).toBe(`${baseURL}/play?id=${storyId}`);
        // Layout width (the dialog's zoom-in animation scales the box while it opens); no padding, no border.
        const qr = a.page.getByTestId('share-qr');
        expect(await qr.evaluate((el) => [(el as HTMLElement).offsetWidth, getComputedStyle(el).padding])).toEqual([200, '0px']);
        await expect.poll(async () => (await qr.boundingBox())?.width).toBe(200);
        await screenshot(a.page, `share-${lang}`);

        // B opens the link: a clone is made and B lands in it after 1 s.
        await b.page.goto(link);
        await expect.poll(() => b.page.locator('.ant-message').innerText()).toContain(TEXT[lang].cloned);
        await b.page.waitForURL((url) => url.searchParams.get('id') !== storyId && url.pathname === '/play');
        const cloneId = idOf(b.page.url())!;
        expect(cloneId).not.toBe(storyId);
        await expect.poll(() => b.page.getByTestId('play-title').innerText()).toMatch(new RegExp(`^S\\d+ ${storyName} V1$`));
        await screenshot(b.page, `clone-${lang}`);

        // B's list shows the clone; A's square item counts B as a player.
        await b.page.goto('/stories');
        await expect.poll(() => b.page.getByTestId('story-title').first().innerText()).toMatch(/ V1$/);
        await a.page.goto('/stories');
        await a.page.getByTestId('stories-tab-public').click();
        const item = a.page.getByTestId('story-item').filter({ hasText: storyName });
        await expect.poll(() => item.getByTestId('stat-players').innerText()).toBe('1');
        await expect.poll(() => item.getByTestId('square-stats').innerText()).toContain(TEXT[lang].players);
        await expect.poll(() => item.getByTestId('story-badge-myStory').count()).toBe(1);
        await screenshot(a.page, `square-${lang}`);

        // A makes it private: the square and the link stop showing it at once.
        await a.page.goto(`/play?id=${storyId}`);
        await a.page.getByTestId('publish-menu').click();
        await pressWhenStill(a.page, 'publish-private');
        await pressWhenStill(a.page, a.page.locator('.ant-modal-confirm-btns .ant-btn-primary'));
        await a.page.getByTestId('publish-button').waitFor({ state: 'visible' });
        await b.page.goto(link);
        await b.page.waitForURL(/\/stories$/);
      } finally {
        await a.context.close();
        await b.context.close();
      }
    });
  }
});
