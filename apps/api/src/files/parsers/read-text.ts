import { decodeText, type DecodedText } from './decode-text';
import { rtfToText } from './rtf-to-text';

/** An uploaded RTF or text file's bytes. */
export type TextKind = 'rtf' | 'text';

/** An RTF's text, or a text file's in its encoding (null: no encoding reads it); refusals are coded (AppException). */
export function readText(kind: TextKind, buf: Buffer): DecodedText | null {
  return kind === 'rtf' ? { text: rtfToText(buf), encoding: 'RTF' } : decodeText(buf);
}
