import { charCount } from '@taleloom/contracts';

/** Longest snippet kept for lists. */
export const SNIPPET_MAX_LENGTH = 120;

export interface TextSnippets {
  firstLine: string;
  lastLine: string;
  charCount: number;
}

/**
 * The first and last non-empty lines of a text, shortened, and its length in characters (lines as
 * `text.split(/\r?\n/)` cuts them, trimmed; no last line when only one is not empty). Found from each
 * end of the text, not by splitting all of it: every accepted turn of a long story is snipped again.
 */
export function textSnippets(text: string): TextSnippets {
  // The first non-empty line from the start: its trimmed text and where it starts.
  let firstAt = -1;
  let first = '';
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end).trim();
    if (line) {
      firstAt = start;
      first = line;
      break;
    }
    if (end < 0) break;
    start = end + 1;
  }
  // The last non-empty line from the end, if it is not that one.
  let last = '';
  for (let end = text.length; firstAt >= 0 && end > firstAt; ) {
    const cut = text.lastIndexOf('\n', end - 1);
    const start = cut + 1;
    if (start <= firstAt) break;
    const line = text.slice(start, end).trim();
    if (line) {
      last = line;
      break;
    }
    end = cut;
  }
  return {
    firstLine: [...first].slice(0, SNIPPET_MAX_LENGTH).join(''),
    // The end of the last line is what shows where the story stands.
    lastLine: [...last].slice(-SNIPPET_MAX_LENGTH).join(''),
    charCount: charCount(text),
  };
}

/** A user's search text as a literal, case-insensitive "contains" pattern. */
export function containsPattern(search: string): RegExp {
  return new RegExp(search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

/** Rounded to 2 decimals. */
export const round2 = (n: number) => Math.round(n * 100) / 100;

// The stand-in's file storage hands dates back as ISO strings.
export const toSeconds = (d: Date | string | null | undefined) => (d ? Math.floor(new Date(d).getTime() / 1000) : 0);
