import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, openSignIn, pressWhenStill, screenshot, settled, uniqueName } from './browser';

const baseURL = inject('baseURL');

const TEXT = {
  en: { checkedIn: 'Checked in today', done: 'Checked in: +5,000 power', channel: 'Daily check-in', amount: '+5,000', power: 'Power 5,000' },
  'zh-CN': { checkedIn: '今日已签到', done: '签到成功：+5,000 电量', channel: '每日签到', amount: '+5,000', power: '电量 5,000' },
} as const;

const squash = (s: string) => s.replace(/\s+/g, '');

describe('power in real Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`checks in from the daily dialog and shows it in the power details (${lang})`, async () => {
      const { context, page } = await newPage(browser, baseURL);
      try {
        const res = await page.request.post('/api/user/login', {
          data: { type: 'username', userName: uniqueName('power'), password: 'secret1' },
        });
        const { token, userInfo } = (await res.json()).data;
        await openSignIn(page);
        await page.evaluate(
          ([t, u, l]) => {
            localStorage.setItem('token', t);
            localStorage.setItem('userInfo', u);
            localStorage.setItem('lang', l);
          },
          [token, JSON.stringify(userInfo), lang] as const,
        );

        // Not checked in today: the dialog opens by itself.
        await page.goto('/stories');
        const dialog = page.getByTestId('power-dialog');
        await dialog.waitFor({ state: 'visible' });
        await screenshot(page, `power-dialog-${lang}`);
        await page.getByTestId('power-check-in').click();
        await expect.poll(() => page.locator('.ant-message').innerText()).toContain(TEXT[lang].done);
        await expect.poll(async () => squash(await page.getByTestId('power-check-in').innerText())).toBe(squash(TEXT[lang].checkedIn));
        await screenshot(page, `power-dialog-checked-in-${lang}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });

        // The balance in the user menu follows, and the details list the check-in.
        await page.getByTestId('user-menu-trigger').click();
        await expect.poll(async () => squash(await page.getByTestId('user-menu-power-value').innerText())).toBe(squash(TEXT[lang].power));
        await pressWhenStill(page, 'user-menu-power');
        const details = page.getByTestId('power-details-table-income');
        await expect.poll(() => details.innerText()).toContain(TEXT[lang].channel);
        expect(await details.getByTestId('power-amount').first().innerText()).toBe(TEXT[lang].amount);
        expect(await details.getByTestId('power-amount').first().getAttribute('class')).toContain('tl-power-plus');
        await screenshot(page, `power-details-${lang}`);

        // Closed a moment ago and checked in: a reload does not open the dialog again.
        // The page decides once it knows today's check-in (its answer), then renders: looked at once at rest.
        const status = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/check-in-status' && r.ok());
        await page.reload();
        await page.getByTestId('stories-heading').waitFor({ state: 'visible' });
        await status;
        await settled(page);
        expect(await dialog.isVisible()).toBe(false);
      } finally {
        await context.close();
      }
    });
  }
});
