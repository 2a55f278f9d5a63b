import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import {
  ErrorCode,
  UPLOAD_EXTENSIONS,
  type Language,
  type LoreBookInput,
  type UploadKind,
  type UploadParseData,
} from '@taleloom/contracts';
import { join } from 'node:path';
import { AppException } from '../common/app-exception';
import { WorkerThread } from '../common/worker-thread';
import { cardFromJson, cardLore, cardToText, readCharacterCard, type ParsedCard } from './parsers/character-card';
import { isLoreBookJson, loreBookFromJson } from './parsers/lore-book-json';
import { takeLoreBlocks } from './parsers/lore-blocks';
import { checkDocxZip, docxToText } from './parsers/docx-to-text';
import { sniffType } from './parsers/sniff-type';
import type { DecodedText } from './parsers/decode-text';
import { readText, type TextKind } from './parsers/read-text';
import type { TextJob } from './parsers/text.worker';

// Smaller files are read on the app's thread (an RTF of this size in about 20 ms): the text thread starts
// with the first larger one, in about 100 to 300 ms.
const THREAD_BYTES = 64 * 1024;

/** What a file's content turned out to hold, before its lore blocks are taken out. */
interface ParsedContent {
  content: string;
  kind: UploadKind;
  encoding?: string;
  card?: UploadParseData['card'];
  lore?: LoreBookInput | null;
}

export interface UploadedFile {
  originalname: string;
  buffer: Buffer;
  size: number;
}

/** Turns an uploaded manuscript or character card into text for the create screen. */
@Injectable()
export class UploadParserService implements OnApplicationShutdown {
  // RTF and text are read on a thread of their own (WorkerThread): on the app's thread a 6 to 7 MB RTF
  // held every stream of the process for 2 to 3 s, a 3.6 MB GB18030 text about 190 ms. (Word files go to
  // mammoth's own thread, docxToText.)
  private readonly text = new WorkerThread<TextJob, DecodedText | null>(join(__dirname, 'parsers', 'text.worker'));

  async onApplicationShutdown(): Promise<void> {
    await this.text.close();
  }

  async parse(file: UploadedFile, language: Language): Promise<UploadParseData> {
    const fileName = fixLatin1Name(file.originalname);
    const ext = extensionOf(fileName);
    if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(ext)) throw unsupported();
    if (file.buffer.length === 0) throw new AppException(ErrorCode.FILE_EMPTY);
    const parsed = await this.parseContent(file.buffer, language, ext);
    const { encoding, card } = parsed;
    let { content } = parsed;
    let lore = parsed.lore ?? null;
    const kind: UploadKind = parsed.kind === 'text' && ext === '.md' ? 'markdown' : parsed.kind;
    // A txt/md file may carry lore in ```lore blocks (lore-blocks.ts): taken out of its text.
    if (parsed.kind === 'text') ({ content, lore } = takeLoreBlocks(content));
    // A file whose readable text is empty (only spaces, an empty document) says so rather than filling nothing.
    if (!content.trim() && !lore) throw new AppException(ErrorCode.FILE_EMPTY);
    return {
      content,
      kind,
      fileName,
      characters: content.length,
      ...(encoding ? { encoding } : {}),
      ...(card ? { card } : {}),
      ...(lore ? { lore } : {}),
    };
  }

  // readText, from THREAD_BYTES on on the text thread (its refusals come back as the same AppExceptions).
  private async read(kind: TextKind, buf: Buffer): Promise<DecodedText | null> {
    return buf.length < THREAD_BYTES ? readText(kind, buf) : this.text.run({ kind, bytes: buf });
  }

  // The content decides the parser; a name that lies about a known format is read as what it is.
  private async parseContent(buf: Buffer, language: Language, ext: string): Promise<ParsedContent> {
    const type = sniffType(buf);
    switch (type) {
      case 'png':
        return cardUpload(readCharacterCard(buf), language);
      case 'zip':
        if (!(await checkDocxZip(buf))) throw unsupported();
        return { content: await docxToText(buf), kind: 'docx' as UploadKind };
      case 'rtf':
        return { content: (await this.read('rtf', buf))!.text, kind: 'rtf' as UploadKind };
      case 'binary':
        throw unsupported();
      case 'text': {
        const decoded = await this.read('text', buf);
        if (!decoded) throw unsupported();
        if (ext === '.json') return jsonUpload(decoded.text, language);
        return { content: decoded.text.replace(/\r\n?/g, '\n'), kind: 'text' as UploadKind, encoding: decoded.encoding };
      }
    }
  }
}

function cardUpload(card: ParsedCard, language: Language): ParsedContent {
  return {
    content: cardToText(card, language),
    kind: 'character_card' as UploadKind,
    card: { name: card.data.name, spec: card.spec },
    lore: cardLore(card, language),
  };
}

// A .json file is a lore book (SillyTavern World Info, or a bare character_book) or a character card.
function jsonUpload(text: string, language: Language): ParsedContent {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new AppException(ErrorCode.FILE_PARSE_FAILED);
  }
  if (isLoreBookJson(json)) {
    const lore = loreBookFromJson(json, language);
    if (!lore) throw new AppException(ErrorCode.FILE_EMPTY);
    return { content: '', kind: 'lore_book' as UploadKind, lore };
  }
  const card = cardFromJson(json);
  if (!card) throw unsupported();
  return cardUpload(card, language);
}

function unsupported(): AppException {
  return new AppException(ErrorCode.FILE_TYPE_UNSUPPORTED);
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

// Browsers send UTF-8 file names; multer (busboy) reads them as Latin-1 unless told otherwise.
function fixLatin1Name(name: string): string {
  const bytes = Buffer.from(name, 'latin1');
  const asUtf8 = bytes.toString('utf8');
  return [...name].some((c) => c.charCodeAt(0) > 0xff) || asUtf8.includes('\uFFFD') ? name : asUtf8;
}
