import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStoryInBrowser, journeyPairs, launchBrowser, newPage, openSignIn, pressWhenStill, screenshot, settled, signUpInBrowser, type Lang } from './browser';

const baseURL = inject('baseURL');

// Every dialog, drawer, menu and panel, opened the way a person opens it, at 375 px and 1280 px and in
// both languages (PARTS below): nothing scrolls sideways (the page or any box in it), no overlay sticks out of the
// window, and its text uses the language's own punctuation (no ASCII colon beside Chinese, no Chinese
// punctuation or quote with a stray space in English). Each is a screenshot in screenshots/dialogs/.

interface Finding {
  where: string;
  what: string;
}

const OVERLAYS = '.ant-modal-container, .ant-drawer-section, .ant-drawer-content-wrapper, .ant-dropdown, .ant-popover, .ant-select-dropdown';

/**
 * Waits (at most 5 s) until what is on screen has come to rest: no opening or closing animation is
 * running (antd's motion classes; a button's click ripple is not waited for) and every overlay has
 * been placed. A popup is first drawn 1000 window widths to the left and moved beside its trigger
 * once measured; on a loaded machine that can take longer than its animation, and a measurement
 * taken before would report a popup that no person ever sees there. What is still out of the
 * window after the wait is reported by `look`.
 */
async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(
      (selector) => {
        // (A motion in a closed dialog's hidden content never ends, and is not seen.)
        const moving = Array.from(document.querySelectorAll('[class*="-enter"], [class*="-appear"], [class*="-leave"]')).some((el) => !el.classList.contains('ant-wave') && el.getClientRects().length > 0);
        const width = document.documentElement.clientWidth;
        const unplaced = Array.from(document.querySelectorAll(selector)).some((el) => {
          if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') return false;
          const r = el.getBoundingClientRect();
          return r.left < -1 || r.right > width + 1;
        });
        return !moving && !unplaced;
      },
      OVERLAYS,
      { timeout: 5000, polling: 100 },
    )
    .catch(() => undefined);
}

/** How many overlays are open. */
const openOverlays = (page: Page) =>
  page.evaluate((selector) => Array.from(document.querySelectorAll(selector)).filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden').length, OVERLAYS);

async function look(page: Page, where: string, findings: Finding[]): Promise<void> {
  // Opening animations end and popups are placed: the overlays' boxes stay put for three frames, then
  // none is moving or parked out of the window.
  await settled(page, OVERLAYS);
  await settle(page);
  const seen = await page.evaluate((selector) => {
    const visible = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const texts = Array.from(document.querySelectorAll('body *'))
      // What users wrote (stories of other suites on the square) is in its own language, marked as such.
      .filter((el) => visible(el) && !el.closest('[data-user-text]') && Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()))
      .map((el) => Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(''));
    const width = document.documentElement.clientWidth;
    const overlays = Array.from(document.querySelectorAll(selector))
      .filter(visible)
      .map((el) => ({ name: String(el.className).split(' ')[0], r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.left < -1 || r.right > width + 1)
      .map(({ name, r }) => `${name} ${Math.round(r.left)}..${Math.round(r.right)}`);
    const sideways = Array.from(document.querySelectorAll('body *'))
      .filter((el) => {
        const s = getComputedStyle(el);
        return visible(el) && (s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => String(el.className).split(' ')[0] || el.tagName);
    return { texts, overlays, sideways, pageScrolls: document.documentElement.scrollWidth > width + 1, lang: document.documentElement.lang };
  }, OVERLAYS);
  for (const text of seen.texts) {
    if (seen.lang === 'zh-CN' && /[\u4e00-\u9fff\u3002\uff09][:;!?]|[:;!?][ ]?[\u4e00-\u9fff]/.test(text)) findings.push({ where, what: `ASCII punctuation beside Chinese: ${text.slice(0, 80)}` });
    if (seen.lang === 'en' && (/[“‘]\s|\s[”’]|[「」：，。（）【】]/.test(text) || (/[\u4e00-\u9fff]/.test(text) && !text.includes('简体中文')))) {
      findings.push({ where, what: `Chinese text or punctuation in English: ${text.slice(0, 80)}` });
    }
  }
  if (seen.pageScrolls) findings.push({ where, what: 'the page scrolls sideways' });
  for (const o of seen.overlays) findings.push({ where, what: `sticks out of the window: ${o}` });
  for (const s of seen.sideways) findings.push({ where, what: `scrolls sideways: ${s}` });
  await screenshot(page, `dialogs/${where}`, { fullPage: false });
}

/**
 * Escape closes the topmost overlay, as a person would close it. The key reaches a dialog only once
 * its focus has moved in, which a loaded machine can delay: if nothing closed within 3 s, it is
 * pressed once more. Then the closing animation ends.
 */
async function close(page: Page) {
  const before = await openOverlays(page);
  for (let attempt = 0; attempt < 2; attempt++) {
    await page.keyboard.press('Escape');
    if (before === 0) break;
    const closed = await expect
      .poll(() => openOverlays(page), { timeout: 3000, interval: 100 })
      .toBeLessThan(before)
      .then(() => true)
      .catch(() => false);
    if (closed) break;
  }
  await settle(page);
}

interface Walk {
  context: BrowserContext;
  page: Page;
  lang: Lang;
  at: (name: string) => string;
  findings: Finding[];
}

/** Opens what `trigger` opens, waits for `shown` in it, looks at it as `name`, and closes it. */
async function peek({ page, at, findings }: Walk, trigger: string, shown: string, name: string, { first = false } = {}): Promise<void> {
  const button = page.getByTestId(trigger);
  await (first ? button.first() : button).click();
  await page.getByTestId(shown).waitFor();
  await look(page, at(name), findings);
  await close(page);
}

const storyFor = (lang: Lang) => ({
  name: lang === 'en' ? 'The quiet harbour' : '安静的港口',
  prologue_and_characters: lang === 'en' ? 'Ada mends a net.' : '阿达在补渔网。',
  role: 'Ada',
});

/** Signed out, the sign-in screen and the language menu; signed in, the stories screen, its dialogs and the user menu's, and the create screen. */
async function signInAndStories(walk: Walk): Promise<void> {
  const { context, page, lang, at, findings } = walk;
  // Signed out: sign-in with both tabs and their errors.
  await openSignIn(page);
  await page.getByTestId('login-card').waitFor();
  await look(page, at('login'), findings);
  await page.getByTestId('login-tab-phone').click();
  await page.getByTestId('login-phone-input').fill('12');
  await page.getByTestId('phone-login-submit').click();
  await look(page, at('login-phone-errors'), findings);
  // The menu is a chunk of its own, loaded on this first press: it opens when it has come.
  await peek(walk, 'language-menu-trigger', 'language-option-en', 'language-menu');

  // Signed in, with a story: the stories screen as a reader of one sees it.
  const { token } = await signUpInBrowser(context, page, lang, 'dialogs', { closeDailyPowerDialog: true });
  await createStoryInBrowser(page, token, storyFor(lang));

  await page.goto('/stories');
  await page.getByTestId('stories-heading').waitFor();
  await look(page, at('stories'), findings);
  await peek(walk, 'stories-get-power', 'power-check-in', 'power');
  await page.getByTestId('stories-tab-public').click();
  await look(page, at('square'), findings);
  for (const [item, name] of [
    ['user-menu-account', 'account'],
    ['user-menu-power', 'power-details'],
    ['user-menu-invite', 'invite'],
    ['user-menu-bind-phone', 'bind-phone'],
  ] as const) {
    await page.getByTestId('user-menu-trigger').click();
    await page.getByTestId(item).waitFor();
    if (name === 'account') await look(page, at('user-menu'), findings);
    await pressWhenStill(page, item);
    await page.locator('.ant-modal-container').filter({ visible: true }).first().waitFor();
    await look(page, at(name), findings);
    await close(page);
  }

  await page.goto('/create');
  await page.getByTestId('create-form').waitFor();
  await look(page, at('create'), findings);

}

/** The play screen: a turn, and every panel and dialog of its toolbar and menus. */
async function playScreen(walk: Walk): Promise<void> {
  const { context, page, lang, at, findings } = walk;
  const { token } = await signUpInBrowser(context, page, lang, 'dialogs', { closeDailyPowerDialog: true });
  const storyId = await createStoryInBrowser(page, token, storyFor(lang));
  await page.goto(`/play?id=${storyId}`);
  await page.getByTestId('play-textarea').fill(lang === 'en' ? 'Ada looks up.' : '阿达抬起头。');
  await page.getByTestId('send-button').click();
  await expect.poll(() => page.getByTestId('turn-continue').isEnabled()).toBe(true);
  await look(page, at('play-turn'), findings);
  await page.getByTestId('turn-save').click();
  await page.getByTestId('turn-card').waitFor({ state: 'detached' });

  await peek(walk, 'toolbar-settings', 'settings-panel', 'settings');
  await peek(walk, 'toolbar-archive', 'archive-save', 'archive');
  await peek(walk, 'toolbar-task', 'tasks-play-mode', 'tasks');
  await page.request.post(`/api/lore/${storyId}/entries`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { title: lang === 'en' ? 'The pier' : '码头', keys: [lang === 'en' ? 'pier' : '码头'], content: lang === 'en' ? 'The pier is old.' : '码头很旧。' },
  });
  await page.getByTestId('toolbar-lore').click();
  await page.getByTestId('lore-panel').waitFor();
  await expect.poll(() => page.getByTestId('lore-entry').count()).toBe(1);
  await look(page, at('lore'), findings);
  await peek(walk, 'lore-add', 'lore-form-title', 'lore-entry');
  // Importing a lore file into a story with entries (one, made above) asks whether to add or replace.
  const worldInfo = { entries: { '0': { uid: 0, key: ['gull'], comment: 'Gull', content: 'Gulls circle the pier.' } } };
  await page.locator('.tl-lore__files input[type=file]').setInputFiles({ name: 'world.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(worldInfo)) });
  await page.getByTestId('lore-import-append').waitFor();
  await look(page, at('lore-import'), findings);
  await page.getByTestId('lore-import-append').click();
  await expect.poll(() => page.getByTestId('lore-entry').count()).toBe(2);
  await peek(walk, 'lore-tab-context', 'context-inspector', 'lore-context');
  await peek(walk, 'toolbar-export', 'export-markdown', 'export');
  // Branches: "branch from here" asks first (cancelled here), and the list.
  await peek(walk, 'branch-from-passage', 'branch-fork-ok', 'branch-from-here', { first: true });
  await peek(walk, 'toolbar-branches', 'branch-list', 'branches');
  await peek(walk, 'title-edit', 'title-input', 'edit-title');
  await page.getByTestId('model-selector').click();
  await page.getByTestId('model-selector-manage').waitFor();
  await look(page, at('models'), findings);
  await pressWhenStill(page, 'model-selector-manage');
  await pressWhenStill(page, 'custom-model-add');
  await page.getByTestId('custom-model-name').waitFor();
  await look(page, at('custom-model'), findings);
  await close(page);
  await page.getByTestId('publish-button').click();
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').waitFor();
  await look(page, at('publish'), findings);
  await pressWhenStill(page, page.locator('.ant-modal-confirm-btns .ant-btn-primary'));
  await page.getByTestId('publish-menu').click();
  await pressWhenStill(page, 'publish-share');
  await page.getByTestId('share-qr').waitFor();
  await look(page, at('share'), findings);
  await close(page);
  await page.getByTestId('toolbar-edit').click();
  await page.getByTestId('edit-textarea').waitFor();
  await look(page, at('edit-text'), findings);
}

/**
 * Each part of the walk in two of the four language and width pairs, as the journeys (journeyPairs): every
 * dialog at both widths and in both languages, and the two parts together in all four. The play screen's
 * dialogs, the most, go in English at 375 px (the longest labels on the narrowest screen); the sign-in
 * screen in Chinese at 375 px (most readers' first screen). `E2E_ALL_PAIRS=1` walks both parts in all four.
 */
const PARTS: { name: string; english: 'en-desktop' | 'en-phone'; walk: (w: Walk) => Promise<void> }[] = [
  { name: 'sign-in, the stories screen and the user menu', english: 'en-desktop', walk: signInAndStories },
  { name: 'the play screen', english: 'en-phone', walk: playScreen },
];

describe('every dialog, drawer and panel at 375 and 1280 px, in both languages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const part of PARTS) {
    for (const { lang, size, viewport } of journeyPairs(part.english)) {
      it(`opens each of ${part.name}, and each fits and reads right (${lang}, ${size})`, async () => {
        const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN', viewport });
        const findings: Finding[] = [];
        try {
          await part.walk({ context, page, lang, at: (name) => `${lang}-${size}-${name}`, findings });
        } finally {
          await context.close();
        }
        expect(findings).toEqual([]);
      });
    }
  }

  it("opens and closes menus and dialogs without motion when the system asks for reduced motion", async () => {
    const seen: Record<string, string[]> = {};
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const { context, page } = await newPage(browser, baseURL, { reducedMotion });
      try {
        await signUpInBrowser(context, page, 'en', 'motion', { closeDailyPowerDialog: true });
        await page.goto('/stories');
        await page.getByTestId('stories-heading').waitFor();
        // Every antd motion class of a running animation (its start and active stages; a "prepare" stage
        // only measures, and comes with no motion too) put on an element from here on.
        await page.evaluate(() => {
          const motions: string[] = [];
          (window as unknown as { motions: string[] }).motions = motions;
          const note = (el: Node) => {
            const name = el instanceof Element ? el.getAttribute('class') ?? '' : '';
            if (/-(enter|appear|leave)-(start|active)\b/.test(name) && !name.includes('ant-wave')) motions.push(name);
          };
          new MutationObserver((records) => {
            for (const r of records) {
              note(r.target);
              r.addedNodes.forEach((n) => {
                note(n);
                if (n instanceof Element) n.querySelectorAll('*').forEach(note);
              });
            }
          }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
        });
        await page.getByTestId('user-menu-trigger').click();
        await pressWhenStill(page, 'user-menu-bind-phone');
        const dialog = page.locator('.ant-modal-container').filter({ visible: true }).first();
        await dialog.waitFor();
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        seen[reducedMotion] = await page.evaluate(() => (window as unknown as { motions: string[] }).motions);
      } finally {
        await context.close();
      }
    }
    // The menu slid and the dialog zoomed by default (what the observer sees); with reduced motion, nothing moved.
    expect(seen['no-preference'].some((c) => c.includes('ant-zoom'))).toBe(true);
    expect(seen['no-preference'].some((c) => c.includes('ant-slide'))).toBe(true);
    expect(seen.reduce).toEqual([]);
  });
});
