import { describe, expect, it } from 'vitest';
import { textLanguage } from './text-language';

describe('textLanguage', () => {
  it('says zh-CN for Chinese text, also with some Latin in it', () => {
    expect(textLanguage('灯塔来信')).toBe('zh-CN');
    expect(textLanguage('守塔人在 Keeper 的灯下读信。')).toBe('zh-CN');
  });

  it('says en for Latin text, also with a Chinese name in it', () => {
    expect(textLanguage('The lighthouse letter')).toBe('en');
    expect(textLanguage('A long letter from the keeper of the lighthouse, signed 李')).toBe('en');
    expect(textLanguage('')).toBe('en');
  });
});
