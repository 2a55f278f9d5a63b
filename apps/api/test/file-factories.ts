import { Document, Packer, Paragraph, TextRun } from 'docx';
import * as iconv from 'iconv-lite';
import { PNG } from 'pngjs';
import * as yauzl from 'yauzl';
import { crc32, deflateRawSync } from 'node:zlib';
import { pngChunk } from './support/png-chunk';

export { pngChunk };

/** A real Word document made by the `docx` library, one paragraph per line. */
export async function makeDocx(lines: string[]): Promise<Buffer> {
  const doc = new Document({ sections: [{ children: lines.map((l) => new Paragraph({ children: [new TextRun(l)] })) }] });
  return Packer.toBuffer(doc);
}

/** A real 4x4 RGBA PNG from pngjs, with tEXt chunks put before IEND. */
export function makePng(texts: { keyword: string; text: string }[] = []): Buffer {
  const png = new PNG({ width: 4, height: 4 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([200, 120, 40, 255], i);
  const plain = PNG.sync.write(png);
  const iend = plain.length - 12;
  const chunks = texts.map((t) => pngChunk('tEXt', Buffer.concat([Buffer.from(t.keyword, 'latin1'), Buffer.from([0]), Buffer.from(t.text, 'latin1')])));
  return Buffer.concat([plain.subarray(0, iend), ...chunks, plain.subarray(iend)]);
}

/** Base64 of a card's UTF-8 JSON, as card editors write it. */
export const cardText = (card: object) => Buffer.from(JSON.stringify(card), 'utf8').toString('base64');

/** An RTF document the way Word/WordPad writes Chinese: \ansicpg936, a GB font, \'hh bytes, plus \uN. */
export function makeRtf(): Buffer {
  const hex = (s: string, cp: string) => [...iconv.encode(s, cp)].map((b) => `\\'${b.toString(16).padStart(2, '0')}`).join('');
  const rtf =
    '{\\rtf1\\ansi\\ansicpg936\\deff0\\deflang1033\\deflangfe2052' +
    '{\\fonttbl{\\f0\\fnil\\fcharset134 \\\'cb\\\'ce\\\'cc\\\'e5;}{\\f1\\fswiss\\fcharset0 Arial;}{\\f2\\froman\\fcharset204 Times;}}\r\n' +
    '{\\colortbl ;\\red255\\green0\\blue0;}\r\n{\\*\\generator Riched20 10.0.19041}{\\info{\\title Secret}}\\viewkind4\\uc1\r\n' +
    `\\pard\\f0\\fs24 ${hex('第一章 雨夜', 'cp936')}\\par\r\n` +
    `\\f1 Caf${hex('é', 'cp1252')} costs \\u8364? 5 \\{ok\\}\\par\r\n` +
    `\\f0\\uc2\\u26143\\'d0\\'c7\\u31354\\'bf\\'d5 ${hex('的', 'cp936')}\\uc1\\par\r\n` +
    `\\f2 ${hex('Привет', 'cp1251')}\\tab end\\par\r\n}`;
  return Buffer.from(rtf, 'latin1');
}

/** Every entry of a zip, inflated. */
export function unzip(buf: Buffer): Promise<{ name: string; data: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: { name: string; data: Buffer }[] = [];
      zip.on('entry', (e: yauzl.Entry) =>
        zip.openReadStream(e, (err2, s) => {
          if (err2 || !s) return reject(err2);
          const parts: Buffer[] = [];
          s.on('data', (d: Buffer) => parts.push(d));
          s.on('end', () => {
            out.push({ name: e.fileName, data: Buffer.concat(parts) });
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

/**
 * A minimal zip writer (deflate), enough to build docx variants: `declaredSize` lets an entry lie about
 * its uncompressed size, as a forged bomb does.
 */
export function zip(entries: { name: string; data: Buffer; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const packed = deflateRawSync(e.data);
    const crc = crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A small Windows-executable look-alike: MZ header, PE signature and binary noise. */
export function makeExecutable(): Buffer {
  const buf = Buffer.alloc(4096);
  buf.write('MZ', 0, 'latin1');
  buf.writeUInt32LE(0x80, 0x3c);
  buf.write('PE\0\0', 0x80, 'latin1');
  for (let i = 0x100; i < buf.length; i++) buf[i] = (i * 7919) % 256;
  return buf;
}
