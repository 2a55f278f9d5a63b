import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { LoginData, UserInfo } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, testUser } from '../../../test/render-app';

function fill(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

const phoneUser: UserInfo = { ...testUser, userID: 'p1', userName: 'user_abc123', phone: '13800138000', phoneCountryCode: '86', phoneVerified: true, phoneVerifiedAt: '2026-01-02T03:04:05.000Z' };
const nameUser: UserInfo = { ...testUser, userID: 'n1', userName: 'carol', phone: '13800138000', phoneCountryCode: '86', phoneVerified: true, phoneVerifiedAt: '2026-02-03T04:05:06.000Z' };

function answer(url: string, loginData: LoginData) {
  const ok = (data: unknown) => jsonResponse({ status: 'success', message: 'ok', data });
  if (url.includes('/country-codes')) return ok({ '1': ['US', 'CA'], '86': ['CN'] });
  if (url.includes('/captcha')) return ok({ provider: 'svg', id: 'a'.repeat(24), svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>', expiresInSeconds: 120 });
  if (url.includes('/send-sms')) return ok({ resendAfterSeconds: 60, expiresInSeconds: 300, devCode: '246810' });
  if (url.includes('/user/login')) return ok(loginData);
  return ok(null);
}

async function signInByPhone() {
  await screen.findByTestId('phone-login-form');
  fill('login-phone-input', '13800138000');
  fill('captcha-input', 'TEST');
  await act(async () => {
    fireEvent.click(screen.getByTestId('login-send-code'));
  });
  expect(await screen.findByTestId('login-dev-code')).toHaveTextContent('246810');
  await waitFor(() => expect(screen.getByTestId('login-send-code')).toBeDisabled());
  expect(screen.getByTestId('login-send-code')).toHaveTextContent(/\d+/);
  fill('login-code-input', '246810');
  await act(async () => {
    fireEvent.click(screen.getByTestId('phone-login-submit'));
  });
}

describe('phone login', () => {
  it('sends the code after the captcha with the default country code 86 in Chinese, then signs in', async () => {
    const fetchMock = mockFetch((url) => answer(url, { token: 'a.b.c', userInfo: phoneUser }));
    const { i18n } = await import('../../../lib/i18n');
    await i18n.changeLanguage('zh-CN');
    const { router } = renderApp('/login');
    await signInByPhone();
    await waitFor(() => expect(router.state.location.pathname).toBe('/stories'));
    const body = (path: string) => JSON.parse(String(fetchMock.mock.calls.find(([u]) => String(u).includes(path))![1]!.body));
    expect(body('/send-sms')).toEqual({ type: 'login', countryCode: '86', phoneNum: '13800138000', verifyCode: 'TEST', captchaId: 'a'.repeat(24), language: 'zh-CN' });
    expect(body('/user/login')).toEqual({ type: 'phone', countryCode: '86', phoneNum: '13800138000', verifyCode: '246810', language: 'zh-CN' });
    expect(window.localStorage.getItem('token')).toBe('a.b.c');
  });

  it('opens the choose-user modal, which Escape does not close; choosing stores that token and goes to /stories', async () => {
    mockFetch((url) =>
      answer(url, { token: 'name.jwt.x', phoneToken: 'phone.jwt.x', userInfo: { ...phoneUser, token: nameUser, phoneToken: phoneUser } }),
    );
    const { i18n } = await import('../../../lib/i18n');
    await i18n.changeLanguage('zh-CN');
    const { router } = renderApp('/login?redirect=/play&id=1');
    await signInByPhone();
    const modal = await screen.findByTestId('choose-user-modal');
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(modal.querySelector('.ant-modal-close')).toBeNull();
    fireEvent.keyDown(modal, { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(screen.getByTestId('choose-user-username')).toHaveTextContent('carol');
    expect(screen.getByTestId('choose-user-phone')).toHaveTextContent('user_abc123');
    await act(async () => {
      fireEvent.click(screen.getByTestId('choose-user-username'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/stories'));
    expect(window.localStorage.getItem('token')).toBe('name.jwt.x');
  });

  it('names the number input by its label, in both languages (the country code has its own)', async () => {
    mockFetch((url) => answer(url, { token: 'a.b.c', userInfo: phoneUser }));
    const { i18n } = await import('../../../lib/i18n');
    for (const [lang, label] of [
      ['en', 'Phone number'],
      ['zh-CN', '手机号'],
    ] as const) {
      await i18n.changeLanguage(lang);
      const { unmount } = renderApp('/login');
      fireEvent.click(await screen.findByTestId('login-tab-phone'));
      await screen.findByTestId('phone-login-form');
      expect(screen.getByLabelText(label, { selector: 'input' })).toBe(screen.getByTestId('login-phone-input'));
      unmount();
    }
  });
});
