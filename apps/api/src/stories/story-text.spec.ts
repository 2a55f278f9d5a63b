import { containsPattern, round2, SNIPPET_MAX_LENGTH, textSnippets, toSeconds } from './story-text';

describe('story text helpers', () => {
  it('keeps the first and last non-empty lines and the length in characters', () => {
    expect(textSnippets('\n  First  \n\nmiddle\r\n last \n')).toEqual({ firstLine: 'First', lastLine: 'last', charCount: 27 });
    expect(textSnippets('only')).toEqual({ firstLine: 'only', lastLine: '', charCount: 4 });
    expect(textSnippets('')).toEqual({ firstLine: '', lastLine: '', charCount: 0 });
  });

  it('finds the same lines as splitting the whole text would, whatever its line ends and blank lines', () => {
    const bySplitting = (text: string) => {
      const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
      return { firstLine: lines[0] ?? '', lastLine: lines.length > 1 ? lines[lines.length - 1] : '' };
    };
    const pieces = ['', ' ', 'a', ' b ', '\t', '\r', '\u3000', 'cd\re', '龍'];
    const ends = ['\n', '\r\n', '\n\n', ''];
    let seed = 7;
    const pick = <T>(list: T[]) => list[(seed = (seed * 1103515245 + 12345) % 2147483648) % list.length];
    for (let n = 0; n < 2000; n++) {
      let text = '';
      for (let k = pick([0, 1, 2, 3, 5, 8]); k > 0; k--) text += pick(pieces) + pick(ends);
      expect({ text, ...textSnippets(text) }).toMatchObject({ text, ...bySplitting(text) });
    }
  });

  it('shortens long lines (the start of the first, the end of the last) without splitting characters', () => {
    const long = '龍'.repeat(SNIPPET_MAX_LENGTH + 10);
    const { firstLine, lastLine, charCount } = textSnippets(`${long}\nend ${long}`);
    expect([...firstLine]).toHaveLength(SNIPPET_MAX_LENGTH);
    expect([...lastLine]).toHaveLength(SNIPPET_MAX_LENGTH);
    expect(charCount).toBe(2 * (SNIPPET_MAX_LENGTH + 10) + 5);
  });

  it('searches literally and case-insensitively', () => {
    expect(containsPattern('a.b(').test('XA.B(Y')).toBe(true);
    expect(containsPattern('a.b').test('axb')).toBe(false);
  });

  it('rounds to 2 decimals and reads dates stored either way', () => {
    expect(round2(157 / 3)).toBe(52.33);
    expect(toSeconds(new Date('2026-01-01T00:00:10Z'))).toBe(1767225610);
    expect(toSeconds('2026-01-01T00:00:10.000Z')).toBe(1767225610);
    expect(toSeconds(null)).toBe(0);
  });
});
