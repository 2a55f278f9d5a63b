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
 * The keywords' folded units are numbered 1..A (their alphabet; 0 is every other unit) and looked up
 * in a two-level table of 256-unit pages: a unit no keyword has sends the scan back to the root in one
 * step. The root's edges are a full row by letter; every other state's are a run of (letter, target)
 * pairs in two typed arrays, sorted by letter, read directly. A hit is two numbers passed to `onHit`,
 * not an object. Over a 50,000-character window of 2,000 entries' keywords (about 11,000 states, Latin
 * and Chinese) this took the lore's activation (bench:lore) from 6.6-7.2 to 3.5-3.9 ms, with the
 * measurements remembered per entry (lore-activation.ts) and the window read through a slice.
 * Full rows for more of the shallow states (16 cells a state) measured the same.
 */
export class KeywordMatcher {
  // Folded unit -> letter (1..A, 0 for none): page offsets by the unit's high byte, then the cells.
  private readonly pageOf: Int32Array;
  private readonly letters: Uint16Array;
  // The root's edges by letter (0, the root itself, where it has none).
  private readonly rootRow: Int32Array;
  // State s's edges: edgeLetter[first[s] .. first[s + 1]) and their targets, letters ascending.
  private readonly first: Int32Array;
  private readonly edgeLetter: Uint16Array;
  private readonly targets: Int32Array;
  private readonly fail: Int32Array;
  // The patterns ending at each state; the nearest shorter state (by failure links) that has some; and
  // the first state to report from (the state itself or that link, -1 for none).
  private readonly outputs: (number[] | undefined)[];
  private readonly outputLink: Int32Array;
  private readonly report: Int32Array;
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

    // The alphabet: every folded unit of a keyword, numbered from 1.
    const letterOf = new Map<number, number>();
    for (const p of this.patterns) {
      for (let i = 0; i < p.text.length; i++) {
        const unit = table[p.text.charCodeAt(i)];
        if (!letterOf.has(unit)) letterOf.set(unit, letterOf.size + 1);
      }
    }
    const pages = new Map<number, number>();
    for (const unit of letterOf.keys()) if (!pages.has(unit >>> 8)) pages.set(unit >>> 8, (pages.size + 1) * 256);
    // Page 0 of the cells is all zeros: every page no keyword uses points there.
    this.pageOf = new Int32Array(256);
    for (const [page, offset] of pages) this.pageOf[page] = offset;
    this.letters = new Uint16Array((pages.size + 1) * 256);
    for (const [unit, letter] of letterOf) this.letters[this.pageOf[unit >>> 8] + (unit & 255)] = letter;

    // The trie, with a child map per state in the order states are made.
    const children: Map<number, number>[] = [new Map()];
    const ends: (number[] | undefined)[] = [undefined];
    this.patterns.forEach((p, index) => {
      let state = ROOT;
      for (let i = 0; i < p.text.length; i++) {
        const letter = letterOf.get(table[p.text.charCodeAt(i)])!;
        let next = children[state].get(letter);
        if (next === undefined) {
          next = children.length;
          children[state].set(letter, next);
          children.push(new Map());
          ends.push(undefined);
        }
        state = next;
      }
      (ends[state] ??= []).push(index);
    });

    // Numbered again breadth-first (children by letter), laid out flat.
    const states = children.length;
    const order = new Int32Array(states);
    const renumbered = new Int32Array(states);
    let tail = 1;
    for (let head = 0; head < tail; head++) {
      for (const letter of [...children[order[head]].keys()].sort((a, b) => a - b)) {
        const child = children[order[head]].get(letter)!;
        renumbered[child] = tail;
        order[tail++] = child;
      }
    }
    this.first = new Int32Array(states + 1);
    this.edgeLetter = new Uint16Array(Math.max(0, states - 1));
    this.targets = new Int32Array(Math.max(0, states - 1));
    this.outputs = new Array<number[] | undefined>(states);
    let edge = 0;
    for (let s = 0; s < states; s++) {
      const old = order[s];
      this.first[s] = edge;
      this.outputs[s] = ends[old];
      for (const letter of [...children[old].keys()].sort((a, b) => a - b)) {
        this.edgeLetter[edge] = letter;
        this.targets[edge++] = renumbered[children[old].get(letter)!];
      }
    }
    this.first[states] = edge;

    this.fail = new Int32Array(states);
    this.outputLink = new Int32Array(states).fill(-1);
    // Breadth-first order is the states' own: a failure link always points to a smaller number.
    for (let state = 0; state < states; state++) {
      for (let e = this.first[state]; e < this.first[state + 1]; e++) {
        const child = this.targets[e];
        let failTo = ROOT;
        if (state !== ROOT) {
          let f = this.fail[state];
          let target = this.edge(f, this.edgeLetter[e]);
          while (target < 0 && f !== ROOT) {
            f = this.fail[f];
            target = this.edge(f, this.edgeLetter[e]);
          }
          if (target >= 0) failTo = target;
        }
        this.fail[child] = failTo;
        this.outputLink[child] = this.outputs[failTo] ? failTo : this.outputLink[failTo];
      }
    }
    this.report = new Int32Array(states);
    for (let s = 0; s < states; s++) this.report[s] = this.outputs[s] ? s : this.outputLink[s];

    this.rootRow = new Int32Array(letterOf.size + 1);
    for (let e = this.first[ROOT]; e < this.first[ROOT + 1]; e++) this.rootRow[this.edgeLetter[e]] = this.targets[e];
  }

  // The state reached from `state` by its own edge for `letter`, or -1.
  private edge(state: number, letter: number): number {
    const letters = this.edgeLetter;
    let lo = this.first[state];
    let hi = this.first[state + 1];
    // Most states have a child or two: a short run is read in order, a long one halved.
    if (hi - lo <= 8) {
      for (; lo < hi; lo++) if (letters[lo] === letter) return this.targets[lo];
      return -1;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const l = letters[mid];
      if (l === letter) return this.targets[mid];
      if (l < letter) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /**
   * Calls `onHit` for every keyword occurrence in text[from, to) that passes its case and word rules
   * (boundaries are judged against the whole text, so a window cut mid-word does not make a word).
   */
  scan(text: string, onHit: OnKeywordHit, from = 0, to = text.length): void {
    if (this.size === 0 || from >= to) return;
    // The window (and one unit either side, for word edges) read through a slice: a story grown by
    // appends is a concatenation that V8 reads through an indirection at every unit, a slice of it not
    // (a 50,000-unit window of such a text: 2.6 against 1.6 ms).
    const base = from > 0 ? from - 1 : 0;
    const view = text.slice(base, Math.min(text.length, to + 1));
    this.scanView(view, base, from - base, to - base, onHit);
  }

  private scanView(text: string, base: number, from: number, to: number, onHit: OnKeywordHit): void {
    const table = folds();
    const words = spacedWordUnits();
    const { pageOf, letters, rootRow, fail, outputs, outputLink, report } = this;
    let state = ROOT;
    for (let i = from; i < to; i++) {
      const unit = table[text.charCodeAt(i)];
      const letter = letters[pageOf[unit >>> 8] + (unit & 255)];
      if (letter === 0) {
        state = ROOT;
        continue;
      }
      // The state's own edge, else along failure links until one has it or the root is reached.
      let next = state === ROOT ? rootRow[letter] : this.edge(state, letter);
      while (next < 0) {
        state = fail[state];
        next = state === ROOT ? rootRow[letter] : this.edge(state, letter);
      }
      state = next;
      for (let s = report[state]; s > 0; s = outputLink[s]) {
        for (const index of outputs[s]!) {
          const start = i + 1 - this.lengths[index];
          if (start < from) continue;
          const p = this.patterns[index];
          if (p.caseSensitive && !text.startsWith(this.sensitiveText[index], start)) continue;
          if (p.wholeWords && !onWordEdges(text, start, i + 1, words)) continue;
          onHit(p.id, start + base);
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
