/**
 * Many keywords found in one pass over a text (Aho–Corasick), with the lore's rules on top:
 * case folding (per UTF-16 unit, so positions stay those of the original text), case-sensitive
 * keywords checked against the original, and word boundaries at the keyword edges that are letters
 * or digits of a spaced script (Latin, Greek, Cyrillic...). Chinese, Japanese and other unspaced
 * scripts have no word boundaries: their edges match anywhere (substring matching).
 *
 * The registry's packages were measured first: the most used one segments graphemes and took 24 s
 * over a 100,000-character window; the plain one reports matched strings rather than ids and is
 * untyped and unmaintained. This one is small, typed, and checked against a naive search by a
 * property test (keyword-matcher.spec.ts).
 */

/** One keyword to look for; `id` is the caller's (an index into its own table). */
export interface KeywordPattern {
  text: string;
  caseSensitive: boolean;
  wholeWords: boolean;
  id: number;
}

/** A keyword found: its id and where it starts (a UTF-16 index into the scanned text). */
export interface KeywordHit {
  id: number;
  start: number;
}

const ROOT = 0;

// Folded code units: lower case when that is one unit, else the unit itself.
let foldTable: Uint16Array | null = null;
function folds(): Uint16Array {
  if (foldTable) return foldTable;
  const table = new Uint16Array(65536);
  for (let c = 0; c < 65536; c++) {
    if (c >= 0xd800 && c <= 0xdfff) {
      table[c] = c;
      continue;
    }
    const lower = String.fromCharCode(c).toLowerCase();
    table[c] = lower.length === 1 ? lower.charCodeAt(0) : c;
  }
  foldTable = table;
  return table;
}

// 1 for letters and digits of spaced scripts (words there are bounded by spaces and punctuation).
let wordTable: Uint8Array | null = null;
function spacedWordUnits(): Uint8Array {
  if (wordTable) return wordTable;
  const table = new Uint8Array(65536);
  const letterOrDigit = /[\p{L}\p{N}\p{M}_]/u;
  const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}\p{Script=Bopomofo}\p{Script=Yi}]/u;
  for (let c = 0; c < 65536; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const ch = String.fromCharCode(c);
    if (letterOrDigit.test(ch) && !unspaced.test(ch)) table[c] = 1;
  }
  wordTable = table;
  return table;
}

/** Folds a string the way the matcher does (one unit for one unit). */
export function foldCase(text: string): string {
  const table = folds();
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(table[text.charCodeAt(i)]);
  return out;
}

/** Whether a code unit is a letter or digit of a spaced script (a whole-word boundary applies next to it). */
export function isSpacedWordUnit(code: number): boolean {
  return spacedWordUnits()[code] === 1;
}

/**
 * A compiled set of keywords. Build once per lore version; `scan` is then linear in the text scanned
 * (plus the hits).
 */
export class KeywordMatcher {
  // The trie's edges: (state * 65536 + folded code unit) -> state.
  private readonly edges = new Map<number, number>();
  private readonly fail: number[] = [0];
  // The patterns ending at each state, and the nearest shorter state (by failure links) that has some.
  private readonly outputs: (number[] | undefined)[] = [undefined];
  private readonly outputLink: number[] = [-1];
  private readonly patterns: KeywordPattern[];
  private readonly lengths: number[];
  private readonly sensitiveText: string[];
  readonly size: number;

  constructor(patterns: KeywordPattern[]) {
    const table = folds();
    this.patterns = patterns.filter((p) => p.text.length > 0);
    this.size = this.patterns.length;
    this.lengths = this.patterns.map((p) => p.text.length);
    this.sensitiveText = this.patterns.map((p) => p.text);
    let states = 1;
    this.patterns.forEach((p, index) => {
      let state = ROOT;
      for (let i = 0; i < p.text.length; i++) {
        const key = state * 65536 + table[p.text.charCodeAt(i)];
        let next = this.edges.get(key);
        if (next === undefined) {
          next = states++;
          this.edges.set(key, next);
          this.fail.push(0);
          this.outputs.push(undefined);
          this.outputLink.push(-1);
        }
        state = next;
      }
      (this.outputs[state] ??= []).push(index);
    });
    this.link(states);
  }

  // Breadth-first failure links over the trie (edges grouped by their source state first).
  private link(states: number): void {
    const children: number[][] = Array.from({ length: states }, () => []);
    const labels: number[][] = Array.from({ length: states }, () => []);
    for (const [key, to] of this.edges) {
      const from = Math.floor(key / 65536);
      children[from].push(to);
      labels[from].push(key - from * 65536);
    }
    const queue: number[] = [];
    for (const child of children[ROOT]) {
      this.fail[child] = ROOT;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      const kids = children[state];
      for (let k = 0; k < kids.length; k++) {
        const child = kids[k];
        const unit = labels[state][k];
        let f = this.fail[state];
        let target = this.edges.get(f * 65536 + unit);
        while (target === undefined && f !== ROOT) {
          f = this.fail[f];
          target = this.edges.get(f * 65536 + unit);
        }
        this.fail[child] = target !== undefined && target !== child ? target : ROOT;
        const failTo = this.fail[child];
        this.outputLink[child] = this.outputs[failTo] ? failTo : this.outputLink[failTo];
        queue.push(child);
      }
    }
  }

  /**
   * Calls `onHit` for every keyword occurrence in text[from, to) that passes its case and word rules
   * (boundaries are judged against the whole text, so a window cut mid-word does not make a word).
   */
  scan(text: string, onHit: (hit: KeywordHit) => void, from = 0, to = text.length): void {
    if (this.size === 0 || from >= to) return;
    const table = folds();
    const words = spacedWordUnits();
    let state = ROOT;
    for (let i = from; i < to; i++) {
      const unit = table[text.charCodeAt(i)];
      let next = this.edges.get(state * 65536 + unit);
      while (next === undefined && state !== ROOT) {
        state = this.fail[state];
        next = this.edges.get(state * 65536 + unit);
      }
      state = next ?? ROOT;
      for (let s = this.outputs[state] ? state : this.outputLink[state]; s > 0; s = this.outputLink[s]) {
        for (const index of this.outputs[s]!) {
          const start = i + 1 - this.lengths[index];
          if (start < from) continue;
          const p = this.patterns[index];
          if (p.caseSensitive && !text.startsWith(this.sensitiveText[index], start)) continue;
          if (p.wholeWords && !onWordEdges(text, start, i + 1, words)) continue;
          onHit({ id: p.id, start });
        }
      }
    }
  }
}

// A keyword edge that is a spaced-script letter or digit must not continue a word in the text.
function onWordEdges(text: string, start: number, end: number, words: Uint8Array): boolean {
  if (words[text.charCodeAt(start)] && start > 0 && words[text.charCodeAt(start - 1)]) return false;
  if (words[text.charCodeAt(end - 1)] && end < text.length && words[text.charCodeAt(end)]) return false;
  return true;
}
