import { ErrorCode } from '@taleloom/contracts';
import * as mammoth from 'mammoth';
import * as yauzl from 'yauzl';
import { AppException } from '../../common/app-exception';
import { parseFailed } from './parse-error';

/** A docx may unpack to at most this many bytes in all; more is refused before parsing. */
export const DOCX_MAX_UNCOMPRESSED_BYTES = 100 * 1024 * 1024;
const DOCX_MAX_ENTRIES = 5000;

/**
 * Checks a .docx's zip before anything inflates it: the central directory's declared sizes must add up
 * to at most the limit, and every entry is then streamed with yauzl's size validation, so an entry that
 * lies about its size is caught while inflating (and stopped at the limit) instead of in mammoth.
 * Returns true when the zip holds word/document.xml (i.e. is a Word document).
 */
export async function checkDocxZip(buf: Buffer): Promise<boolean> {
  const zip = await open(buf);
  try {
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push(entry);
        declared += entry.uncompressedSize;
        if (entries.length > DOCX_MAX_ENTRIES) return reject(parseFailed('docx has too many entries'));
        if (declared > DOCX_MAX_UNCOMPRESSED_BYTES) return reject(tooLarge());
        zip.readEntry();
      });
      zip.on('end', resolve);
      zip.on('error', (err: Error) => reject(parseFailed(`docx zip is damaged: ${err.message}`)));
      zip.readEntry();
    });
    if (!entries.some((e) => e.fileName === 'word/document.xml')) return false;
    let inflated = 0;
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      inflated += await drain(zip, entry, DOCX_MAX_UNCOMPRESSED_BYTES - inflated);
    }
    return true;
  } finally {
    zip.close();
  }
}

/** Text of a checked .docx: one line per paragraph, as the exporter writes them. */
export async function docxToText(buf: Buffer): Promise<string> {
  let raw: string;
  try {
    raw = (await mammoth.extractRawText({ buffer: buf })).value;
  } catch (err) {
    throw parseFailed(`docx could not be read: ${(err as Error).message}`);
  }
  // mammoth ends every paragraph with a blank line; one newline per paragraph is what was written.
  return raw.replace(/\n\n/g, '\n').replace(/\n+$/, '');
}

function tooLarge(): AppException {
  return new AppException(ErrorCode.FILE_CONTENT_TOO_LARGE, undefined, {
    limit: DOCX_MAX_UNCOMPRESSED_BYTES / 1024 / 1024,
  });
}

function open(buf: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) reject(parseFailed(`docx zip is damaged: ${err?.message ?? 'unknown'}`));
      else resolve(zip);
    });
  });
}

function drain(zip: yauzl.ZipFile, entry: yauzl.Entry, budget: number): Promise<number> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(parseFailed(`docx entry ${entry.fileName} is damaged`));
      let n = 0;
      stream.on('data', (chunk: Buffer) => {
        n += chunk.length;
        if (n > budget) {
          stream.destroy();
          reject(tooLarge());
        }
      });
      stream.on('error', (e: Error) => reject(parseFailed(`docx entry ${entry.fileName} is damaged: ${e.message}`)));
      stream.on('end', () => resolve(n));
    });
  });
}
