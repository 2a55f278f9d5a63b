import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { jsonResponse, mockFetch, renderApp } from '../../../test/render-app';
import { BindPhoneDialog } from './bind-phone-dialog';

// The spec's account texts (section 5, validation, and section 8, error catalogue), each made to happen.
const TEXTS = {
  en: {
    captchaFailed: 'Captcha failed to load, please refresh the page and retry',
    countryCodesFailed: 'Failed to get country codes, refresh the page and retry',
    sendFailed: 'Verification code sending failed, retry',
    phoneRequired: 'Please enter phone number',
    phoneInvalid: 'Please enter correct phone number',
    codeLength: 'The verification code has 6 digits',
  },
  'zh-CN': {
    captchaFailed: '人机验证加载失败，请刷新页面后重试',
    countryCodesFailed: '获取国家/地区区号失败，请刷新页面后重试',
    sendFailed: '验证码发送失败，请重试',
    phoneRequired: '请输入手机号',
    phoneInvalid: '请输入正确的手机号',
    codeLength: '验证码为 6 位数字',
  },
} as const;
const LANGUAGES = ['en', 'zh-CN'] as const;

const ok = (data: unknown) => jsonResponse({ status: 'success', message: 'ok', data });
const serverError = () => jsonResponse({ status: 'error', code: 'INTERNAL', message: 'boom' }, 500);
const svgCaptcha = { provider: 'svg', id: 'a'.repeat(24), svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>', expiresInSeconds: 120 };

interface Answers {
  captcha?: () => Response;
  countryCodes?: () => Response;
  sendSms?: () => Response;
}

function answer(url: string, answers: Answers) {
  if (url.includes('/country-codes')) return answers.countryCodes?.() ?? ok({ '1': ['US'], '86': ['CN'] });
  if (url.includes('/captcha')) return answers.captcha?.() ?? ok(svgCaptcha);
  if (url.includes('/send-sms')) return answers.sendSms?.() ?? ok({ resendAfterSeconds: 60, expiresInSeconds: 300 });
  return ok(null);
}

async function openPhoneForm(lang: (typeof LANGUAGES)[number]) {
  const { i18n } = await import('../../../lib/i18n');
  await i18n.changeLanguage(lang);
  const view = renderApp('/login');
  fireEvent.click(await screen.findByTestId('login-tab-phone'));
  await screen.findByTestId('phone-login-form');
  return view;
}

function fill(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

async function clickSend(prefix: string) {
  await act(async () => fireEvent.click(screen.getByTestId(`${prefix}-send-code`)));
}

describe('the spec’s phone and captcha texts, in both languages', () => {
  it('a captcha that fails to load says to refresh the page and retry, and so does a send without one', async () => {
    mockFetch((url) => answer(url, { captcha: serverError }));
    for (const lang of LANGUAGES) {
      const { unmount } = await openPhoneForm(lang);
      expect(await screen.findByText(TEXTS[lang].captchaFailed)).toBeInTheDocument();
      fill('login-phone-input', '13800138000');
      await clickSend('login');
      expect((await screen.findAllByText(TEXTS[lang].captchaFailed)).length).toBeGreaterThan(0);
      unmount();
    }
  });

  it('a Turnstile script that fails to load says to refresh the page and retry', async () => {
    mockFetch((url) => answer(url, { captcha: () => ok({ provider: 'turnstile', siteKey: 'site-key', expiresInSeconds: 300 }) }));
    // No script leaves the machine: the script element fails as soon as it is added.
    const append = document.head.appendChild.bind(document.head);
    vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
      if (node instanceof HTMLScriptElement && node.src.includes('turnstile')) {
        queueMicrotask(() => node.dispatchEvent(new Event('error')));
        return node;
      }
      return append(node);
    });
    for (const lang of LANGUAGES) {
      const { unmount } = await openPhoneForm(lang);
      await screen.findByTestId('captcha-turnstile');
      expect(await screen.findByText(TEXTS[lang].captchaFailed)).toBeInTheDocument();
      unmount();
    }
  });

  it('country codes that fail to load say to refresh the page and retry', async () => {
    mockFetch((url) => answer(url, { countryCodes: serverError }));
    for (const lang of LANGUAGES) {
      const { unmount } = await openPhoneForm(lang);
      expect(await screen.findByText(TEXTS[lang].countryCodesFailed)).toBeInTheDocument();
      unmount();
    }
  });

  it('a send answered with a server error (500) says "Verification code sending failed, retry"', async () => {
    mockFetch((url) => answer(url, { sendSms: serverError }));
    for (const lang of LANGUAGES) {
      const { unmount } = await openPhoneForm(lang);
      fill('login-phone-input', '13800138000');
      fill('captcha-input', 'TEST');
      await clickSend('login');
      expect(await screen.findByText(TEXTS[lang].sendFailed)).toBeInTheDocument();
      unmount();
    }
  });

  it('sign-in: no number → "please enter phone number"; not 6–15 digits → "please enter correct phone number"', async () => {
    const fetchMock = mockFetch((url) => answer(url, {}));
    for (const lang of LANGUAGES) {
      const { unmount } = await openPhoneForm(lang);
      await clickSend('login');
      expect(await screen.findByText(TEXTS[lang].phoneRequired)).toBeInTheDocument();
      fill('login-phone-input', '12345');
      await clickSend('login');
      expect(await screen.findByText(TEXTS[lang].phoneInvalid)).toBeInTheDocument();
      unmount();
    }
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/send-sms'))).toBe(false);
  });

  it('bind phone: the same phone messages, and a code of other than 6 digits is refused', async () => {
    const fetchMock = mockFetch((url) => answer(url, {}));
    const { i18n } = await import('../../../lib/i18n');
    for (const lang of LANGUAGES) {
      await i18n.changeLanguage(lang);
      const { unmount } = render(
        <AppProviders queryClient={createQueryClient()}>
          <BindPhoneDialog open onClose={() => undefined} />
        </AppProviders>,
      );
      await screen.findByTestId('bind-phone-input');
      await clickSend('bind');
      expect(await screen.findByText(TEXTS[lang].phoneRequired)).toBeInTheDocument();
      fill('bind-phone-input', '1380013800a');
      await clickSend('bind');
      expect(await screen.findByText(TEXTS[lang].phoneInvalid)).toBeInTheDocument();
      fill('bind-phone-input', '13800138000');
      fill('bind-code-input', '123');
      await act(async () => fireEvent.click(screen.getByTestId('bind-confirm')));
      expect(await screen.findByText(TEXTS[lang].codeLength)).toBeInTheDocument();
      unmount();
    }
    expect(fetchMock.mock.calls.some(([url]) => /send-sms|bind-mobile/.test(String(url)))).toBe(false);
  });

  it('asks for a new captcha every 60 seconds (spec: the captcha is refreshed every 60 s)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = mockFetch((url) => answer(url, {}));
      const captchas = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/captcha')).length;
      await openPhoneForm('en');
      await vi.waitFor(() => expect(captchas()).toBe(1));
      await act(async () => vi.advanceTimersByTime(59_000));
      expect(captchas()).toBe(1);
      await act(async () => vi.advanceTimersByTime(1_000));
      await vi.waitFor(() => expect(captchas()).toBe(2));
    } finally {
      vi.useRealTimers();
    }
  });
});
