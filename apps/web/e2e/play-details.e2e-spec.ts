import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStoryInBrowser, journeyPairs, launchBrowser, newPage, pressWhenStill, screenshot, signUpInBrowser } from './browser';

const baseURL = inject('baseURL');

const HINT = {
  en: { narrator: 'Write what happens next, as the narrator.', player: 'Write what your role says or does.' },
  'zh-CN': { narrator: '以旁白的身份写下接下来发生的事。', player: '写下你的角色说的话或做的事。' },
} as const;

describe('play screen details: an opaque top bar, a settings panel under it, the narrator hint, the tutorial at both widths', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    for (const { size, viewport } of journeyPairs('en-phone').filter((p) => p.lang === lang)) {
      it(`${lang}, ${viewport.width} px`, async () => {
        const { context, page } = await newPage(browser, baseURL, { viewport, locale: lang === 'en' ? 'en-US' : 'zh-CN', showGuide: true });
        try {
          const { token } = await signUpInBrowser(context, page, lang, 'details', { closeDailyPowerDialog: true });
          const prologue = Array.from({ length: 30 }, (_, i) => (lang === 'en' ? `Line ${i + 1} of the tale.` : `故事的第${i + 1}行。`)).join('\n');
          const storyId = await createStoryInBrowser(page, token, { name: lang === 'en' ? 'Details' : '细节', prologue_and_characters: prologue, role: '' });
          await page.goto(`/play?id=${storyId}`);

          // The tutorial, the first time: its phone layout below 768 px (steps one under another).
          const tutorial = page.getByTestId('play-tutorial');
          await tutorial.waitFor();
          expect(await tutorial.getAttribute('data-layout')).toBe(viewport.width < 768 ? 'phone' : 'desktop');
          expect(await page.locator('.ant-modal .ant-steps-vertical').count()).toBe(viewport.width < 768 ? 1 : 0);
          const modal = await page.locator('.ant-modal').boundingBox();
          expect(modal!.x).toBeGreaterThanOrEqual(0);
          expect(modal!.x + modal!.width).toBeLessThanOrEqual(viewport.width);
          await screenshot(page, `play-details-tutorial-${lang}-${size}`, { fullPage: false });
          for (let i = 0; i < 3; i++) await pressWhenStill(page, 'tutorial-next');
          await tutorial.waitFor({ state: 'hidden' });
          // And again from the play screen.
          await page.getByTestId('tutorial-open').click();
          await tutorial.waitFor();
          for (let i = 0; i < 3; i++) await pressWhenStill(page, 'tutorial-next');
          await tutorial.waitFor({ state: 'hidden' });

          // No role: the hint speaks to the narrator; with a role, to the role.
          expect(await page.getByTestId('play-textarea').getAttribute('placeholder')).toContain(HINT[lang].narrator);
          await page.locator('[data-testid="role-select"] input').fill('Mara');
          expect(await page.getByTestId('play-textarea').getAttribute('placeholder')).toContain(HINT[lang].player);

          // The top bar is opaque: the text scrolled under it does not show through.
          await page.evaluate(() => window.scrollTo(0, 400));
          const bar = await page.getByTestId('top-bar').evaluate((el) => {
            const style = getComputedStyle(el);
            return { background: style.backgroundColor, backdrop: style.backdropFilter, bottom: el.getBoundingClientRect().bottom };
          });
          expect(bar.background).toBe('rgb(255, 255, 255)');
          expect(['none', '']).toContain(bar.backdrop);
          await screenshot(page, `play-details-topbar-${lang}-${size}`, { fullPage: false });

          // The settings panel opens below the top bar: the bar's buttons stay on top and in reach.
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.getByTestId('toolbar-settings').click();
          const panel = page.getByTestId('settings-panel');
          await panel.waitFor();
          const drawer = await page.locator('.tl-play-settings-root .ant-drawer-section, .tl-play-settings-root .ant-drawer-content').first().boundingBox();
          expect(drawer!.y).toBeGreaterThanOrEqual(bar.bottom - 1);
          const covered = await page.getByTestId('top-bar').evaluate((el) => {
            const buttons = Array.from(el.querySelectorAll('button, a')).filter((b) => b.getBoundingClientRect().width > 0);
            return buttons.filter((b) => {
              const r = b.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return !hit || !el.contains(hit);
            }).length;
          });
          expect(covered).toBe(0);
          await screenshot(page, `play-details-settings-${lang}-${size}`, { fullPage: false });
        } finally {
          await context.close();
        }
      });
    }
  }
});
