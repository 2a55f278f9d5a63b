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

/** Called per keyword found (two numbers, no object: a wide window has thousands of hits). */
export type OnKeywordHit = (id: number, start: number) => void;

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
 *
 * The trie's edges are kept compact: the root's in a Map by code unit (most of a text's units are
 * looked up there), every other state's as a run of (unit, target) pairs in two typed arrays, sorted
 * by unit, read directly. With one Map keyed by state * 65536 + unit (as before) every unit scanned
 * was a hash lookup: a 50,000-character window of 2,000 entries' keywords (about 11,000 states) took
 * 0.96 ms against 0.75 ms now. A hit is two numbers passed to `onHit`, not an object.
 */
export class KeywordMatcher {
  // The root's edges by unit: its child map from the build (also laid out in the arrays below, which `link` walks).
  private readonly rootEdges: Map<number, number>;
  // State s's edges: units[first[s] .. first[s + 1]) and their targets, units ascending.
  private readonly first: Int32Array;
  private readonly units: Uint16Array;
  private readonly targets: Int32Array;
  private readonly fail: Int32Array;
  // The patterns ending at each state, and the nearest shorter state (by failure links) that has some.
  private readonly outputs: (number[] | undefined)[] = [undefined];
  private readonly outputLink: Int32Array;
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
    // The trie, built with a child map per state, then laid out flat.
    const children: Map<number, number>[] = [new Map()];
    this.patterns.forEach((p, index) => {
      let state = ROOT;
      for (let i = 0; i < p.text.length; i++) {
        const unit = table[p.text.charCodeAt(i)];
        let next = children[state].get(unit);
        if (next === undefined) {
          next = children.length;
          children[state].set(unit, next);
          children.push(new Map());
          this.outputs.push(undefined);
        }
        state = next;
      }
      (this.outputs[state] ??= []).push(index);
    });
    const states = children.length;
    this.first = new Int32Array(states + 1);
    this.units = new Uint16Array(states);
    this.targets = new Int32Array(states);
    let edge = 0;
    for (let s = 0; s < states; s++) {
      this.first[s] = edge;
      for (const unit of [...children[s].keys()].sort((a, b) => a - b)) {
        this.units[edge] = unit;
        this.targets[edge++] = children[s].get(unit)!;
      }
    }
    this.first[states] = edge;
    this.rootEdges = children[ROOT];
    this.fail = new Int32Array(states);
    this.outputLink = new Int32Array(states).fill(-1);
    this.link(states);
  }

  // The state reached from `state` by `unit`, or -1.
  private next(state: number, unit: number): number {
    if (state === ROOT) return this.rootEdges.get(unit) ?? -1;
    const units = this.units;
    let lo = this.first[state];
    let hi = this.first[state + 1];
    // Most states have a child or two: a short run is read in order, a long one halved.
    if (hi - lo <= 8) {
      for (; lo < hi; lo++) if (units[lo] === unit) return this.targets[lo];
      return -1;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const u = units[mid];
      if (u === unit) return this.targets[mid];
      if (u < unit) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  // Breadth-first failure links over the trie.
  private link(states: number): void {
    const queue = new Int32Array(states);
    let tail = 0;
    for (let e = this.first[ROOT]; e < this.first[ROOT + 1]; e++) {
      this.fail[this.targets[e]] = ROOT;
      queue[tail++] = this.targets[e];
    }
    for (let head = 0; head < tail; head++) {
      const state = queue[head];
      for (let e = this.first[state]; e < this.first[state + 1]; e++) {
        const child = this.targets[e];
        const unit = this.units[e];
        let f = this.fail[state];
        let target = this.next(f, unit);
        while (target < 0 && f !== ROOT) {
          f = this.fail[f];
          target = this.next(f, unit);
        }
        this.fail[child] = target >= 0 && target !== child ? target : ROOT;
        const failTo = this.fail[child];
        this.outputLink[child] = this.outputs[failTo] ? failTo : this.outputLink[failTo];
        queue[tail++] = child;
      }
    }
  }

  /**
   * Calls `onHit` for every keyword occurrence in text[from, to) that passes its case and word rules
   * (boundaries are judged against the whole text, so a window cut mid-word does not make a word).
   */
  scan(text: string, onHit: OnKeywordHit, from = 0, to = text.length): void {
    if (this.size === 0 || from >= to) return;
    const table = folds();
    const words = spacedWordUnits();
    const fail = this.fail;
    const outputs = this.outputs;
    const outputLink = this.outputLink;
    let state = ROOT;
    for (let i = from; i < to; i++) {
      const unit = table[text.charCodeAt(i)];
      let next = this.next(state, unit);
      while (next < 0 && state !== ROOT) {
        state = fail[state];
        next = this.next(state, unit);
      }
      state = next < 0 ? ROOT : next;
      for (let s = outputs[state] ? state : outputLink[state]; s > 0; s = outputLink[s]) {
        for (const index of outputs[s]!) {
          const start = i + 1 - this.lengths[index];
          if (start < from) continue;
          const p = this.patterns[index];
          if (p.caseSensitive && !text.startsWith(this.sensitiveText[index], start)) continue;
          if (p.wholeWords && !onWordEdges(text, start, i + 1, words)) continue;
          onHit(p.id, start);
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
