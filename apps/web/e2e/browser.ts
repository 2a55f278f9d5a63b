import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, request, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_MISSING, chromiumPath } from './chromium.cjs';

export const SCREENSHOT_DIR = fileURLToPath(new URL('./screenshots', import.meta.url));
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

export type Lang = 'en' | 'zh-CN';
export type Size = 'desktop' | 'phone';
export interface Pair {
  lang: Lang;
  size: Size;
  viewport: { width: number; height: number };
}

/**
 * The language and width pairs a journey walks: both languages and both widths, in two of the four
 * pairs. A journey file names which two: `'en-desktop'` (English at 1280 px, Chinese at 375 px) or
 * `'en-phone'` (English at 375 px, Chinese at 1280 px); the files share them out so the suite walks all
 * four. The dialogs walk (dialogs.e2e-spec.ts) shares its two parts out the same way. `E2E_ALL_PAIRS=1`
 * walks every journey and both parts of the dialogs walk in all four.
 */
export function journeyPairs(english: 'en-desktop' | 'en-phone'): Pair[] {
  const pair = (lang: Lang, size: Size): Pair => ({ lang, size, viewport: size === 'desktop' ? DESKTOP : PHONE });
  if (process.env.E2E_ALL_PAIRS === '1') return [pair('en', 'desktop'), pair('en', 'phone'), pair('zh-CN', 'desktop'), pair('zh-CN', 'phone')];
  return english === 'en-desktop' ? [pair('en', 'desktop'), pair('zh-CN', 'phone')] : [pair('en', 'phone'), pair('zh-CN', 'desktop')];
}

/**
 * Debian's Chromium driven by playwright-core (no browser download), with the flags this network needs
 * (plus `extraArgs`); playwright gives each launch a fresh user-data-dir of its own.
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * A fresh context (empty localStorage) with the language the browser reports. The play tutorial
 * (shown once per browser) is marked as seen unless `showGuide` asks for it.
 *
 * Motion: the page asks for reduced motion unless the test says `reducedMotion: 'no-preference'`.
 * The walks check layout, wording and behaviour at rest; the animations are the same CSS in every
 * walk, and two tests keep them on: the dialogs' motion test (the menu slides and the dialog zooms by
 * default, nothing moves with reduced motion) and the tour in English at desktop width (a whole
 * journey pressed through the animations, as most people see them). Each frame of an animation is
 * drawn by the renderer and composited by the GPU process, and a press waits for it to end: on 2
 * loaded cores the dialogs walk took 148 s with motion in all four of its runs against 85 s with none.
 */
export async function newPage(
  browser: Browser,
  baseURL: string,
  opts: { viewport?: { width: number; height: number }; locale?: string; showGuide?: boolean; reducedMotion?: 'reduce' | 'no-preference' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const viewport = opts.viewport ?? DESKTOP;
  const locale = opts.locale ?? 'en-US';
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale,
    reducedMotion: opts.reducedMotion ?? 'reduce',
  });
  if (!opts.showGuide) await context.addInitScript(() => localStorage.setItem('showGuide', 'false'));
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  traceOnFailure(page);
  return { context, page };
}

/**
 * A clean start for the next test on a page that tests of one language and width share (opened once
 * with `newPage`): the origin's storage emptied on a page of the app's origin that runs none of its
 * code, so the next load is signed out and as new, only warm: a new context loads the app cold (its
 * scripts fetched and compiled afresh, about a second of CPU and of time on 2 loaded cores), the same
 * one from its cache. What a failure prints is this test's part of the page's trace.
 */
export async function freshStart(page: Page): Promise<void> {
  await page.goto('/api/health');
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  traceOnFailure(page);
}

/**
 * Registers a new user through the API and stores the session (and language) the way the app does,
 * so the next page load is signed in without going through the login form.
 */
export async function signUpInBrowser(
  context: BrowserContext,
  page: Page,
  lang: string,
  prefix: string,
  opts: { closeDailyPowerDialog?: boolean } = {},
): Promise<{ token: string; userID: string }> {
  const { token, userInfo } = await signUp(page, prefix);
  await context.addInitScript(storeSession, [token, JSON.stringify(userInfo), lang, Boolean(opts.closeDailyPowerDialog)] as const);
  return { token, userID: userInfo.userID };
}

/**
 * The same on a page at the app's origin (after `freshStart`): the session is stored there once, as the
 * app stores it. The sign-up goes through `api`, a request context of the test's own (`apiFor`).
 */
export async function signUpInPage(page: Page, api: APIRequestContext, lang: string, prefix: string, opts: { closeDailyPowerDialog?: boolean } = {}): Promise<{ token: string; userID: string }> {
  const { token, userInfo } = await signUp({ request: api }, prefix);
  await page.evaluate(storeSession, [token, JSON.stringify(userInfo), lang, Boolean(opts.closeDailyPowerDialog)] as const);
  return { token, userID: userInfo.userID };
}

/**
 * A request context for one test's API calls beside a shared page (dispose it at the test's end). The
 * page's own (`page.request`) keeps its connections open between tests, and the app closes one after
 * 5 s idle: a call on it from the next test met the closing (ECONNRESET, twice in a whole run).
 */
export const apiFor = (page: Page): Promise<APIRequestContext> => request.newContext({ baseURL: new URL(page.url()).origin });

async function signUp(page: { request: APIRequestContext }, prefix: string): Promise<{ token: string; userInfo: { userID: string } }> {
  const res = await page.request.post('/api/user/login', {
    data: { type: 'username', userName: uniqueName(prefix), password: 'secret1' },
  });
  if (res.status() !== 200) throw new Error(`sign-up answered ${res.status()}`);
  return (await res.json()).data;
}

/** Runs in the page: the session, the language and (`quiet`) the daily power dialog closed just now. */
function storeSession([t, u, l, quiet]: readonly [string, string, string, boolean]) {
  localStorage.setItem('token', t);
  localStorage.setItem('userInfo', u);
  localStorage.setItem('lang', l);
  // New users have not checked in: the daily power dialog (tested in power.e2e-spec.ts) would open.
  if (quiet) localStorage.setItem('powerDialogClosedAt', String(Date.now()));
}

/** The app's sign-in card, once it has rendered over the page made at build time (openSignIn). */
export const APP_SIGN_IN = '#root:not([data-prerendered]) [data-testid="login-card"]';

/**
 * Opens the sign-in page and waits until the app has rendered it. The server sends /login rendered at
 * build time (apps/web/build/prerender.ts); the app renders over it once its code has come, so a
 * reading taken before then (a box, a text) could be of a node about to be replaced.
 */
export async function openSignIn(page: Page, path = '/login'): Promise<void> {
  await page.goto(path);
  await page.locator(APP_SIGN_IN).waitFor();
}

/** Creates a story as the signed-up user (POST /api/llm with `data`) and answers its id. */
export async function createStoryInBrowser(page: { request: APIRequestContext }, token: string, data: Record<string, unknown>): Promise<string> {
  const created = await page.request.post('/api/llm', { headers: { Authorization: `Bearer ${token}` }, data });
  if (created.status() !== 201) throw new Error(`creating a story answered ${created.status()}: ${await created.text()}`);
  return (await created.json()).data.id as string;
}

/**
 * Screenshots are for a person to open, so they are written where one can: by default everywhere but
 * in CI (`CI` set), which keeps none. `E2E_SCREENSHOTS=1` writes them in CI too, `E2E_SCREENSHOTS=0`
 * nowhere. A run writes about 300, each encoded as PNG by the browser: the dialogs walk's 116 took
 * 24 s of CPU, and the whole suite on 2 cores took 458 s with them against 421 s without (one run
 * each). The walks and every check on the page are the same either way.
 */
export const SCREENSHOTS = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS !== '0' : !process.env.CI;

/**
 * The whole page, or with `fullPage: false` what the window shows (sticky bars where the user sees them),
 * once what is on screen has stopped moving (`still`). Nothing at all when screenshots are off: a wait
 * that only serves the picture is not made either.
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  if (!SCREENSHOTS) return;
  await still(page);
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage });
}

/** The selectors of what slides or zooms in as it opens: menus, dropdowns, dialogs, drawers, popovers. */
const OPENING = '.ant-dropdown, .ant-select-dropdown, .ant-modal, .ant-drawer-content-wrapper, .ant-popover';

/**
 * Waits until no menu, dialog, drawer or popover is in an opening animation (antd's `-appear` and
 * `-enter` classes), checked in the page every 50 ms. With reduced motion (the default, `newPage`)
 * there is none and it answers at once; with motion it waits as long as the animation lasts.
 */
export async function still(page: Page): Promise<void> {
  await page.waitForFunction(
    (selector) => !Array.from(document.querySelectorAll(selector)).some((el) => el.getClientRects().length > 0 && /-(appear|enter)\b/.test(String(el.className))),
    OPENING,
    { polling: 50, timeout: 10_000 },
  );
}

/**
 * Waits until the page has come to rest: for three frames in a row no transition or animation that
 * ends is running (`document.getAnimations()`: a button's colour, a scroll-into-view, a growing box;
 * neither a spinner's endless one nor the 2 s fading ripple of a pressed button counts) and the document's size, its scroll position and the boxes
 * of `selector`'s elements (when given) stay the same. Checked in the page each frame, so it answers
 * as soon as the last chunk's growth and scroll, an image's placing or a colour's fade are over.
 */
export async function settled(page: Page, selector?: string): Promise<void> {
  await page.evaluate(() => delete (window as unknown as { __settled?: unknown }).__settled);
  await page.waitForFunction(
    (sel) => {
      const w = window as unknown as { __settled?: { key: string; frames: number } };
      const moving = document.getAnimations().some((a) => {
        const target = (a.effect as KeyframeEffect | null)?.target;
        return a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity && !target?.closest('.ant-wave');
      });
      const root = document.documentElement;
      const boxes = sel ? Array.from(document.querySelectorAll(sel), (el) => { const r = el.getBoundingClientRect(); return `${r.x},${r.y},${r.width},${r.height}`; }) : [];
      const key = [root.scrollWidth, root.scrollHeight, window.scrollX, window.scrollY, window.innerWidth, window.innerHeight, ...boxes].join(';');
      const last = w.__settled;
      w.__settled = { key, frames: !moving && last?.key === key ? last.frames + 1 : 0 };
      return w.__settled.frames >= 3;
    },
    selector,
    { polling: 'raf', timeout: 10_000 },
  );
}

/**
 * Presses something in a menu or dialog once what it is in has stopped moving. Menus slide in and
 * dialogs zoom in as they open; a press made meanwhile can go down on one item and come up on the
 * next (or off a button that grew under the pointer), and the browser then gives the click to
 * what contains both, so nothing happens, as for a person who clicks that fast. Under a full run's
 * load an opening lasts long enough for a test to press during it: the dialogs walk and the
 * accounts, files and tour tests did, now and then (a menu item's press landed on the list).
 */
export async function pressWhenStill(page: Page, item: string | Locator): Promise<void> {
  const target = typeof item === 'string' ? page.getByTestId(item) : item;
  await target.waitFor();
  await still(page);
  await target.click();
}

/** Opens a dialog from a menu: its button, then its item (pressWhenStill), then waits for `shown` in the dialog. */
export async function openFromMenu(page: Page, trigger: string, item: string, shown: Locator): Promise<void> {
  await page.getByTestId(trigger).click();
  await pressWhenStill(page, item);
  await shown.waitFor();
}

/** A unique user name per test run. */
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

// Each page's trace of its last API calls and errors (a shared page keeps one).
const traces = new WeakMap<Page, string[]>();

/**
 * What a failed test's page saw, printed with the failure: its API calls (sent, answered, body ended),
 * other answers of 400 and above, page errors and console errors. CI keeps no screenshots, so this is
 * what tells a flake's cause.
 */
function traceOnFailure(page: Page): void {
  const known = traces.get(page);
  const lines: string[] = known ?? [];
  if (known) {
    // A shared page: its trace goes on; this test prints from here.
    lines.length = 0;
    printOnFailure(page, lines);
    return;
  }
  traces.set(page, lines);
  const add = (line: string) => {
    lines.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (lines.length > 80) lines.shift();
  };
  // Every API call: its answer's status when the headers came, and when its body ended (a stream's end).
  const api = (url: string) => new URL(url).pathname.startsWith('/api/');
  page.on('request', (req) => {
    if (api(req.url())) add(`-> ${req.method()} ${new URL(req.url()).pathname}`);
  });
  page.on('response', (res) => {
    if (api(res.url()) || res.status() >= 400) add(`<- ${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  page.on('requestfinished', (req) => {
    if (api(req.url())) add(`ok ${req.method()} ${new URL(req.url()).pathname} (body ended)`);
  });
  page.on('requestfailed', (req) => add(`failed ${req.method()} ${new URL(req.url()).pathname}: ${req.failure()?.errorText}`));
  page.on('pageerror', (error) => add(`page error: ${error.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') add(`console: ${msg.text().slice(0, 300)}`);
  });
  printOnFailure(page, lines);
}

function printOnFailure(page: Page, lines: string[]): void {
  try {
    onTestFailed(({ task }) => {
      // The error too: a try that fails and then passes on its retry is not in vitest's summary.
      const error = task.result?.errors?.[0];
      const where = error?.stack?.split('\n').find((line) => line.includes('e2e-spec.ts'))?.trim() ?? '';
      const failure = error ? `${error.name ?? 'Error'}: ${(error.message ?? '').split('\n').slice(0, 6).join(' | ')} ${where}` : '(no error)';
      console.log(`--- the failure: ${failure}\n--- the page's trace (${page.isClosed() ? 'closed' : page.url()}):\n${lines.join('\n') || '(nothing)'}`);
    });
  } catch {
    // Not inside a test (a hook): nothing to attach to.
  }
}
