import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, journeyPairs, launchBrowser, newPage, openFromMenu, openSignIn, PHONE, pressWhenStill, screenshot, settled, uniqueName } from './browser';

const baseURL = inject('baseURL');
// The e2e server runs the test-only captcha whose answer is fixed (see global-setup.ts).
const CAPTCHA = 'TEST';

type Lang = 'en' | 'zh-CN';
const TEXT = {
  en: { heading: 'Story list', choose: 'Choose user', power: '100,000' },
  'zh-CN': { heading: '故事列表', choose: '选择用户', power: '100,000' },
} as const;

// A number gets one code per SMS_RESEND_SECONDS, 1 s on the test server (global-setup.ts): when each
// number last got one, as seen here (after the server's answer, so never before the server's own time).
const codeSentAt = new Map<string, number>();
const codeSent = (phone: string) => codeSentAt.set(phone, Date.now());
/** Returns once the number may get its next code: a second (and a little) after its last one. */
async function resendAllowed(phone: string) {
  const left = (codeSentAt.get(phone) ?? 0) + 1050 - Date.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left));
}

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
// Valid numbers (libphonenumber checks them server-side), new on every run.
const cnNumber = () => `139${digits(8)}`;
const usNumber = () => `20155501${digits(2)}`;

async function chooseLanguage(page: Page, lang: Lang) {
  await page.getByTestId('login-card').waitFor({ state: 'visible' });
  if ((await page.evaluate(() => document.documentElement.lang)) === lang) return;
  await page.getByTestId('language-menu-trigger').click();
  const option = page.getByTestId(`language-option-${lang}`);
  await pressWhenStill(page, option);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

/** Fills the phone tab through the captcha and the code shown in test mode, and submits. */
async function phoneSignIn(page: Page, phone: string, shotName?: string) {
  await page.getByTestId('login-tab-phone').click();
  await page.getByTestId('phone-login-form').waitFor({ state: 'visible' });
  await page.getByTestId('login-phone-input').fill(phone);
  await page.locator('[data-testid="captcha-image"] img').waitFor({ state: 'visible' });
  await page.getByTestId('captcha-input').fill(CAPTCHA);
  await page.getByTestId('login-send-code').click();
  const dev = page.getByTestId('login-dev-code');
  await dev.waitFor({ state: 'visible' });
  const code = (await dev.getAttribute('data-code'))!;
  codeSent(phone);
  expect(code).toMatch(/^\d{6}$/);
  // The button counts down and is disabled.
  await expect.poll(() => page.getByTestId('login-send-code').isDisabled()).toBe(true);
  await page.getByTestId('login-code-input').fill(code);
  if (shotName) await screenshot(page, shotName);
  await page.getByTestId('phone-login-submit').click();
}

async function api(page: Page, path: string, data: object, token?: string) {
  const res = await page.request.post(path, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const body = await res.json();
  if (!res.ok()) throw new Error(`${path}: ${res.status()} ${JSON.stringify(body)}`);
  return body.data;
}

/** A phone account made through the API: captcha, send-sms (the answer carries the code in test mode), login. */
async function phoneAccountByApi(page: Page, phoneNum: string, countryCode: string) {
  const captcha = (await (await page.request.get('/api/captcha')).json()).data;
  const sent = await api(page, '/api/user/send-sms', { type: 'login', phoneNum, countryCode, verifyCode: CAPTCHA, captchaId: captcha.id });
  codeSent(phoneNum);
  return api(page, '/api/user/login', { type: 'phone', phoneNum, countryCode, verifyCode: sent.devCode });
}

/** A fresh context whose daily power dialog (the power feature's, tested there) does not open by itself. */
async function accountsPage(browser: Browser, opts: Parameters<typeof newPage>[2]) {
  const made = await newPage(browser, baseURL, opts);
  await made.context.addInitScript(() => localStorage.setItem('powerDialogClosedAt', String(Date.now())));
  return made;
}


describe('accounts in real Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const { lang, size: view, viewport } of journeyPairs('en-phone')) {
    it(`signs up by phone through the captcha and the SMS code (${lang}, ${view})`, async () => {
      const { context, page } = await accountsPage(browser, { viewport, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
      try {
        await openSignIn(page);
        await chooseLanguage(page, lang);
        // The country code follows the language: +86 for Chinese, +1 otherwise.
        await page.getByTestId('login-tab-phone').click();
        // A native select under its label: the label shows the code, the select holds it.
        const select = page.locator('[data-testid="phone-login-form"] .tl-country-select');
        await expect.poll(() => select.locator('.tl-country-select__value').innerText()).toBe(lang === 'en' ? '+1' : '+86');
        expect(await select.locator('select').inputValue()).toBe(lang === 'en' ? '1' : '86');
        await phoneSignIn(page, lang === 'en' ? usNumber() : cnNumber(), `login-phone-${lang}-${view}`);
        await page.waitForURL(/\/stories$/);
        await expect.poll(() => page.getByTestId('stories-heading').innerText()).toBe(TEXT[lang].heading);
        // A new number registers with the first-binding reward.
        await page.getByTestId('user-menu-trigger').click();
        await expect.poll(() => page.getByTestId('user-menu-power-value').innerText()).toContain(TEXT[lang].power);
      } finally {
        await context.close();
      }
    });
  }

  it('asks which account to use when the number has a phone account and a username account; the modal cannot be closed', async () => {
    const { context, page } = await accountsPage(browser, { viewport: PHONE, locale: 'zh-CN' });
    try {
      const phone = cnNumber();
      const phoneAccount = await phoneAccountByApi(page, phone, '86');
      const name = uniqueName('named');
      const named = await api(page, '/api/user/login', { type: 'username', userName: name, password: 'secret1' });
      await resendAllowed(phone);
      const sent = await api(page, '/api/user/send-sms', { type: 'register', phoneNum: phone, countryCode: '86' }, named.token);
      codeSent(phone);
      await api(page, '/api/user/bind-mobile', { phoneNum: phone, countryCode: '86', smsCode: sent.devCode }, named.token);

      await openSignIn(page);
      await chooseLanguage(page, 'zh-CN');
      await resendAllowed(phone);
      await phoneSignIn(page, phone);
      // The test id sits on antd's zero-size modal root: wait for what is inside it.
      const option = page.getByTestId('choose-user-username');
      await option.waitFor({ state: 'visible' });
      await expect.poll(() => page.locator('.ant-modal-title').innerText()).toBe(TEXT['zh-CN'].choose);
      expect(await page.locator('.ant-modal-close').count()).toBe(0);
      await screenshot(page, 'choose-user-zh-CN-phone');
      await page.keyboard.press('Escape');
      await page.mouse.click(5, 5);
      // Looked at once the page is at rest (a closing would be a change of the dialog's box or its end).
      await settled(page, '.ant-modal');
      expect(await option.isVisible()).toBe(true);
      expect(await page.getByTestId('choose-user-phone').innerText()).toContain(phoneAccount.userInfo.userName);
      expect(await page.getByTestId('choose-user-username').innerText()).toContain(name);

      await page.getByTestId('choose-user-username').click();
      await page.waitForURL(/\/stories$/);
      await page.getByTestId('user-menu-trigger').click();
      await expect.poll(() => page.getByTestId('user-menu-name').innerText()).toBe(name);
    } finally {
      await context.close();
    }
  });

  for (const [lang, viewport, view] of [
    ['en', DESKTOP, 'desktop'],
    ['zh-CN', PHONE, 'phone'],
  ] as const) {
    it(`binds a phone from the user menu and shows the new balance; invitation, account and reset dialogs (${lang}, ${view})`, async () => {
      const { context, page } = await accountsPage(browser, { viewport, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
      try {
        const name = uniqueName('binder');
        const login = await api(page, '/api/user/login', { type: 'username', userName: name, password: 'secret1' });
        await openSignIn(page);
        await chooseLanguage(page, lang);
        await page.evaluate(([token, info]) => {
          localStorage.setItem('token', token);
          localStorage.setItem('userInfo', JSON.stringify(info));
        }, [login.token, login.userInfo] as const);
        await page.goto('/stories');
        await page.getByTestId('stories-heading').waitFor({ state: 'visible' });

        // Reset password is disabled until a phone is verified.
        await page.getByTestId('user-menu-trigger').click();
        await expect.poll(() => page.getByTestId('user-menu-reset-password').getAttribute('aria-disabled')).toBe('true');
        await pressWhenStill(page, 'user-menu-bind-phone');
        const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('bind-phone-input') });
        await page.getByTestId('bind-phone-input').waitFor({ state: 'visible' });
        await expect.poll(() => dialog.locator('.tl-country-select__value').innerText()).toBe(lang === 'en' ? '+1' : '+86');
        expect(await dialog.locator('.tl-country-select select').inputValue()).toBe(lang === 'en' ? '1' : '86');
        const bound = lang === 'en' ? usNumber() : cnNumber();
        await page.getByTestId('bind-phone-input').fill(bound);
        await page.getByTestId('bind-send-code').click();
        const dev = page.getByTestId('bind-dev-code');
        await dev.waitFor({ state: 'visible' });
        codeSent(bound);
        await page.getByTestId('bind-code-input').fill((await dev.getAttribute('data-code'))!);
        await screenshot(page, `bind-phone-${lang}-${view}`);
        await page.getByTestId('bind-confirm').click();
        await page.getByTestId('bind-phone-input').waitFor({ state: 'detached' });

        await page.getByTestId('user-menu-trigger').click();
        await expect.poll(() => page.getByTestId('user-menu-power-value').innerText()).toContain(TEXT[lang].power);
        await expect.poll(() => page.getByTestId('user-menu-reset-password').getAttribute('aria-disabled')).not.toBe('true');
        await pressWhenStill(page, 'user-menu-account');
        await expect.poll(() => page.getByTestId('account-power').innerText()).toContain(TEXT[lang].power);
        await screenshot(page, `account-${lang}-${view}`);
        await page.keyboard.press('Escape');
        await page.getByTestId('account-power').waitFor({ state: 'hidden' });

        // Invitation: the link, and the copy icon that changes for one second.
        await openFromMenu(page, 'user-menu-trigger', 'user-menu-invite', page.getByTestId('invite-link'));
        const link = page.getByTestId('invite-link');
        await expect.poll(() => link.inputValue()).toMatch(new RegExp(`^${baseURL}/i/[a-z2-9]{8}$`));
        await page.getByTestId('invite-copy').click();
        await expect.poll(() => page.getByTestId('invite-copy').getAttribute('data-copied')).toBe('true');
        await screenshot(page, `invite-${lang}-${view}`);
        await expect.poll(() => page.getByTestId('invite-copy').getAttribute('data-copied'), { timeout: 3000 }).toBe('false');
        const inviteLink = await link.inputValue();
        await page.keyboard.press('Escape');

        // Reset password: the code goes to the bound phone; the old token stops working, the new one is kept.
        await openFromMenu(page, 'user-menu-trigger', 'user-menu-reset-password', page.getByTestId('reset-send-code'));
        await resendAllowed(bound);
        await page.getByTestId('reset-send-code').click();
        const resetDev = page.getByTestId('reset-dev-code');
        await resetDev.waitFor({ state: 'visible' });
        await page.getByTestId('reset-code-input').fill((await resetDev.getAttribute('data-code'))!);
        await page.getByTestId('reset-password-input').fill('newpass1');
        await screenshot(page, `reset-password-${lang}-${view}`);
        await page.getByTestId('reset-confirm').click();
        await page.getByTestId('reset-password-input').waitFor({ state: 'detached' });
        const old = await page.request.get('/api/user/user-info', { headers: { Authorization: `Bearer ${login.token}` } });
        expect(old.status()).toBe(401);
        await page.reload();
        await page.getByTestId('stories-heading').waitFor({ state: 'visible' });
        // (An empty list of my stories switches to the square, which the address keeps.)
        expect(page.url()).toMatch(/\/stories(\?tab=square)?$/);

        // The invite link opens the login screen with the code filled in.
        await page.evaluate(() => localStorage.clear());
        await page.goto(inviteLink.replace(baseURL, ''));
        await page.waitForURL(/\/login\?invite_code=/);
        await page.getByTestId('login-tab-username').click();
        await expect.poll(() => page.getByTestId('login-invite-input').inputValue()).toBe(inviteLink.split('/i/')[1]);
      } finally {
        await context.close();
      }
    });
  }
});
