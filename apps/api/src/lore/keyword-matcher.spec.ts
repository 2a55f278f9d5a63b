import fc from 'fast-check';
import { foldCase, isSpacedWordUnit, KeywordMatcher, type KeywordHit, type KeywordPattern } from './keyword-matcher';

const hits = (patterns: KeywordPattern[], text: string, from?: number, to?: number): KeywordHit[] => {
  const out: KeywordHit[] = [];
  new KeywordMatcher(patterns).scan(text, (id, start) => out.push({ id, start }), from, to);
  return out.sort((a, b) => a.start - b.start || a.id - b.id);
};
const p = (text: string, id = 0, options: Partial<KeywordPattern> = {}): KeywordPattern => ({ text, id, caseSensitive: false, wholeWords: true, ...options });

// The rules, written plainly: every start where the folded keyword equals the folded text, then case and edges.
function naive(patterns: KeywordPattern[], text: string): KeywordHit[] {
  const out: KeywordHit[] = [];
  const folded = foldCase(text);
  for (const pattern of patterns) {
    if (!pattern.text) continue;
    const key = foldCase(pattern.text);
    for (let start = folded.indexOf(key); start >= 0; start = folded.indexOf(key, start + 1)) {
      const end = start + key.length;
      if (pattern.caseSensitive && text.slice(start, end) !== pattern.text) continue;
      if (pattern.wholeWords) {
        const word = (i: number) => i >= 0 && i < text.length && isSpacedWordUnit(text.charCodeAt(i));
        if (word(start) && word(start - 1)) continue;
        if (word(end - 1) && word(end)) continue;
      }
      out.push({ id: pattern.id, start });
    }
  }
  return out.sort((a, b) => a.start - b.start || a.id - b.id);
}

describe('KeywordMatcher', () => {
  it('matches Latin keywords as whole words only', () => {
    expect(hits([p('cat')], 'the cat sat')).toEqual([{ id: 0, start: 4 }]);
    expect(hits([p('cat')], 'concatenate cats catalog')).toEqual([]);
    expect(hits([p('cat')], 'cat, cat. (cat) "cat"')).toHaveLength(4);
    expect(hits([p('Mira')], "Mira's sword; Miranda")).toEqual([{ id: 0, start: 0 }]);
    // Greek and Cyrillic are spaced scripts too.
    expect(hits([p('Ζευς')], 'οΖευς Ζευς')).toEqual([{ id: 0, start: 6 }]);
  });

  it('matches Chinese keywords anywhere (no word boundaries in unspaced scripts)', () => {
    expect(hits([p('米拉')], '米拉拔出了剑，米拉的朋友')).toEqual([{ id: 0, start: 0 }, { id: 0, start: 7 }]);
    expect(hits([p('龙城')], '他们到了龙城门下')).toEqual([{ id: 0, start: 4 }]);
    // A Latin keyword between Chinese characters is a whole word there.
    expect(hits([p('AI')], '这个AI的名字')).toEqual([{ id: 0, start: 2 }]);
    // A mixed keyword: the boundary applies only at its Latin edge.
    expect(hits([p('X号')], 'AX号 X号')).toEqual([{ id: 0, start: 4 }]);
  });

  it('folds case unless the keyword is case-sensitive', () => {
    expect(hits([p('dragon')], 'A DRAGON and a Dragon')).toEqual([{ id: 0, start: 2 }, { id: 0, start: 15 }]);
    expect(hits([p('Rose', 0, { caseSensitive: true })], 'a rose for Rose')).toEqual([{ id: 0, start: 11 }]);
  });

  it('matches substrings when whole words are off', () => {
    expect(hits([p('cat', 0, { wholeWords: false })], 'concatenate')).toEqual([{ id: 0, start: 3 }]);
  });

  it('finds overlapping keywords and keywords inside others', () => {
    const patterns = [p('he', 0, { wholeWords: false }), p('she', 1, { wholeWords: false }), p('hers', 2, { wholeWords: false })];
    expect(hits(patterns, 'ushers')).toEqual([{ id: 1, start: 1 }, { id: 0, start: 2 }, { id: 2, start: 2 }]);
  });

  it('scans only the window asked for, judging word edges against the whole text', () => {
    expect(hits([p('cat')], 'cat cat cat', 4)).toEqual([{ id: 0, start: 4 }, { id: 0, start: 8 }]);
    // "cat" at the window's start continues a word before it.
    expect(hits([p('cat')], 'bobcat', 3)).toEqual([]);
    expect(hits([p('cat')], 'cat cats', 0, 7)).toEqual([{ id: 0, start: 0 }]);
  });

  it('keeps UTF-16 positions through characters whose lower case is longer', () => {
    expect(hits([p('x')], 'İ x')).toEqual([{ id: 0, start: 2 }]);
    expect(hits([p('😀猫')], 'a😀猫')).toEqual([{ id: 0, start: 1 }]);
  });

  it('agrees with a naive search on random texts and keywords (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', 'B', ' ', '.', '米', '拉', 'é', 'É', '1', '_');
    const word = fc.array(alphabet, { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.record({ text: word, caseSensitive: fc.boolean(), wholeWords: fc.boolean() }), { minLength: 1, maxLength: 8 }),
        fc.array(alphabet, { maxLength: 60 }).map((a) => a.join('')),
        (specs, text) => {
          const patterns = specs.map((s, id) => ({ ...s, id }));
          expect(hits(patterns, text)).toEqual(naive(patterns, text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('agrees with a naive search inside any window of the text (property)', () => {
    // A window is read through a slice with one unit either side: hits keep the whole text's positions.
    const alphabet = fc.constantFrom('a', 'b', 'A', ' ', '米', '拉', '1');
    const word = fc.array(alphabet, { minLength: 1, maxLength: 3 }).map((a) => a.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.record({ text: word, caseSensitive: fc.boolean(), wholeWords: fc.boolean() }), { minLength: 1, maxLength: 6 }),
        fc.array(alphabet, { maxLength: 40 }).map((a) => a.join('')),
        fc.nat(45),
        fc.nat(45),
        (specs, text, a, b) => {
          const patterns = specs.map((s, id) => ({ ...s, id }));
          const [from, to] = [Math.min(a, b), Math.max(a, b)];
          const inside = naive(patterns, text).filter((h) => h.start >= from && h.start + patterns[h.id].text.length <= to);
          expect(hits(patterns, text, from, Math.min(to, text.length))).toEqual(inside);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('agrees with a naive search where states have many continuations (property)', () => {
    // Edges past the first few of a state are looked up by halving: many keywords sharing a prefix.
    const alphabet = fc.constantFrom(...'abcdefghijklmnopQRST 米拉龙'.split(''));
    const word = fc.array(alphabet, { minLength: 1, maxLength: 3 }).map((a) => a.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.record({ text: word.map((w) => `k${w}`), caseSensitive: fc.boolean(), wholeWords: fc.boolean() }), { minLength: 10, maxLength: 40 }),
        fc.array(fc.oneof(alphabet, fc.constant('k')), { maxLength: 80 }).map((a) => a.join('')),
        (specs, text) => {
          const patterns = specs.map((s, id) => ({ ...s, id }));
          expect(hits(patterns, text)).toEqual(naive(patterns, text));
        },
      ),
      { numRuns: 300 },
    );
    const many = 'abcdefghijklmnop'.split('').map((c, id) => p(`k${c}`, id));
    expect(hits(many, 'kp ka kz kh')).toEqual([{ id: 15, start: 0 }, { id: 0, start: 3 }, { id: 7, start: 9 }]);
  });
});
