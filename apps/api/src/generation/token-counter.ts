import { decode, encode } from './tokenizer';

/** Where the newest text that fits a budget begins, and what it costs. */
export interface TailFit {
  start: number;
  tokens: number;
}

/**
 * Token counting with a real tokenizer (gpt-tokenizer, o200k_base) that stays fast on long texts.
 * Text is cut into fixed chunks aligned from its start, so a story that grows by appends keeps the
 * same chunks, and each chunk's count is cached: assembling a prompt tokenizes only new chunks and
 * never more of the text than the window that fits. A sum over chunks can exceed the true count by
 * about one token per chunk boundary (never less in practice), which errs on the safe side.
 */
export class TokenCounter {
  private readonly cache = new Map<string, number>();

  constructor(
    readonly chunkChars = 2048,
    private readonly maxEntries = 20_000,
  ) {}

  /** Tokens in `text` (cached per chunk). */
  count(text: string): number {
    let total = 0;
    for (let i = 0; i < text.length; i += this.chunkChars) total += this.chunk(text.slice(i, i + this.chunkChars));
    return total;
  }

  /**
   * The longest tail of `text` (from `floor` on) that fits `budget` tokens, cut at a word or line
   * boundary. Walks chunks from the end; only the chunk where the budget runs out is encoded anew.
   */
  tailThatFits(text: string, budget: number, floor = 0): TailFit {
    if (budget <= 0 || text.length <= floor) return { start: text.length, tokens: 0 };
    let used = 0;
    const lastChunk = Math.floor((text.length - 1) / this.chunkChars);
    for (let k = lastChunk; k >= 0; k--) {
      const from = Math.max(k * this.chunkChars, floor);
      const to = Math.min((k + 1) * this.chunkChars, text.length);
      if (from >= to) break;
      const piece = text.slice(from, to);
      // A chunk cut by the floor is not one of the aligned chunks: count it without caching.
      const cost = from === k * this.chunkChars ? this.chunk(piece) : encode(piece).length;
      if (used + cost <= budget) {
        used += cost;
        if (from === floor) return { start: floor, tokens: used };
        continue;
      }
      const room = budget - used;
      if (room <= 0) return { start: to, tokens: used };
      const tokens = encode(piece);
      const kept = decode(tokens.slice(tokens.length - room));
      let start = to - kept.length;
      start = snapForward(text, Math.max(start, from), text.length);
      return { start, tokens: used + Math.min(room, tokens.length) };
    }
    return { start: floor, tokens: used };
  }

  private chunk(piece: string): number {
    const hit = this.cache.get(piece);
    if (hit !== undefined) return hit;
    const n = encode(piece).length;
    if (this.cache.size >= this.maxEntries) {
      // Drop the oldest quarter (Map keeps insertion order).
      let drop = this.maxEntries >> 2;
      for (const key of this.cache.keys()) {
        this.cache.delete(key);
        if (--drop <= 0) break;
      }
    }
    this.cache.set(ownCopy(piece), n);
    return n;
  }
}

// A chunk is a slice of its text, and V8 keeps a slice as a view of the whole string: kept as a key, it
// would keep every version of a long story alive (a 1,000,000-character story sent 60 times: 76 MB).
// The key is a string of its own (JSON's round trip is exact, lone surrogates included); made only on a miss.
function ownCopy(piece: string): string {
  return JSON.parse(JSON.stringify(piece)) as string;
}

// Start the kept text at a line, sentence or word boundary when one is near; never past `limit`.
function snapForward(text: string, start: number, limit: number): number {
  if (start === 0 || /\s/.test(text[start - 1] ?? '')) return start;
  const window = text.slice(start, Math.min(limit, start + 200));
  const m = /\n|[.!?。！？…]\s*|\s/.exec(window);
  return m ? start + m.index + m[0].length : start;
}

/** One counter for the process: its cache is what keeps long stories fast. */
export const sharedTokenCounter = new TokenCounter();
