import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app';

async function pickLanguage(testId: string) {
  fireEvent.click(screen.getByTestId('language-menu-trigger'));
  fireEvent.click(await screen.findByTestId(testId));
}

describe('language menu', () => {
  it('switches to Chinese, persists `lang` and updates the page', async () => {
    renderApp('/login');
    expect(await screen.findByTestId('login-card')).toHaveTextContent('Welcome to TaleLoom');

    await pickLanguage('language-option-zh-CN');
    await waitFor(() => expect(screen.getByTestId('login-card')).toHaveTextContent('欢迎来到织梦故事'));
    expect(window.localStorage.getItem('lang')).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
    expect(document.title).toBe('登录 · 织梦故事');

    await pickLanguage('language-option-en');
    await waitFor(() => expect(document.title).toBe('Log in · TaleLoom'));
    expect(window.localStorage.getItem('lang')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});
