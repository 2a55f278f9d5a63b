import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { APP_SIGN_IN, createStoryInBrowser, launchBrowser, newPage, PHONE, screenshot, signUpInBrowser } from './browser';

const baseURL = inject('baseURL');

/**
 * The budget of a cold /login (empty cache) on a phone, in either language: what the network carries
 * for the page, its code, its style sheets and fonts (compressed bodies plus headers, as the DevTools
 * protocol counts them), and the number of such requests. docs/web-performance.md gives the figures
 * behind it and how to measure the time (`pnpm bench`, web part).
 */
// The Chinese phone tab measured 264 kB in 21 requests (the page with the sign-in screen rendered into it,
// the reconnect note and the icons' labels included); the budget leaves it about 2% of room and two
// requests, so a screen that grows by a chunk or a library fails here.
const BUDGET = { bytes: 269 * 1024, requests: 23 };

/** The app's sign-in button (not the one of the page made at build time, which it replaces). */
const APP_SUBMIT = `${APP_SIGN_IN} button[type="submit"]`;

/**
 * In the page from its first script on: the moment (ms after navigation start) the app's sign-in form's
 * button is laid out (not the page rendered at build time, which it replaces), checked at every
 * animation frame.
 */
function watchForm(submit: string) {
  const check = () => {
    const button = document.querySelector(submit);
    if (button && button.getBoundingClientRect().height > 0) (window as unknown as { shownAt: number }).shownAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** Holds back the page's requests for `url` until the answered function is called (a slow network). */
async function hold(page: Page, url: RegExp): Promise<() => void> {
  let release!: () => void;
  const until = new Promise<void>((done) => (release = done));
  await page.route(url, async (route) => {
    await until;
    await route.continue();
  });
  return release;
}

/** In the page from its first script on: a note each time a loading state (`selector`) is in the page. */
function watchLoading(selector: string) {
  const seen: string[] = [];
  (window as unknown as { loadingSeen: string[] }).loadingSeen = seen;
  new MutationObserver(() => {
    if (document.querySelector(selector)) seen.push('loading');
  }).observe(document, { childList: true, subtree: true });
}

/** The loading states seen so far (watchLoading). */
const loadingSeen = (page: Page) => page.evaluate(() => (window as unknown as { loadingSeen: string[] }).loadingSeen);

/**
 * What the first screen asked for, by the page's own resource timing: the page and every file requested
 * before the form showed (not the API's answers), with the bytes each took on the wire (headers and
 * compressed body). What is asked for later (the captcha's challenge, the styles of other screens fetched
 * once the page is idle) is not the first screen's.
 */
async function firstScreen(page: Page): Promise<{ name: string; bytes: number }[]> {
  return page.evaluate(() => {
    const shownAt = (window as unknown as { shownAt: number }).shownAt;
    return (performance.getEntriesByType('navigation') as PerformanceResourceTiming[])
      .concat(performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.startTime <= shownAt && !new URL(e.name).pathname.startsWith('/api/') && new URL(e.name).protocol.startsWith('http'))
      .map((e) => ({ name: new URL(e.name).pathname, bytes: e.transferSize }));
  });
}

/**
 * The files index.html's first script (build/first-screen-boot.js) announces for this page, read from the
 * script the page has: they should be files the first screen asks for anyway.
 */
async function announced(page: Page, lang: string): Promise<string[]> {
  const src = await page.locator('head script[async][src*="/assets/first-screen-"]').getAttribute('src');
  expect(src, 'index.html starts with the first-screen script').toBeTruthy();
  const text = await (await page.request.get(src ?? '')).text();
  const files = JSON.parse(/var FILES = (.*);\n/.exec(text)?.[1] ?? 'null') as {
    screens: Record<string, Record<string, string[]>>;
    languages: Record<string, string[]>;
  };
  return [...files.languages[lang], ...files.screens['/login'].all, ...(files.screens['/login'][lang] ?? [])];
}

describe('the first screen stays light', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("comes rendered in the visitor's language before any script has run, and the app takes it over with what was done on it", async () => {
    // Scripts off: what a phone shows while the app's code is still on its way.
    for (const [locale, cookie, lang, submit] of [
      ['en-US', null, 'en', 'Log in / Register'],
      ['zh-CN', null, 'zh-CN', '登录 / 注册'],
      ['zh-CN', 'en', 'en', 'Log in / Register'],
      ['en-US', 'zh-CN', 'zh-CN', '登录 / 注册'],
    ] as const) {
      const context = await browser.newContext({ baseURL, viewport: PHONE, locale, javaScriptEnabled: false });
      try {
        if (cookie) await context.addCookies([{ name: 'lang', value: cookie, url: baseURL }]);
        const page = await context.newPage();
        await page.goto('/login');
        const root = page.locator('#root');
        expect({ locale, cookie, shown: await root.getAttribute('data-prerendered'), html: await page.locator('html').getAttribute('lang') }).toEqual({ locale, cookie, shown: lang, html: lang });
        // Seen, styled, and its fields take input.
        expect(await page.getByTestId(lang === 'en' ? 'login-username-input' : 'login-phone-input').isEditable()).toBe(true);
        // English opens on the username tab, Chinese on the phone number's.
        const button = page.getByTestId('login-card').locator('button[type="submit"]');
        expect((await button.textContent())?.trim()).toBe(submit);
        expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(79, 70, 229)');
        await screenshot(page, `first-screen-prerendered-${lang}-phone`, { fullPage: false });
      } finally {
        await context.close();
      }
    }
    // Scripts on: the app renders over it whole, no loading state between, and the page takes input.
    for (const locale of ['en-US', 'zh-CN']) {
      const { context, page } = await newPage(browser, baseURL, { viewport: PHONE, locale });
      try {
        // Whether a loading state (the screen's or the phone form's) ever replaced the page on the way.
        await context.addInitScript(watchLoading, '[data-testid="route-loading"], .tl-login-form__loading');
        await page.goto('/login');
        await page.locator(APP_SIGN_IN).waitFor();
        expect(await loadingSeen(page)).toEqual([]);
      } finally {
        await context.close();
      }
    }
    // The app's code held back on the way (a slow phone): what is typed on the page meanwhile, and a
    // submit, are carried over when the app renders over it; a new user name signs up and lands.
    const held = async (page: Page, path = '/login') => {
      const release = await hold(page, /\/assets\/index-[^/]*\.js$/);
      // The page's load (and DOMContentLoaded) wait for the app's code: what counts here is the page itself.
      await page.goto(path, { waitUntil: 'commit' });
      await page.getByTestId('login-username-input').waitFor();
      expect(await page.locator('#root').getAttribute('data-prerendered')).toBe('en');
      return release;
    };
    // Each case on a fresh phone page in English.
    const onPage = async (run: (page: Page) => Promise<void>) => {
      const { context, page } = await newPage(browser, baseURL, { viewport: PHONE, locale: 'en-US' });
      try {
        await run(page);
      } finally {
        await context.close();
      }
    };
    // Once the app has come: the app's form has the text, the field its focus.
    const carriedOver = async (page: Page, release: () => void, text: string) => {
      release();
      await page.locator(APP_SIGN_IN).waitFor();
      expect(await page.getByTestId('login-username-input').inputValue()).toBe(text);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('login-username-input');
    };
    await onPage(async (page) => {
      const release = await held(page);
      const name = `early${Date.now().toString(36)}`;
      await page.getByTestId('login-username-input').fill(name);
      await page.getByTestId('login-password-input').fill('secret1');
      await page.getByTestId('login-password-input').press('Enter');
      // Still the page rendered at build time: the submit was held, nothing left the page.
      expect(page.url()).toMatch(/\/login$/);
      release();
      await page.waitForURL(/\/stories/);
      const signedIn = await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { userName?: string });
      expect(signedIn.userName).toBe(name);
    });
    // Typed, not submitted.
    await onPage(async (page) => {
      const release = await held(page);
      await page.getByTestId('login-username-input').fill('halfway');
      await carriedOver(page, release, 'halfway');
    });
    // Typed before the page's first script ran (it is async: on a slow network the page shows first).
    await onPage(async (page) => {
      const releaseBoot = await hold(page, /\/assets\/first-screen-[^/]*\.js$/);
      const release = await held(page);
      await page.getByTestId('login-username-input').fill('before-script');
      releaseBoot();
      await page.waitForFunction(() => '__TL_CARRY_OVER__' in window);
      await carriedOver(page, release, 'before-script');
    });
    // An invitation link: its code is in the page's invite field before the app has come, and stays.
    await onPage(async (page) => {
      const release = await held(page, '/login?invite_code=FRIEND1');
      await expect.poll(() => page.getByTestId('login-invite-input').inputValue()).toBe('FRIEND1');
      expect(await page.locator('#root').getAttribute('data-prerendered')).toBe('en');
      release();
      await page.locator(APP_SIGN_IN).waitFor();
      expect(await page.getByTestId('login-invite-input').inputValue()).toBe('FRIEND1');
    });
  });

  it('a signed-in screen opened cold shows itself on the first render, with my stories asked for once, before the app ran', async () => {
    const { context, page } = await newPage(browser, baseURL, { viewport: PHONE, locale: 'zh-CN' });
    try {
      const { token } = await signUpInBrowser(context, page, 'zh-CN', 'fs');
      const storyId = await createStoryInBrowser(page, token, { name: '冷启动', prologue_and_characters: '雨夜，旧书店里只剩一盏灯。', role: '店主' });
      await context.addInitScript(watchLoading, '[data-testid="route-loading"]');
      // My first page of stories, as the screen asks for it: asked once (the early read answers the screen).
      const lists: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/user/story-list') lists.push(new URL(r.url()).search);
      });
      // The app's scripts by chunk name (their hash taken off), to read how they begin.
      const scripts = new Map<string, Response>();
      page.on('response', (r) => {
        const file = new URL(r.url()).pathname.match(/^\/assets\/(.+)-[\w-]{8}\.js$/);
        if (file) scripts.set(file[1], r);
      });
      // The app's code held back: the list is asked for by the page's first script's module, not the screen.
      const release = await hold(page, /\/assets\/stories-[^/]*\.js$/);
      await page.goto('/stories');
      await expect.poll(() => lists).toEqual(['?page=1&pageSize=12']);
      release();
      await page.getByTestId('stories-new').waitFor();
      await expect.poll(() => page.getByTestId('story-item').count()).toBe(1);
      expect(lists).toEqual(['?page=1&pageSize=12']);
      expect(await loadingSeen(page)).toEqual([]);
      // V8's compile hint (EAGER_CHUNKS in vite.config.ts) leads the first screen's chunks, not the others'.
      const hinted = async (name: string) => (await scripts.get(name)?.text())?.startsWith('//# allFunctionsCalledOnLoad\n');
      for (const name of ['vendor-react', 'entry-lib', 'stories', 'screens-shared']) expect(await hinted(name), name).toBe(true);
      await expect.poll(() => scripts.has('user-menu')).toBe(true);
      expect(await hinted('user-menu')).toBe(false);

      await page.goto(`/play?id=${storyId}`);
      await page.getByTestId('play-textarea').waitFor();
      expect(await page.getByTestId('play-text').textContent()).toContain('旧书店');
      expect(await loadingSeen(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const [lang, locale, tab] of [
    ['en', 'en-US', 'username'],
    ['zh-CN', 'zh-CN', 'phone'],
  ] as const) {
    it(`a cold /login in ${lang} at 375 px: under ${BUDGET.bytes / 1024} kB in ${BUDGET.requests} requests, form and captcha shown`, async () => {
      const { context, page } = await newPage(browser, baseURL, { viewport: PHONE, locale });
      try {
        await context.addInitScript(watchForm, APP_SUBMIT);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await page.goto('/login');
        // The app's form, rendered over the page made at build time (whose elements it replaces: a style
        // read from one of those, once gone, is empty).
        const submit = page.locator(APP_SUBMIT);
        await submit.waitFor();
        // Chinese opens on the phone tab (country code, captcha, SMS code), English on the username tab.
        await expect.poll(() => page.getByTestId(`login-tab-${tab}`).getAttribute('aria-selected')).toBe('true');
        if (tab === 'phone') await page.getByTestId('captcha-image').locator('img').waitFor();
        await page.waitForLoadState('networkidle');
        // The sheet made at build time styles antd's components: what antd still writes in the page is its
        // theme's CSS variables, no component rules.
        const runtimeRules = await page.evaluate(() =>
          Array.from(document.querySelectorAll('style'))
            .flatMap((el) => Array.from(el.sheet?.cssRules ?? []))
            .filter((rule) => rule instanceof CSSStyleRule && Array.from(rule.style).some((property) => !property.startsWith('--')))
            .map((rule) => rule.cssText.slice(0, 80)),
        );
        const button = await submit.evaluate((b) => getComputedStyle(b).backgroundColor);
        const files = await firstScreen(page);
        // What the first script announced (the screen's chunk, its sheets, the strings) is what the form
        // needed: each was asked for before it showed, none in vain.
        const preloaded = await announced(page, lang);
        expect(preloaded.some((f) => /\/assets\/login-[^/]*\.js$/.test(f))).toBe(true);
        expect(preloaded.some((f) => f.includes(`/assets/${lang}-`))).toBe(true);
        expect(preloaded.filter((f) => !files.some((r) => r.name === f))).toEqual([]);
        const bytes = files.reduce((n, r) => n + r.bytes, 0);
        const list = files.map((r) => `${r.bytes} ${r.name}`).join('\n');
        await screenshot(page, `first-screen-login-${lang}-phone`, { fullPage: false });
        expect(runtimeRules).toEqual([]);
        // The brand's indigo (#4f46e5), not antd's default blue: the theme reaches the static sheet.
        expect(button).toBe('rgb(79, 70, 229)');
        console.log(`first screen of /login in ${lang}: ${(bytes / 1024).toFixed(1)} kB in ${files.length} requests`);
        // Every file came over the network (none from a cache, none empty).
        expect(files.every((r) => r.bytes > 0), list).toBe(true);
        expect(bytes, list).toBeLessThanOrEqual(BUDGET.bytes);
        expect(files.length, list).toBeLessThanOrEqual(BUDGET.requests);
      } finally {
        await context.close();
      }
    });
  }
});
