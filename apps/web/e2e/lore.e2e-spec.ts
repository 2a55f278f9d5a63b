import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, journeyPairs, launchBrowser, newPage, PHONE, screenshot, signUpInBrowser, still, createStoryInBrowser } from './browser';

const baseURL = inject('baseURL');

const TEXT = {
  en: {
    prologue: 'Mara waits at the pier. The ferry is late.',
    title: 'Ashford Keep',
    keyword: 'Ashford',
    content: 'Ashford Keep guards the northern pass; its gate opens only at dawn.',
    line: 'I ride north toward Ashford before the storm.',
    why: 'fired by “Ashford” in your line',
    entries: '1 entry',
    copy: 'Ashford Keep (copy)',
  },
  'zh-CN': {
    prologue: '玛拉在码头等船，渡轮晚点了。',
    title: '龙城',
    keyword: '龙城',
    content: '龙城守着北方的山口，城门只在黎明时打开。',
    line: '我在暴风雨来临前骑马赶往龙城。',
    why: '由你的输入中的「龙城」触发',
    entries: '共 1 条',
    copy: '龙城（副本）',
  },
} as const;
type Lang = keyof typeof TEXT;

async function openLore(page: Page) {
  await page.getByTestId('toolbar-lore').click();
  await page.getByTestId('lore-panel').waitFor();
}

async function closeLore(page: Page) {
  await page.locator('.tl-lore-drawer .ant-drawer-close').click();
  await page.getByTestId('lore-panel').waitFor({ state: 'hidden' });
}

// Nothing of the page goes past the window's width.
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('lore in real Chromium: add an entry, mention its keyword, see it fire in the inspector', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const satisfies readonly Lang[]) {
    for (const { size, viewport } of journeyPairs('en-phone').filter((p) => p.lang === lang)) {
      it(`adds an entry that fires when its keyword is sent (${lang}, ${viewport.width} px)`, async () => {
        const L = TEXT[lang];
        const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN', viewport });
        try {
          const { token } = await signUpInBrowser(context, page, lang, 'lorist', { closeDailyPowerDialog: true });
          const storyId = await createStoryInBrowser(page, token, { name: lang === 'en' ? 'The northern pass' : '北方山口', prologue_and_characters: L.prologue, role: 'Mara' });
          await page.goto(`/play?id=${storyId}`);
          await page.getByTestId('play-text').waitFor();

          // Add the entry in the lore panel.
          await openLore(page);
          await page.getByTestId('lore-add').click();
          await page.getByTestId('lore-form-title').fill(L.title);
          await page.getByTestId('lore-form-keys').locator('input').fill(L.keyword);
          await page.getByTestId('lore-form-keys').locator('input').press('Enter');
          await page.getByTestId('lore-form-content').fill(L.content);
          await screenshot(page, `lore-form-${lang}-${size}`, { fullPage: false });
          await page.locator('.ant-modal-footer .ant-btn-primary').click();
          await page.getByTestId('lore-entry').first().waitFor();
          expect(await page.getByTestId('lore-entry').first().innerText()).toContain(L.title);
          expect(await page.locator('.tl-lore__count').innerText()).toBe(L.entries);
          // Duplicate, find it by search, and switch it off: only the original fires.
          await page.getByTestId('lore-entry-duplicate').first().click();
          await expect.poll(() => page.getByTestId('lore-entry').count()).toBe(2);
          await page.getByTestId('lore-search').locator('input').fill(lang === 'en' ? 'copy' : '副本');
          await expect.poll(() => page.getByTestId('lore-entry').count()).toBe(1);
          expect(await page.getByTestId('lore-entry').innerText()).toContain(L.copy);
          await page.getByTestId('lore-entry-enabled').click();
          await expect.poll(() => page.getByTestId('lore-entry-enabled').getAttribute('aria-checked')).toBe('false');
          await page.getByTestId('lore-search').locator('input').fill('');
          expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(viewport.width);
          await screenshot(page, `lore-panel-${lang}-${size}`, { fullPage: false });
          await closeLore(page);

          // Mention the keyword and send.
          await page.getByTestId('play-textarea').fill(L.line);
          await page.getByTestId('play-textarea').press('Shift+Enter');
          await expect.poll(() => page.getByTestId('turn-continue').isEnabled(), { timeout: 20_000 }).toBe(true);

          // The inspector shows the entry that fired, why, and every part with its tokens.
          await openLore(page);
          await page.getByTestId('lore-tab-context').click();
          await page.getByTestId('context-inspector').waitFor();
          await expect.poll(() => page.locator('[data-testid="context-part"][data-kind="lore"]').count()).toBe(1);
          const lorePart = page.locator('[data-testid="context-part"][data-kind="lore"]');
          expect(await lorePart.innerText()).toContain(L.title);
          expect(await lorePart.getByTestId('context-lore-why').innerText()).toBe(L.why);
          const kinds = await page.getByTestId('context-part').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
          expect(kinds).toEqual(['system', 'play_mode', 'prologue', 'lore', 'text', 'user_prompt', 'line']);
          await lorePart.click();
          await expect.poll(() => page.locator('.tl-context__text').filter({ hasText: L.content }).count()).toBe(1);
          expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(viewport.width);
          await screenshot(page, `lore-inspector-${lang}-${size}`, { fullPage: false });
        } finally {
          await context.close();
        }
      });
    }

    const viewport = lang === 'en' ? DESKTOP : PHONE;
    it(`imports a World Info file beside the story's entries and exports the lore as one (${lang}, ${viewport.width} px)`, async () => {
      const L = TEXT[lang];
      const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN', viewport });
      try {
        const { token } = await signUpInBrowser(context, page, lang, 'lorefile', { closeDailyPowerDialog: true });
        const headers = { Authorization: `Bearer ${token}` };
        const storyId = await createStoryInBrowser(page, token, { name: lang === 'en' ? 'Lore from a file' : '文件里的设定', prologue_and_characters: L.prologue });
        await page.request.post(`/api/lore/${storyId}/entries`, { headers, data: { title: L.title, keys: [L.keyword], content: L.content } });
        await page.goto(`/play?id=${storyId}`);
        await page.getByTestId('play-text').waitFor();
        await openLore(page);
        await expect.poll(() => page.getByTestId('lore-entry').count()).toBe(1);

        // A World Info book as SillyTavern exports it: its two entries come after the story's own.
        const worldInfo = {
          entries: {
            '0': { uid: 0, key: ['wyrm'], keysecondary: [], comment: 'Wyrm', content: 'Wyrms sleep under the hill.', order: 20, disable: false, selectiveLogic: 0 },
            '1': { uid: 1, key: ['gate'], keysecondary: [], comment: lang === 'en' ? 'The dawn gate' : '黎明之门', content: 'The gate opens at dawn.', order: 30, disable: false, selectiveLogic: 0 },
          },
        };
        await page.locator('.tl-lore__files input[type=file]').setInputFiles({ name: 'world.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(worldInfo)) });
        await page.getByTestId('lore-import-append').waitFor();
        // The dialog's opening animation ends before the width is measured.
        await still(page);
        expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `lore-import-${lang}-${viewport === DESKTOP ? 'desktop' : 'phone'}`, { fullPage: false });
        await page.getByTestId('lore-import-append').click();
        await expect.poll(() => page.getByTestId('lore-entry').count()).toBe(3);
        const titles = await page.locator('.tl-lore__title').allInnerTexts();
        expect(titles).toEqual([L.title, 'Wyrm', worldInfo.entries['1'].comment]);

        // Export: a World Info file with all three, named after the story.
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('lore-export').click()]);
        expect(download.suggestedFilename()).toBe(lang === 'en' ? 'TaleLoom-Lore from a file-lore.json' : '织梦故事-文件里的设定-设定.json');
        const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as { entries: Record<string, { comment: string; key: string[] }> };
        expect(Object.values(exported.entries).map((e) => e.comment)).toEqual(titles);
        expect(exported.entries['0'].key).toEqual([L.keyword]);
      } finally {
        await context.close();
      }
    });
  }
});
