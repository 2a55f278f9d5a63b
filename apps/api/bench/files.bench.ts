/**
 * Files: export of a 1,000,000-character story to each format, and parse of a ~10 MB .docx and a
 * 10 MB .txt (GB18030, so the detector runs), through the same services the endpoints use.
 * Prints median times; never fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:files          (BENCH_RUNS=5 by default)
 */
import 'reflect-metadata';
import { EXPORT_FORMATS, UPLOAD_MAX_BYTES, type ExportFormat } from '@taleloom/contracts';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import * as iconv from 'iconv-lite';
import { performance } from 'node:perf_hooks';
import { ExportService } from '../src/files/export.service';
import { UploadParserService } from '../src/files/upload-parser.service';
import { record } from './support/report';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const STORY_CHARS = 1_000_000;

// Deterministic pseudo-random Chinese prose: common characters, punctuation, paragraphs of 60-300.
function story(chars: number, seed = 1): string {
  const common = '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明';
  const out: string[] = [];
  let n = 0;
  let s = seed;
  while (n < chars) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const len = Math.min(60 + (s % 240), chars - n);
    let p = '';
    for (let i = 0; i < len - 1; i++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      p += i % 17 === 16 ? '，' : common[s % common.length];
    }
    out.push(p + '。');
    n += len + 1;
  }
  return out.join('\n').slice(0, chars);
}

async function median(label: string, fn: () => Promise<unknown>): Promise<[string, number]> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const m = times[Math.floor(times.length / 2)];
  console.log(`${label.padEnd(44)} median ${m.toFixed(1).padStart(8)} ms  (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})`);
  record({ suite: 'files', measure: label, unit: 'ms', median: m, note: `${RUNS} runs, min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)}` });
  return [label, m];
}

async function docxOfAbout(bytes: number): Promise<Buffer> {
  const build = async (chars: number) => {
    const text = story(chars, 7);
    const doc = new Document({ sections: [{ children: text.split('\n').map((l) => new Paragraph({ children: [new TextRun(l)] })) }] });
    return Packer.toBuffer(doc);
  };
  const probe = await build(200_000);
  const chars = Math.floor((200_000 * bytes) / probe.length);
  let docx = await build(chars);
  if (docx.length > bytes) docx = await build(Math.floor((chars * bytes) / docx.length) - 1000);
  return docx;
}

export async function run(): Promise<void> {
  console.log(`files bench: ${RUNS} runs per case, Node ${process.version}`);
  const exporter = new ExportService();
  const parser = new UploadParserService();
  const content = story(STORY_CHARS);
  for (const format of EXPORT_FORMATS as readonly ExportFormat[]) {
    let size = 0;
    await median(`export 1,000,000 chars -> ${format}`, async () => {
      size = (await exporter.export({ content, format, name: 'bench' }, 'en')).body.length;
    });
    console.log(`${''.padEnd(44)} file ${(size / 1024 / 1024).toFixed(2)} MB`);
  }
  const docx = await docxOfAbout(UPLOAD_MAX_BYTES - 64 * 1024);
  let chars = 0;
  await median(`parse .docx of ${(docx.length / 1024 / 1024).toFixed(2)} MB`, async () => {
    chars = (await parser.parse({ originalname: 'big.docx', buffer: docx, size: docx.length }, 'en')).characters;
  });
  console.log(`${''.padEnd(44)} ${chars.toLocaleString('en')} characters`);
  const gb = iconv.encode(story(UPLOAD_MAX_BYTES / 2, 3), 'gb18030').subarray(0, UPLOAD_MAX_BYTES);
  await median(`parse .txt (GB18030) of ${(gb.length / 1024 / 1024).toFixed(2)} MB`, () =>
    parser.parse({ originalname: 'big.txt', buffer: gb, size: gb.length }, 'en'),
  );
  const utf8 = Buffer.from(story(UPLOAD_MAX_BYTES / 3, 5), 'utf8').subarray(0, UPLOAD_MAX_BYTES - 2);
  await median(`parse .txt (UTF-8) of ${(utf8.length / 1024 / 1024).toFixed(2)} MB`, () =>
    parser.parse({ originalname: 'big.txt', buffer: utf8, size: utf8.length }, 'en'),
  );
}

if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
