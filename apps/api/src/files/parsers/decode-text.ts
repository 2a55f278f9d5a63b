import { analyse } from 'chardet';
import * as iconv from 'iconv-lite';

export interface DecodedText {
  text: string;
  encoding: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a text file: a BOM wins; then UTF-16 without BOM (zero bytes in every other place);
 * then strict UTF-8; then UTF-16 without BOM of CJK text (when its code units are almost all CJK
 * characters, kana, punctuation or ASCII) and the legacy encodings (those the detector, chardet,
 * names, and the East Asian ones) that read the bytes without an invalid sequence compete on how
 * natural their text is (Big5 read as Big5-HKSCS, its superset; GB2312/GBK as GB18030).
 * Returns null when the bytes are not text at all.
 */
export function decodeText(buf: Buffer): DecodedText | null {
  let decoded: DecodedText;
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    decoded = { text: buf.subarray(3).toString('utf8'), encoding: 'UTF-8' };
  } else if (buf[0] === 0xff && buf[1] === 0xfe) {
    decoded = { text: iconv.decode(buf.subarray(2), 'utf16le'), encoding: 'UTF-16LE' };
  } else if (buf[0] === 0xfe && buf[1] === 0xff) {
    decoded = { text: iconv.decode(buf.subarray(2), 'utf16be'), encoding: 'UTF-16BE' };
  } else {
    const utf16 = guessUtf16(buf);
    if (utf16) decoded = { text: iconv.decode(buf, utf16 === 'UTF-16LE' ? 'utf16le' : 'utf16be'), encoding: utf16 };
    else decoded = decodeWithoutBom(buf);
  }
  return looksLikeText(decoded.text) ? decoded : null;
}

function decodeWithoutBom(buf: Buffer): DecodedText {
  try {
    return { text: utf8.decode(buf), encoding: 'UTF-8' };
  } catch {
    // not UTF-8
  }
  // The sample is cut on an even byte, so UTF-16 reads it whole.
  const sample = buf.subarray(0, 64 * 1024);
  // A short text fools the detector: its candidates, the East Asian encodings and (when its code
  // units look like CJK text) UTF-16 compete.
  const utf16 = cjkUtf16(buf);
  const named = [
    ...(utf16 ? [utf16] : []),
    ...new Set([...analyse(sample).map((c) => c.name), ...EAST_ASIAN].filter((name) => !name.startsWith('UTF') && iconv.encodingExists(READ_AS[name] ?? name))),
  ];
  let best: { name: string; score: number } | null = null;
  for (const name of named) {
    const text = iconv.decode(sample, READ_AS[name] ?? name);
    // Invalid sequences decode to U+FFFD; a truncated last character at the sample's end is allowed.
    if (text.slice(0, -1).includes('\uFFFD')) continue;
    const score = naturalness(text);
    // A tie goes to the one the detector ranked higher.
    if (!best || score > best.score + 0.005) best = { name, score };
  }
  if (best) return { text: iconv.decode(buf, READ_AS[best.name] ?? best.name), encoding: best.name };
  return { text: iconv.decode(buf, 'gb18030'), encoding: 'GB18030' };
}

const EAST_ASIAN = ['GB18030', 'Big5', 'Shift_JIS', 'EUC-JP', 'EUC-KR'];

// What an encoding the detector names is read as: its superset (every file in it reads the same).
const READ_AS: Record<string, string> = { Big5: 'big5hkscs', GB2312: 'gb18030', GBK: 'gb18030', 'UTF-16LE': 'utf16le', 'UTF-16BE': 'utf16be' };

// The frequent ideographs: GB2312's first level and Big5's frequent ones (built once, on first use).
let frequent: Set<string> | null = null;
function frequentIdeographs(): Set<string> {
  if (frequent) return frequent;
  const set = new Set<string>();
  const add = (encoding: string, leads: [number, number], trails: [number, number][]) => {
    for (let lead = leads[0]; lead <= leads[1]; lead++) {
      for (const [from, to] of trails) for (let trail = from; trail <= to; trail++) set.add(iconv.decode(Buffer.from([lead, trail]), encoding));
    }
  };
  add('gb2312', [0xb0, 0xd7], [[0xa1, 0xfe]]);
  add('big5', [0xa4, 0xc5], [[0x40, 0x7e], [0xa1, 0xfe]]);
  set.delete('\uFFFD');
  frequent = set;
  return set;
}

// The share of a text's characters (besides white space) that common text is made of: ASCII,
// punctuation, kana, frequent ideographs, and Hangul syllables in text that puts spaces between
// words (as Korean does; Chinese read as Korean does not). Text read in the wrong encoding is full
// of rare ideographs instead.
function naturalness(text: string): number {
  const common = frequentIdeographs();
  const spaced = (text.match(/ /g)?.length ?? 0) >= text.length * 0.05;
  let good = 0;
  let all = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c <= 0x20) continue;
    all++;
    const hangul = c >= 0xac00 && c <= 0xd7a3;
    if (c < 0x7f || (c >= 0x3000 && c <= 0x30ff) || (c >= 0xff00 && c <= 0xffef) || (c >= 0x2000 && c <= 0x206f) || (hangul && spaced) || common.has(ch)) good++;
  }
  return all === 0 ? 0 : good / all;
}

// The code units CJK text in UTF-16 is made of: CJK ideographs (with extension A and the
// compatibility block), kana, CJK and full-width punctuation, general punctuation, ASCII.
function plausibleCjkUnit(u: number): boolean {
  return (
    (u >= 0x4e00 && u <= 0x9fff) || (u >= 0x3400 && u <= 0x4dbf) || (u >= 0xf900 && u <= 0xfaff) ||
    (u >= 0x3000 && u <= 0x30ff) || (u >= 0xff00 && u <= 0xffef) || (u >= 0x2000 && u <= 0x206f) ||
    (u >= 0x20 && u < 0x7f) || u === 0x0a || u === 0x0d || u === 0x09
  );
}

// UTF-16 without BOM of CJK text: at least 97% of the code units (of either byte order) are ones
// CJK text is made of. Legacy double-byte encodings read as UTF-16 give units mostly outside them.
function cjkUtf16(buf: Buffer): 'UTF-16LE' | 'UTF-16BE' | null {
  if (buf.length % 2 !== 0 || buf.length < 4) return null;
  const n = Math.min(buf.length, 64 * 1024);
  let le = 0;
  let be = 0;
  for (let i = 0; i < n; i += 2) {
    if (plausibleCjkUnit(buf[i] | (buf[i + 1] << 8))) le++;
    if (plausibleCjkUnit((buf[i] << 8) | buf[i + 1])) be++;
  }
  const units = n / 2;
  if (le >= units * 0.97 && le > be) return 'UTF-16LE';
  if (be >= units * 0.97 && be > le) return 'UTF-16BE';
  return null;
}

// Text without a BOM whose even or odd bytes are mostly zero is UTF-16 (Latin-heavy text).
function guessUtf16(buf: Buffer): 'UTF-16LE' | 'UTF-16BE' | null {
  const n = Math.min(buf.length - (buf.length % 2), 4096);
  if (n < 16) return null; // too short to tell from text that happens to hold a zero byte
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (buf[i] === 0) evenZeros++;
    if (buf[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.3 && evenZeros < pairs * 0.05) return 'UTF-16LE';
  if (evenZeros > pairs * 0.3 && oddZeros < pairs * 0.05) return 'UTF-16BE';
  return null;
}

// Control characters other than tab, line feed, form feed and carriage return mean binary data.
function looksLikeText(text: string): boolean {
  const sample = text.slice(0, 64 * 1024);
  if (sample.length === 0) return true;
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return false;
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13) || c === 0x7f || c === 0xfffd) bad++;
  }
  return bad <= sample.length * 0.01;
}
