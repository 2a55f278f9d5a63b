import { afterEach, describe, expect, it } from 'vitest';
import { getStoredLanguage, storeLanguage } from './storage';

describe('the chosen language', () => {
  afterEach(() => {
    localStorage.clear();
    document.cookie = 'lang=; Path=/; Max-Age=0';
  });

  it('is kept in localStorage and in the lang cookie, which the server reads for the sign-in page', () => {
    storeLanguage('zh-CN');
    expect(getStoredLanguage()).toBe('zh-CN');
    expect(document.cookie).toContain('lang=zh-CN');
    storeLanguage('en');
    expect(getStoredLanguage()).toBe('en');
    expect(document.cookie).toContain('lang=en');
    expect(document.cookie).not.toContain('lang=zh-CN');
  });
});
