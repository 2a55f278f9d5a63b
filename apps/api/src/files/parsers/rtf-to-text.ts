import * as iconv from 'iconv-lite';
import { Tokenize } from 'rtf-stream-parser';
import { parseFailed } from './parse-error';

interface Token {
  type: number; // 0 group start, 1 group end, 2 control, 3 text
  word?: string;
  param?: number;
  data?: Buffer;
}

interface GroupState {
  skip: boolean;
  uc: number; // bytes to skip after \uN
  font: number | null;
  fontTable: boolean;
}

// Destinations whose text is not document text.
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'info', 'pict', 'header', 'headerl', 'headerr', 'headerf',
  'footer', 'footerl', 'footerr', 'footerf', 'footnote', 'listtable', 'listoverridetable', 'rsidtbl',
  'generator', 'themedata', 'colorschememapping', 'datastore', 'latentstyles', 'xmlnstbl', 'object',
  'fldinst', 'filetbl', 'revtbl', 'pgdsctbl', 'mmathPr', 'bkmkstart', 'bkmkend', 'nonshppict',
]);

// \fcharsetN -> Windows code page.
const CHARSET_CODEPAGES: Record<number, number> = {
  0: 1252, 128: 932, 129: 949, 130: 1361, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258,
  177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250, 254: 437,
};

const SYMBOLS: Record<string, string> = {
  par: '\n', line: '\n', sect: '\n', page: '\n', row: '\n', tab: '\t', cell: '\t',
  emdash: '\u2014', endash: '\u2013', bullet: '\u2022', lquote: '\u2018', rquote: '\u2019',
  ldblquote: '\u201c', rdblquote: '\u201d', '~': '\u00a0', _: '\u2011', emspace: '\u2003', enspace: '\u2002',
  '\\': '\\', '{': '{', '}': '}',
};

const MAX_DEPTH = 500;

/** RTF to plain text: rtf-stream-parser's tokenizer plus a small group walker (see ARCHITECTURE.md). */
export function rtfToText(buf: Buffer): string {
  const tokens: Token[] = [];
  const tokenizer = new Tokenize();
  tokenizer.push = (t: Token) => {
    tokens.push(t);
    return true;
  };
  const fail = (err: unknown) => {
    if (err) throw parseFailed(`RTF could not be tokenised: ${String(err)}`);
  };
  tokenizer._transform(buf, undefined, fail);
  tokenizer._flush(() => undefined);
  return new RtfWalker().walk(tokens);
}

class RtfWalker {
  private out: string[] = [];
  private pending: number[] = []; // \'hh and text bytes waiting to be decoded together (DBCS pairs)
  private pendingCodepage = 1252;
  private defaultCodepage = 1252;
  private defaultFont: number | null = null;
  private fontCodepages = new Map<number, number>();
  private stack: GroupState[] = [];
  private state: GroupState = { skip: false, uc: 1, font: null, fontTable: false };
  private skipBytes = 0;
  private firstInGroup = false;
  private fontEntry: { id: number | null; cp: number | null } | null = null;

  walk(tokens: Token[]): string {
    for (const t of tokens) {
      this.token(t);
      // The document ends where its outermost group closes; anything after it is not text.
      if (t.type === 1 && this.stack.length === 0) break;
    }
    this.flush();
    return this.out.join('').replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  }

  private codepage(): number {
    const font = this.state.font ?? this.defaultFont;
    return (font !== null ? this.fontCodepages.get(font) : undefined) ?? this.defaultCodepage;
  }

  private token(t: Token): void {
    if (t.type === 0) {
      if (this.stack.length >= MAX_DEPTH) throw parseFailed('RTF groups are nested too deeply');
      this.flush();
      this.stack.push(this.state);
      this.state = { ...this.state };
      this.firstInGroup = true;
      if (this.state.fontTable) this.fontEntry = { id: null, cp: null };
      return;
    }
    const first = this.firstInGroup;
    this.firstInGroup = false;
    if (t.type === 1) {
      this.flush();
      this.endFontEntry();
      this.state = this.stack.pop() ?? this.state;
      this.skipBytes = 0;
      return;
    }
    if (t.type === 2) return this.control(t, first);
    if (t.type === 3 && t.data) this.bytes(t.data.filter((b) => b !== 0x0a && b !== 0x0d));
  }

  private control(t: Token, first: boolean): void {
    const word = t.word ?? '';
    const param = t.param;
    if (word === '*') {
      this.state.skip = true;
      return;
    }
    if (first && word === 'fonttbl') {
      this.state.fontTable = true;
      this.state.skip = true;
      return;
    }
    if (this.state.fontTable) return this.fontControl(word, param);
    if (first && SKIPPED_DESTINATIONS.has(word)) {
      this.state.skip = true;
      return;
    }
    switch (word) {
      case 'ansicpg':
        if (param !== undefined) this.defaultCodepage = param;
        return;
      case 'deff':
        if (param !== undefined) this.defaultFont = param;
        return;
      case 'f':
        this.flush();
        this.state.font = param ?? null;
        return;
      case 'uc':
        this.state.uc = Math.max(0, param ?? 1);
        return;
      case 'u':
        if (param === undefined || this.state.skip) return;
        this.flush();
        this.out.push(String.fromCharCode(param < 0 ? param + 65536 : param));
        this.skipBytes = this.state.uc;
        return;
      case "'":
        if (t.data) this.bytes(t.data);
        return;
      case 'bin':
        return;
    }
    const symbol = SYMBOLS[word];
    if (symbol !== undefined && !this.state.skip) {
      this.flush();
      this.skipBytes = 0;
      this.out.push(symbol);
    }
  }

  // Inside {\fonttbl ...}: each {\fN ...\fcharsetM ...;} entry maps a font to a code page.
  private fontControl(word: string, param: number | undefined): void {
    if (!this.fontEntry) this.fontEntry = { id: null, cp: null };
    if (word === 'f' && param !== undefined && this.fontEntry.id === null) this.fontEntry.id = param;
    if (word === 'fcharset' && param !== undefined) this.fontEntry.cp = CHARSET_CODEPAGES[param] ?? null;
    if (word === 'cpg' && param !== undefined) this.fontEntry.cp = param;
  }

  private endFontEntry(): void {
    if (this.state.fontTable && this.fontEntry?.id !== null && this.fontEntry?.id !== undefined) {
      if (this.fontEntry.cp !== null) this.fontCodepages.set(this.fontEntry.id, this.fontEntry.cp);
    }
    this.fontEntry = null;
  }

  private bytes(data: Uint8Array): void {
    if (this.state.skip) return;
    let start = 0;
    if (this.skipBytes > 0) {
      start = Math.min(this.skipBytes, data.length);
      this.skipBytes -= start;
    }
    if (start >= data.length) return;
    const cp = this.codepage();
    if (this.pending.length && cp !== this.pendingCodepage) this.flush();
    this.pendingCodepage = cp;
    for (let i = start; i < data.length; i++) this.pending.push(data[i]);
  }

  private flush(): void {
    if (!this.pending.length) return;
    const buf = Buffer.from(this.pending);
    this.pending = [];
    const enc = `cp${this.pendingCodepage}`;
    this.out.push(iconv.encodingExists(enc) ? iconv.decode(buf, enc) : buf.toString('latin1'));
  }
}
