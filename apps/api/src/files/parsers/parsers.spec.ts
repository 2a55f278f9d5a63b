import * as iconv from 'iconv-lite';
import { ErrorCode } from '@taleloom/contracts';
import { AppException } from '../../common/app-exception';
import { decodeText } from './decode-text';
import { rtfToText } from './rtf-to-text';
import { sniffType } from './sniff-type';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as AppException).code;
  }
  return null;
};

describe('decodeText', () => {
  it('reads short GBK text, ASCII and Latin UTF-16 without a BOM', () => {
    expect(decodeText(iconv.encode('你好，世界！', 'gbk'))).toEqual({ text: '你好，世界！', encoding: 'GB18030' });
    expect(decodeText(iconv.encode('Hello there, friend.', 'utf16le'))).toEqual({ text: 'Hello there, friend.', encoding: 'UTF-16LE' });
    expect(decodeText(Buffer.from('plain ascii'))).toEqual({ text: 'plain ascii', encoding: 'UTF-8' });
  });

  it('returns null for binary noise and NUL bytes', () => {
    const noise = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 37 + 11) % 256));
    expect(decodeText(noise)).toBeNull();
    expect(decodeText(Buffer.from('abc\0def'))).toBeNull();
  });
});

describe('sniffType', () => {
  it('decides by magic bytes', () => {
    expect(sniffType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffType(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe('zip');
    expect(sniffType(Buffer.from('{\\rtf1 x}'))).toBe('rtf');
    expect(sniffType(Buffer.from('MZ\x90\x00\x03', 'latin1'))).toBe('binary');
    expect(sniffType(Buffer.from('MZ was here'))).toBe('text');
  });
});

describe('rtfToText', () => {
  const rtf = (body: string) => Buffer.from(`{\\rtf1\\ansi\\ansicpg1252 ${body}}`, 'latin1');

  it('skips destinations, field instructions and binary data but keeps field results', () => {
    const text = rtfToText(
      rtf('{\\*\\shppict secret}{\\field{\\*\\fldinst HYPERLINK "x"}{\\fldrslt shown}} a\\bin3 \x00\x01\x02b\\par c'),
    );
    expect(text).toBe('shown ab\nc');
  });

  it('refuses groups nested too deeply with FILE_PARSE_FAILED', () => {
    expect(codeOf(() => rtfToText(rtf('{'.repeat(600) + 'x' + '}'.repeat(600))))).toBe(ErrorCode.FILE_PARSE_FAILED);
  });

  it('tolerates unbalanced closing braces', () => {
    expect(rtfToText(rtf('a}}} b'))).toBe('a');
  });
});
