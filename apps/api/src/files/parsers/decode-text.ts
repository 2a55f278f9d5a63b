import { analyse } from 'chardet';
import * as iconv from 'iconv-lite';

export interface DecodedText {
  text: string;
  encoding: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a text file: a BOM wins; then UTF-16 without BOM (zero bytes in every other place);
 * then strict UTF-8; then the detector (chardet), preferring GB18030 (a superset of GBK/GB2312)
 * when the bytes are valid GB18030, since non-UTF-8 text here is most often Chinese.
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
    // not UTF-8: ask the detector
  }
  const sample = buf.subarray(0, 64 * 1024);
  const candidates = analyse(sample);
  if (candidates.some((c) => c.name === 'GB18030') && decodesCleanly(sample, 'gb18030')) {
    return { text: iconv.decode(buf, 'gb18030'), encoding: 'GB18030' };
  }
  const best = candidates.find((c) => iconv.encodingExists(c.name) && c.name !== 'UTF-8');
  if (best) return { text: iconv.decode(buf, best.name), encoding: best.name };
  return { text: iconv.decode(buf, 'gb18030'), encoding: 'GB18030' };
}

// Invalid sequences decode to U+FFFD; a truncated last character at the sample's end is allowed.
function decodesCleanly(sample: Buffer, encoding: string): boolean {
  const text = iconv.decode(sample, encoding);
  const bad = text.slice(0, -1).split('\uFFFD').length - 1;
  return bad === 0;
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
