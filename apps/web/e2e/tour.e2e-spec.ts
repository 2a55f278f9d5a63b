import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, journeyPairs, launchBrowser, newPage, openSignIn, PHONE, pressWhenStill, screenshot, SCREENSHOTS, uniqueName } from './browser';

const baseURL = inject('baseURL');

// A user's tour of the main journeys, through the UI only: sign in, the daily power, the stories
// screen, create, play a turn, the settings, publish and share, the square. In both languages, at
// phone and desktop width; every step is a screenshot in screenshots/tour/ (the README shows some).
const TEXT = {
  en: {
    name: 'The lighthouse letter',
    prologue: 'The lighthouse keeper found a letter addressed to her, fifty years ago.\nThe storm had not yet come.',
    role: 'Keeper',
    line: 'I open the letter by the lamp.',
  },
  'zh-CN': {
    name: '灯塔来信',
    prologue: '守塔人发现了一封五十年前寄给她的信。\n暴风雨还没有来。',
    role: '守塔人',
    line: '我在灯下拆开了信。',
  },
} as const;
type Lang = keyof typeof TEXT;

const SIZES = { desktop: DESKTOP, phone: PHONE } as const;

async function shoot(page: Page, lang: Lang, size: keyof typeof SIZES, step: string) {
  if (!SCREENSHOTS) return;
  // A passing toast (checked in, published...) is not part of the screen being shown.
  await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 6000 }).catch(() => undefined);
  // Dialogs and drawers finish their opening animation (screenshot waits until nothing moves).
  await screenshot(page, `tour/${lang}-${size}-${step}`);
}

/** No horizontal scrolling at this width: nothing sticks out of the page. */
async function fitsWidth(page: Page) {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client + 1);
}

describe('a tour of the main journeys in real Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const { lang, size } of journeyPairs('en-desktop')) {
    it(`signs in, creates, plays, publishes and shares (${lang}, ${size})`, async () => {
      // In English at desktop width the whole journey is pressed through the menus' and dialogs'
      // animations, as most people see them (every other walk runs with reduced motion: browser.ts).
      const motion = lang === 'en' && size === 'desktop' ? 'no-preference' : 'reduce';
      const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN', viewport: SIZES[size], reducedMotion: motion });
      const t = TEXT[lang];
      try {
        // Sign in (a new user name registers).
        await openSignIn(page);
        await page.getByTestId('login-card').waitFor();
        await shoot(page, lang, size, '1-login');
        await fitsWidth(page);
        await page.getByTestId('login-tab-username').click();
        await page.getByTestId('login-username-input').fill(uniqueName('tour'));
        await page.getByTestId('login-password-input').fill('secret1');
        await page.getByTestId('login-submit').click();

        // A new user is offered the daily power; the list of their (no) stories goes to the square.
        await page.waitForURL(/\/stories/);
        await page.getByTestId('power-dialog').waitFor();
        await shoot(page, lang, size, '2-daily-power');
        await pressWhenStill(page, 'power-check-in');
        await expect.poll(() => page.getByTestId('power-check-in').isDisabled()).toBe(true);
        await page.keyboard.press('Escape');
        await page.getByTestId('power-dialog').waitFor({ state: 'hidden' });
        // The empty list has gone to the square (a second after it came), so the page is at rest before
        // the next press: a press during the switch once landed on nothing (a CI retry).
        await page.waitForURL(/[?&]tab=square/);
        await shoot(page, lang, size, '3-stories');
        await fitsWidth(page);

        // Create a story.
        await page.getByTestId('stories-new').click();
        await page.waitForURL(/\/create$/);
        await page.getByTestId('create-name').fill(t.name);
        await page.getByTestId('create-prologue').fill(t.prologue);
        await page.getByTestId('create-role').fill(t.role);
        await shoot(page, lang, size, '4-create');
        await fitsWidth(page);
        await page.getByTestId('create-submit').click();
        await page.waitForURL(/\/play\?id=/);

        // Play a turn: the reply streams in; save it into the story.
        await expect.poll(() => page.getByTestId('play-title').innerText()).toBe(t.name);
        await page.getByTestId('play-textarea').fill(t.line);
        await page.getByTestId('send-button').click();
        await page.getByTestId('turn-card').waitFor();
        await expect.poll(() => page.getByTestId('turn-continue').isEnabled()).toBe(true);
        await expect.poll(async () => (await page.getByTestId('turn-ai').innerText()).length).toBeGreaterThan(10);
        await shoot(page, lang, size, '5-play-turn');
        await fitsWidth(page);
        await page.getByTestId('turn-save').click();
        await page.getByTestId('turn-card').waitFor({ state: 'detached' });
        await expect.poll(() => page.getByTestId('play-text').innerText()).toContain(t.line);

        // The story settings.
        await page.getByTestId('toolbar-settings').click();
        await page.getByTestId('settings-panel').waitFor();
        await shoot(page, lang, size, '6-settings');
        await page.keyboard.press('Escape');
        await page.getByTestId('settings-panel').waitFor({ state: 'hidden' });

        // Publish (confirmed), then share by link and QR code.
        await page.getByTestId('publish-button').click();
        await pressWhenStill(page, page.locator('.ant-modal-confirm-btns .ant-btn-primary'));
        await page.getByTestId('publish-menu').waitFor({ state: 'visible' });
        await page.getByTestId('publish-menu').click();
        await pressWhenStill(page, 'publish-share');
        await page.getByTestId('share-qr').waitFor();
        await shoot(page, lang, size, '7-share');
        await page.keyboard.press('Escape');

        // The square shows it.
        await page.goto('/stories');
        await page.getByTestId('stories-tab-public').click();
        await expect.poll(() => page.getByTestId('story-item').filter({ hasText: t.name }).count()).toBeGreaterThan(0);
        await shoot(page, lang, size, '8-square');
        await fitsWidth(page);
      } finally {
        await context.close();
      }
    });
  }
});
