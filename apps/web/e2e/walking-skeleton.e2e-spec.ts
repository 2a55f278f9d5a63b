import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { journeyPairs, launchBrowser, newPage, openSignIn, pressWhenStill, screenshot, uniqueName } from './browser';

const baseURL = inject('baseURL');

const TEXT = {
  en: { heading: 'Story list', submit: 'Log in / Register', notFound: 'Page not found', wrong: 'Wrong username or password.' },
  'zh-CN': { heading: '故事列表', submit: '登录 / 注册', notFound: '页面不存在', wrong: '用户名或密码错误。' },
} as const;
type Lang = keyof typeof TEXT;

async function chooseLanguage(page: Page, lang: Lang) {
  // Interact once the lazily loaded screen has rendered, as a person would.
  await page.getByTestId('login-card').waitFor({ state: 'visible' });
  // On a cold first page the dropdown's opening animation can swallow a click; a person clicks again.
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.getByTestId('language-menu-trigger').click();
    await pressWhenStill(page, page.getByTestId(`language-option-${lang}`));
    const stored = await page
      .waitForFunction((l) => localStorage.getItem('lang') === l, lang, { timeout: 3000 })
      .then(() => true, () => false);
    if (stored) break;
  }
  await expect.poll(() => page.evaluate(() => localStorage.getItem('lang'))).toBe(lang);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

const squash = (s: string) => s.replace(/\s+/g, '');

async function registerWithUserName(page: Page, name: string, password: string) {
  // In Chinese the card opens on the phone tab.
  await page.getByTestId('login-tab-username').click();
  await page.getByTestId('login-username-input').fill(name);
  await page.getByTestId('login-password-input').fill(password);
  await page.getByTestId('login-submit').click();
}

describe('walking skeleton in real Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    describe(`in ${lang}`, () => {
      for (const { size: viewName, viewport } of journeyPairs('en-phone').filter((p) => p.lang === lang)) {
        it(`registers, lands on the story list, keeps the language across reloads and logs out (${viewName})`, async () => {
          const { context, page } = await newPage(browser, baseURL, { viewport });
          try {
            await page.goto('/');
            await page.waitForURL(/\/login/);
            await chooseLanguage(page, lang);
            await expect.poll(async () => squash(await page.getByTestId('login-submit').innerText())).toBe(
              squash(TEXT[lang].submit),
            );
            await screenshot(page, `login-${lang}-${viewName}`);

            // A too-short password is refused on the form.
            await registerWithUserName(page, uniqueName('u'), '123');
            await expect.poll(() => page.getByTestId('login-card').innerText()).toMatch(/6/);

            const name = uniqueName(lang === 'en' ? 'reader' : 'zh');
            await page.getByTestId('login-password-input').fill('secret1');
            await page.getByTestId('login-username-input').fill(name);
            await page.getByTestId('login-submit').click();
            await page.waitForURL(/\/stories$/);
            await expect.poll(() => page.getByTestId('stories-heading').innerText()).toBe(TEXT[lang].heading);
            expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
            // A new user has not checked in today: the daily power dialog opens by itself; close it.
            await page.getByTestId('power-dialog').waitFor({ state: 'visible' });
            await page.keyboard.press('Escape');
            await page.getByTestId('power-dialog').waitFor({ state: 'hidden' });
            await screenshot(page, `stories-${lang}-${viewName}`);

            // The language survives a reload.
            await page.reload();
            await expect.poll(() => page.getByTestId('stories-heading').innerText()).toBe(TEXT[lang].heading);
            expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);

            // The user menu shows the name and power, and logs out.
            await page.getByTestId('user-menu-trigger').click();
            await expect.poll(() => page.getByTestId('user-menu-name').innerText()).toBe(name);
            await page.getByTestId('user-menu-logout').waitFor({ state: 'visible' });
            await screenshot(page, `user-menu-${lang}-${viewName}`);
            await pressWhenStill(page, 'user-menu-logout');
            await page.waitForURL(/\/login/);
            expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('userInfo')])).toEqual([
              null,
              null,
            ]);
          } finally {
            await context.close();
          }
        });
      }

      it('signs an existing user in, refuses a wrong password, and shows the not-found page', async () => {
        const { context, page } = await newPage(browser, baseURL);
        const name = uniqueName('again');
        try {
          const reg = await page.request.post('/api/user/login', {
            data: { type: 'username', userName: name, password: 'secret1' },
          });
          expect(reg.status()).toBe(200);
          await openSignIn(page);
          await chooseLanguage(page, lang);
          await registerWithUserName(page, name, 'wrong-password');
          await expect.poll(() => page.locator('.ant-message').innerText()).toContain(TEXT[lang].wrong);
          await page.getByTestId('login-password-input').fill('secret1');
          await page.getByTestId('login-submit').click();
          await page.waitForURL(/\/stories$/);

          await page.goto('/no/such/page');
          await expect.poll(() => page.getByTestId('not-found').innerText()).toContain(TEXT[lang].notFound);
          await screenshot(page, `not-found-${lang}`);
        } finally {
          await context.close();
        }
      });
    });
  }

  it('follows redirect and id after login, and a 401 sends the user back to /login', async () => {
    const { context, page } = await newPage(browser, baseURL);
    try {
      await page.goto('/play?id=abc123');
      await page.waitForURL(/\/login\?redirect=%2Fplay&id=abc123|\/login\?redirect=\/play&id=abc123/);
      await chooseLanguage(page, 'en');
      // /play?id=abc123 is reached with its id; as no such story exists, the app then says so and goes to /stories.
      const opened = page.waitForRequest((r) => r.url().endsWith('/api/user/check-story/abc123'));
      await registerWithUserName(page, uniqueName('redir'), 'secret1');
      await opened;
      await page.waitForURL(/\/stories$/);

      // A token the server no longer accepts: the first 401 logs out.
      await page.evaluate(() => localStorage.setItem('token', 'x.y.z'));
      await page.goto('/stories');
      await page.waitForURL(/\/login/);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('serves Swagger UI from the same app, offline', async () => {
    const { context, page } = await newPage(browser, baseURL);
    try {
      await page.goto('/api/docs');
      await page.waitForSelector('.swagger-ui .opblock', { timeout: 15_000 });
      expect(await page.locator('.opblock-summary-path').allInnerTexts()).toEqual(
        expect.arrayContaining(['/api/user/login', '/api/health']),
      );
      await screenshot(page, 'swagger');
    } finally {
      await context.close();
    }
  });
});
