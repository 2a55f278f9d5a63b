import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { XSS_PAYLOADS } from '../../api/test/support/xss-payloads';
import { launchBrowser, newPage, screenshot, signUpInBrowser } from './browser';

const baseURL = inject('baseURL');

/** Records what a payload could do if it ever ran or ever became markup: dialogs and CSP violations. */
async function armTraps(context: BrowserContext, page: Page): Promise<string[]> {
  const events: string[] = [];
  page.on('dialog', (dialog) => {
    events.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __violations?: string[] };
      (w.__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return events;
}

/** Nothing ran, and nothing in the page is active markup made from stored text. */
async function expectInert(page: Page, where: string, events: string[]): Promise<void> {
  const report = await page.evaluate(() => {
    const w = window as unknown as { __pwned?: unknown; __violations?: string[] };
    const elements = Array.from(document.querySelectorAll('*'));
    const urls = elements.flatMap((e) => ['href', 'src', 'action', 'formaction', 'xlink:href'].map((a) => e.getAttribute(a) ?? ''));
    return {
      pwned: w.__pwned ?? null,
      violations: w.__violations ?? [],
      javascriptUrls: urls.filter((u) => /^\s*javascript:/i.test(u)),
      handlers: elements.flatMap((e) => Array.from(e.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName}[${a.name}]`)),
      injected: elements.filter((e) => ['IFRAME', 'OBJECT', 'EMBED', 'DETAILS'].includes(e.tagName) || (e.tagName === 'SCRIPT' && e.textContent?.includes('__pwned')) || (e.tagName === 'IMG' && e.getAttribute('src') === 'x')).map((e) => e.tagName),
    };
  });
  expect({ where, ...report, events }).toEqual({ where, pwned: null, violations: [], javascriptUrls: [], handlers: [], injected: [], events: [] });
}

describe('stored text stays inert in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('stories list, square, play and a shared link show <script>, onerror and javascript: links as plain text', async () => {
    const a = await newPage(browser, baseURL);
    const b = await newPage(browser, baseURL);
    try {
      const aEvents = await armTraps(a.context, a.page);
      const bEvents = await armTraps(b.context, b.page);
      const { token } = await signUpInBrowser(a.context, a.page, 'en', 'xssauthor', { closeDailyPowerDialog: true });
      await signUpInBrowser(b.context, b.page, 'en', 'xssreader', { closeDailyPowerDialog: true });
      const api = async (method: 'POST' | 'PATCH', path: string, data: object = {}) => {
        const res = await a.page.request.fetch(path, { method, data, headers: { Authorization: `Bearer ${token}` } });
        expect({ path, status: res.status() }).toEqual({ path, status: method === 'POST' && path === '/api/llm' ? 201 : 200 });
        return (await res.json()).data as { id: string };
      };
      const text = XSS_PAYLOADS.join('\n');
      const name = `<img src=x onerror="window.__pwned=11"> Tale`;
      const { id: mine } = await api('POST', '/api/llm', { name: '<script>window.__pwned=12</script>', prologue_and_characters: text, role: '<b onmouseover=x>' });
      const { id: shared } = await api('POST', '/api/llm', { name, prologue_and_characters: text });
      await api('PATCH', `/api/llm?id=${shared}`, { main_text: `${text}\n[last](javascript:window.__pwned=13)` });
      await api('POST', `/api/user/public/${shared}`);

      // My list: both stories, names and snippets as text.
      await a.page.goto('/stories');
      await a.page.getByTestId('story-item').filter({ hasText: 'Tale' }).waitFor();
      expect(await a.page.getByTestId('story-list-mine').innerText()).toContain('<script>window.__pwned=12</script>');
      await expectInert(a.page, 'my stories', aEvents);

      // The square.
      await a.page.getByTestId('stories-tab-public').click();
      const item = a.page.getByTestId('story-list-public').getByTestId('story-item').filter({ hasText: 'Tale' });
      await item.waitFor();
      expect(await item.getByTestId('story-title').innerText()).toContain('<img src=x onerror=');
      await screenshot(a.page, 'security-square-en');
      await expectInert(a.page, 'square', aEvents);

      // Play: the whole text.
      await a.page.goto(`/play?id=${mine}`);
      await expect.poll(() => a.page.getByTestId('play-title').innerText()).toBe('<script>window.__pwned=12</script>');
      for (const payload of XSS_PAYLOADS) expect(await a.page.getByTestId('play-screen').innerText()).toContain(payload);
      await screenshot(a.page, 'security-play-en');
      await expectInert(a.page, 'play', aEvents);

      // Someone else opens the share link: the published version, in their own clone.
      await b.page.goto(`/play?id=${shared}`);
      await b.page.waitForURL((url) => url.pathname === '/play' && url.searchParams.get('id') !== shared, { timeout: 20_000 });
      await expect.poll(() => b.page.getByTestId('play-title').innerText()).toContain('<img src=x onerror=');
      await expect.poll(() => b.page.getByTestId('play-screen').innerText()).toContain('[last](javascript:window.__pwned=13)');
      await expectInert(b.page, 'shared link', bEvents);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('the app works over plain HTTP on a host name that is not localhost (no upgrade to HTTPS), with its security headers', async () => {
    // A LAN name mapped to the loopback address: the browser treats it as an ordinary, non-secure origin.
    const port = new URL(baseURL).port;
    const lan = await launchBrowser(['--host-resolver-rules=MAP taleloom.test 127.0.0.1']);
    try {
      const { page } = await newPage(lan, `http://taleloom.test:${port}`);
      const response = await page.goto('/login');
      const headers = response!.headers();
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['referrer-policy']).toBe('no-referrer');
      await page.getByTestId('login-card').waitFor({ state: 'visible' });
    } finally {
      await lan.close();
    }
  });
});
