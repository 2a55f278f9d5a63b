import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  UPLOAD_EXTENSIONS,
  type Language,
  type UploadKind,
  type UploadParseData,
} from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { cardLore, cardToText, readCharacterCard } from './parsers/character-card';
import { decodeText } from './parsers/decode-text';
import { takeLoreBlocks } from './parsers/lore-blocks';
import { checkDocxZip, docxToText } from './parsers/docx-to-text';
import { rtfToText } from './parsers/rtf-to-text';
import { sniffType } from './parsers/sniff-type';

export interface UploadedFile {
  originalname: string;
  buffer: Buffer;
  size: number;
}

/** Turns an uploaded manuscript or character card into text for the create screen. */
@Injectable()
export class UploadParserService {
  async parse(file: UploadedFile, language: Language): Promise<UploadParseData> {
    const fileName = fixLatin1Name(file.originalname);
    const ext = extensionOf(fileName);
    if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(ext)) throw unsupported();
    if (file.buffer.length === 0) throw new AppException(ErrorCode.FILE_EMPTY);
    const parsed = await this.parseContent(file.buffer, language);
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

  // The content decides the parser; a name that lies about a known format is read as what it is.
  private async parseContent(buf: Buffer, language: Language) {
    const type = sniffType(buf);
    switch (type) {
      case 'png': {
        const card = readCharacterCard(buf);
        return {
          content: cardToText(card, language),
          kind: 'character_card' as UploadKind,
          card: { name: card.data.name, spec: card.spec },
          lore: cardLore(card, language),
        };
      }
      case 'zip':
        if (!(await checkDocxZip(buf))) throw unsupported();
        return { content: await docxToText(buf), kind: 'docx' as UploadKind };
      case 'rtf':
        return { content: rtfToText(buf), kind: 'rtf' as UploadKind };
      case 'binary':
        throw unsupported();
      case 'text': {
        const decoded = decodeText(buf);
        if (!decoded) throw unsupported();
        return { content: decoded.text.replace(/\r\n?/g, '\n'), kind: 'text' as UploadKind, encoding: decoded.encoding };
      }
    }
  }
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
