import { charCount } from '@taleloom/contracts';

/** Longest snippet kept for lists. */
export const SNIPPET_MAX_LENGTH = 120;

export interface TextSnippets {
  firstLine: string;
  lastLine: string;
  charCount: number;
}

/** The first and last non-empty lines of a text, shortened, and its length in characters. */
export function textSnippets(text: string): TextSnippets {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  const last = lines.length > 1 ? lines[lines.length - 1] : '';
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
