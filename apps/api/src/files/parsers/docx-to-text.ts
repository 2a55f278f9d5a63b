import { ErrorCode } from '@taleloom/contracts';
import { Worker } from 'node:worker_threads';
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

/**
 * Text of a checked .docx: one line per paragraph, as the exporter writes them. mammoth runs in a worker
 * thread with its own memory cap and a time limit: a 10 MB document takes seconds of CPU, and the
 * server must keep answering other requests meanwhile.
 */
export async function docxToText(buf: Buffer): Promise<string> {
  const raw = await extractInWorker(buf);
  // mammoth ends every paragraph with a blank line; one newline per paragraph is what was written.
  return raw.replace(/\n\n/g, '\n').replace(/\n+$/, '');
}

const WORKER_TIMEOUT_MS = 60_000;
// Plain CommonJS evaluated in the worker, so it runs the same from dist/ and under the test transpiler.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const mammoth = require(${JSON.stringify(require.resolve('mammoth'))});
mammoth.extractRawText({ buffer: Buffer.from(workerData.buffer, workerData.offset, workerData.length) })
  .then((r) => parentPort.postMessage({ ok: true, text: r.value }))
  .catch((e) => parentPort.postMessage({ ok: false, error: String(e && e.message || e) }));
`;

function extractInWorker(buf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { buffer: buf.buffer, offset: buf.byteOffset, length: buf.length },
      resourceLimits: { maxOldGenerationSizeMb: 1536 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(parseFailed('docx took too long to read'));
    }, WORKER_TIMEOUT_MS);
    worker.once('message', (m: { ok: boolean; text?: string; error?: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (m.ok) resolve(m.text ?? '');
      else reject(parseFailed(`docx could not be read: ${m.error}`));
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(parseFailed(`docx could not be read: ${err.message}`));
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(parseFailed('docx could not be read'));
    });
  });
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
