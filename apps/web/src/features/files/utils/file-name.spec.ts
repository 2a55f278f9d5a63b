import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from '../../../lib/download';
import { fallbackFileName } from './file-name';

describe('export file names', () => {
  it('reads filename* (RFC 5987) before filename', () => {
    const header = `attachment; filename="____-__-20261121-221000.docx"; filename*=UTF-8''${encodeURIComponent('织梦故事-雨夜-20261121-221000.docx')}`;
    expect(fileNameFromDisposition(header)).toBe('织梦故事-雨夜-20261121-221000.docx');
    expect(fileNameFromDisposition('attachment; filename="a b.txt"')).toBe('a b.txt');
    expect(fileNameFromDisposition('attachment; filename=plain.md')).toBe('plain.md');
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition('attachment')).toBeNull();
  });

  it('falls back to {product}-{story}-{timestamp}.{ext}', () => {
    const name = fallbackFileName('TaleLoom', 'A/B: c', 'markdown', new Date(2026, 10, 21, 9, 5, 7));
    expect(name).toBe('TaleLoom-A_B_ c-20261121-090507.md');
    expect(fallbackFileName('织梦故事', '雨夜', 'docx', new Date(2026, 0, 2, 3, 4, 5))).toBe('织梦故事-雨夜-20260102-030405.docx');
  });
});
