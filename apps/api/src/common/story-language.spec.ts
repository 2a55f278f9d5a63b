import fc from 'fast-check';
import { storyLanguage } from './story-language';

// The regular expressions storyLanguage replaced: the same answer on every text.
function byRegex(text: string): 'en' | 'zh' {
  const sample = text.slice(-3000);
  const cjk = (sample.match(/[\u3400-\u9fff]/g) ?? []).length;
  const letters = (sample.match(/[A-Za-z\u3400-\u9fff]/g) ?? []).length;
  return letters > 0 && cjk / letters >= 0.2 ? 'zh' : 'en';
}

describe('storyLanguage', () => {
  it('tells the language as the regular expressions it replaced did (last 3000 code units, a fifth CJK)', () => {
    const piece = fc.constantFrom('a', 'Z', ' ', '1', '\n', '玛', '拉', '。', 'é', '\u33ff', '\u3400', '\u9fff', '\ua000', '😀', '@', '[', '`', '{');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 4000 }), fc.integer({ min: 0, max: 3500 }), (pieces, pad) => {
        const text = 'x'.repeat(pad % 7 === 0 ? pad : 0) + pieces.join('');
        expect(storyLanguage(text)).toBe(byRegex(text));
      }),
      { numRuns: 300 },
    );
    for (const text of ['', '...', '玛'.repeat(3000) + 'a'.repeat(3000), 'a'.repeat(3000) + '玛'.repeat(3000), '玛'.repeat(20) + 'a'.repeat(80), '玛'.repeat(19) + 'a'.repeat(81)]) {
      expect(storyLanguage(text)).toBe(byRegex(text));
    }
  });

  it('speaks Chinese for a Chinese story and English for an English one', () => {
    expect(storyLanguage('玛拉站在码头上，望着远处的灯塔。')).toBe('zh');
    expect(storyLanguage('Mara stood on the pier.')).toBe('en');
  });
});
