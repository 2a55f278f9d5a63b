// What the lived-in journeys (lived-in.e2e-spec.ts) share: their texts, a signed-in session with a
// long story, and the checks of where things are on screen.
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect, inject, onTestFinished } from 'vitest';
import { apiFor, DESKTOP, freshStart, newPage, PHONE, signUpInPage, createStoryInBrowser } from './browser';
export const baseURL = inject('baseURL');

// The web app as people live in it (issue 18): each defect a new user met, at 375 and 1280 px, in
// both languages. The stub model answers in the story's language in ~0.4 s (so a second send right
// after a turn falls inside the one-send-per-second rule).
export const LANGS = ['en', 'zh-CN'] as const;
export const SIZES = { phone: PHONE, desktop: DESKTOP } as const;
type Lang = (typeof LANGS)[number];
export type Size = keyof typeof SIZES;

export const TEXT = {
  en: {
    name: 'The long pier',
    line: 'I walk to the end of the pier.',
    turnPlayed: '1 turn played',
    demoModel: 'TaleLoom Demo (offline)',
    saved: 'Saved',
    phoneInvalid: 'Please enter correct phone number',
    testFailed: /^Connection failed: \S/,
  },
  'zh-CN': {
    name: '长长的码头',
    line: '我走到码头尽头。',
    turnPlayed: '1 回合',
    demoModel: '织梦演示模型（离线）',
    saved: '已保存',
    phoneInvalid: '请输入正确的手机号',
    testFailed: /^连接失败：[^:]+$/,
  },
} as const;

// Long enough to fill a desktop window: the newest text is below the fold from the start.
export const longPrologue = (lang: Lang) =>
  Array.from({ length: 40 }, (_, i) => (lang === 'en' ? `Line ${i + 1}: the tide comes in over the old stones.` : `第${i + 1}行：潮水漫过旧石头。`)).join('\n');

export interface Shared {
  context: BrowserContext;
  page: Page;
}

interface Session extends Shared {
  token: string;
  storyId: string;
  /** This test's request context for API calls (`apiFor`), disposed when the test ends. */
  request: APIRequestContext;
}

/** The page that one language and width's tests share: each starts afresh on it (`freshStart`). */
export const sharedPage = (browser: Browser, lang: Lang, size: Size): Promise<Shared> =>
  newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN', viewport: SIZES[size] });

/** A new user, signed in on the shared page (started afresh), with `stories` (one) long stories of theirs. */
export async function session(shared: Shared, lang: Lang, opts: { stories?: number } = {}): Promise<Session> {
  const { context, page } = shared;
  await freshStart(page);
  const request = await apiFor(page);
  onTestFinished(() => request.dispose());
  const { token } = await signUpInPage(page, request, lang, 'lived', { closeDailyPowerDialog: true });
  let storyId = '';
  for (let i = 0; i < (opts.stories ?? 1); i++) {
    storyId = await createStoryInBrowser({ request }, token, { name: `${TEXT[lang].name} ${i + 1}`, prologue_and_characters: longPrologue(lang), role: 'Mara' });
  }
  return { context, page, token, storyId, request };
}

export const api = (s: Session) => ({ Authorization: `Bearer ${s.token}` });

/**
 * Where an element is on screen, and where the sticky input bar begins. The turn's buttons dock at the
 * top of that bar, just above the role and the text box: for them the input begins below the dock.
 */
async function boxes(page: Page, testId: string) {
  return page.evaluate((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`);
    const input = document.querySelector('[data-testid="play-input"]');
    if (!el || !input) return null;
    const docked = el.closest('[data-testid="turn-dock"]');
    const below = docked ? input.querySelector('.tl-play-input__tools') : input;
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, inputTop: (below ?? input).getBoundingClientRect().top, height: window.innerHeight };
  }, testId);
}

/** On screen, whole, and not under the sticky input bar. */
export async function inViewAboveInput(page: Page, testId: string): Promise<boolean> {
  const b = await boxes(page, testId);
  return Boolean(b && b.top >= 0 && b.bottom <= b.inputTop + 1);
}

/** The last line of the story's text is on screen above the input bar. */
export async function newestTextInView(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const text = document.querySelector('[data-testid="play-text"]');
    const input = document.querySelector('[data-testid="play-input"]');
    if (!text || !input) return false;
    const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
    let last: Node | null = null;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent?.trim()) last = n;
    if (!last) return false;
    const range = document.createRange();
    range.selectNodeContents(last);
    const rects = range.getClientRects();
    const r = rects[rects.length - 1];
    return r.top >= 0 && r.bottom <= input.getBoundingClientRect().top + 1;
  });
}

/**
 * Escape closes what `shown` is in, as a person closes it. The key reaches a dialog only once its
 * focus has moved in, which a loaded machine can delay: if it is still open after 3 s, Escape is
 * pressed once more.
 */
export async function escapeFrom(page: Page, shown: Locator) {
  await page.keyboard.press('Escape');
  if (await shown.waitFor({ state: 'hidden', timeout: 3000 }).then(() => true, () => false)) return;
  await page.keyboard.press('Escape');
  await shown.waitFor({ state: 'hidden' });
}

export async function waitIdle(page: Page) {
  await expect.poll(() => page.getByTestId('turn-continue').isEnabled()).toBe(true);
}

/** Error messages (antd message) that appear at any time while the page is open. */
export async function watchErrors(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __errors: string[] }).__errors = seen;
    new MutationObserver(() => {
      for (const el of Array.from(document.querySelectorAll('.ant-message-error'))) {
        const text = (el.textContent ?? '').trim();
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __errors: string[] }).__errors);
}
