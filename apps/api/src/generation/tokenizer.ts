import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GptEncoding } from 'gpt-tokenizer/cjs/GptEncoding';

/** o200k_base's ranks as JSON, written beside the built module by `pnpm build` (scripts/token-ranks.cjs). */
const RANKS_FILE = join(__dirname, 'o200k_base.ranks.json');

type Ranks = (string | number[])[];

// No special token is recognised in the text (none allowed, none refused).
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The o200k_base tokenizer of gpt-tokenizer, as `import { encode, decode } from 'gpt-tokenizer'` gives it,
 * built from the same ranks read another way. The package ships them as a 2.4 MB JavaScript array
 * literal; compiling it left the API process about 20 MB more resident than reading the same array as
 * JSON (a burst benchmark's idle and peak RSS, same rounds), for the life of the process. So the build
 * writes them as JSON beside this module, and a process run from the sources (tests, `pnpm dev`) reads
 * the package's module as before.
 */
export function tokenizerFrom(ranksFile: string): { encode: (text: string) => number[]; decode: (tokens: number[]) => string } {
  const ranks = (): Ranks =>
    existsSync(ranksFile)
      ? (JSON.parse(readFileSync(ranksFile, 'utf8')) as Ranks)
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require('gpt-tokenizer/cjs/bpeRanks/o200k_base') as typeof import('gpt-tokenizer/cjs/bpeRanks/o200k_base')).default;
  const api = GptEncoding.getEncodingApi('o200k_base', ranks);
  // A story is plain text: "<|endoftext|>" or "<|im_start|>" typed or pasted into it (chat templates
  // are often pasted) is counted as the text it is, where the package's default throws on it.
  return { encode: (text) => api.encode(text, PLAIN_TEXT), decode: api.decode };
}

// Built on first use, not when the module loads: building the tables takes about 0.2 s (more in a
// test worker), which a process that never counts tokens (most test apps, a short-lived start) would pay for
// nothing. The server builds it a moment after it listens (`warmTokenizer` in main.ts), so no later send does.
let built: ReturnType<typeof tokenizerFrom> | undefined;
const tokenizer = (): ReturnType<typeof tokenizerFrom> => (built ??= tokenizerFrom(RANKS_FILE));

export const encode = (text: string): number[] => tokenizer().encode(text);
export const decode = (tokens: number[]): string => tokenizer().decode(tokens);

/** Builds the tokenizer now (if not built yet). */
export function warmTokenizer(): void {
  tokenizer();
}
