import { crc32 } from 'node:zlib';
import { parseFailed } from './parse-error';

/** A text chunk's keyword and value (tEXt is Latin-1, iTXt's uncompressed text is UTF-8). */
export interface PngText {
  keyword: string;
  text: string;
}

const MAX_CHUNKS = 10_000;
// A single chunk may not exceed this even if the file would hold it (the upload is 10 MB anyway).
const MAX_CHUNK_BYTES = 10 * 1024 * 1024;

/**
 * Walks a PNG's chunks with their CRCs checked and returns the text chunks.
 * A truncated file, a chunk longer than what is left or than the limit, a bad CRC,
 * or a missing IEND is a parse failure.
 */
export function readPngTextChunks(buf: Buffer): PngText[] {
  const texts: PngText[] = [];
  let pos = 8;
  let sawHeader = false;
  for (let count = 0; count < MAX_CHUNKS; count++) {
    if (pos + 12 > buf.length) throw parseFailed('PNG is truncated: a chunk header is cut off');
    const length = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw parseFailed(`PNG chunk type is not valid at byte ${pos}`);
    if (length > MAX_CHUNK_BYTES || length > 0x7fffffff) throw parseFailed(`PNG chunk ${type} is too large (${length} bytes)`);
    if (pos + 12 + length > buf.length) throw parseFailed(`PNG is truncated: chunk ${type} needs ${length} bytes`);
    const data = buf.subarray(pos + 8, pos + 8 + length);
    const stored = buf.readUInt32BE(pos + 8 + length);
    if (crc32(buf.subarray(pos + 4, pos + 8 + length)) !== stored) throw parseFailed(`PNG chunk ${type} has a bad CRC`);
    if (count === 0 && type !== 'IHDR') throw parseFailed('PNG does not start with IHDR');
    sawHeader = true;
    if (type === 'tEXt') texts.push(readText(data));
    if (type === 'iTXt') {
      const t = readInternationalText(data);
      if (t) texts.push(t);
    }
    pos += 12 + length;
    if (type === 'IEND') return texts;
  }
  throw parseFailed(sawHeader ? 'PNG has too many chunks or no IEND' : 'PNG has no chunks');
}

function readText(data: Buffer): PngText {
  const nul = data.indexOf(0);
  if (nul < 1 || nul > 79) throw parseFailed('PNG tEXt chunk has no keyword');
  return { keyword: data.toString('latin1', 0, nul), text: data.toString('latin1', nul + 1) };
}

// iTXt: keyword \0 compression-flag compression-method language \0 translated-keyword \0 text (UTF-8).
function readInternationalText(data: Buffer): PngText | null {
  const nul = data.indexOf(0);
  if (nul < 1 || nul + 3 > data.length) throw parseFailed('PNG iTXt chunk is malformed');
  if (data[nul + 1] !== 0) return null; // compressed iTXt: cards are never written that way
  const langEnd = data.indexOf(0, nul + 3);
  const transEnd = langEnd < 0 ? -1 : data.indexOf(0, langEnd + 1);
  if (transEnd < 0) throw parseFailed('PNG iTXt chunk is malformed');
  return { keyword: data.toString('latin1', 0, nul), text: data.toString('utf8', transEnd + 1) };
}
