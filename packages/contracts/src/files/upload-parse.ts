/** What the content of an upload turned out to be (decided by its bytes, not its name). */
export type UploadKind = 'text' | 'markdown' | 'docx' | 'rtf' | 'character_card';

/** Card versions `POST /api/upload_parse` reads. */
export type CharacterCardSpec = 'v1' | 'v2' | 'v3';

/** `data` of `POST /api/upload_parse`. */
export interface UploadParseData {
  /** The text for the prologue and character settings field. */
  content: string;
  kind: UploadKind;
  /** For text files: the detected encoding (e.g. UTF-8, UTF-16LE, GB18030). */
  encoding?: string;
  /** For PNG character cards: the character's name and the card version. */
  card?: { name: string; spec: CharacterCardSpec };
  fileName: string;
  /** Number of characters in `content`. */
  characters: number;
}
