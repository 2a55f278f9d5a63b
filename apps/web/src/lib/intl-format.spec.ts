import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime, formatNumber } from './intl-format';

describe('intl-format', () => {
  afterEach(() => vi.restoreAllMocks());

  it('formats as Intl does, in each language', () => {
    const at = Date.UTC(2026, 11, 7, 20, 56);
    for (const lang of ['en', 'zh-CN']) {
      expect(formatNumber(1234567, lang)).toBe(new Intl.NumberFormat(lang).format(1234567));
      expect(formatNumber(0.125, lang, { maximumFractionDigits: 2 })).toBe(new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(0.125));
      expect(formatDateTime(at, lang)).toBe(new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(at));
    }
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
  });

  it('makes one formatter per language and options', () => {
    const Real = Intl.NumberFormat;
    const made = vi.spyOn(Intl, 'NumberFormat').mockImplementation(function (this: unknown, ...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      return new Real(...args);
    } as unknown as typeof Intl.NumberFormat);
    formatNumber(1, 'fr');
    formatNumber(2, 'fr');
    formatNumber(3, 'fr', { maximumFractionDigits: 1 });
    formatNumber(4, 'de');
    expect(made).toHaveBeenCalledTimes(3);
  });
});
