import { describe, expect, it } from 'vitest';
import { charCount } from './char-count';

describe('charCount', () => {
  it('counts code points as spreading the string does', () => {
    const samples = ['', 'abc', '雨夜之港', 'emoji 😀 and 𠮷', '\ud83d', 'x\udc00y', '\ud83d\ud83d\ude00', '😀'.repeat(1000) + 'a'];
    for (const text of samples) expect(charCount(text)).toBe([...text].length);
  });
});
