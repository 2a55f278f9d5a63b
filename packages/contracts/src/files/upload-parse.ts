import type { LoreBookInput } from '../lore/lore.dto';

/** What the content of an upload turned out to be (decided by its bytes, not its name). */
export type UploadKind = 'text' | 'markdown' | 'docx' | 'rtf' | 'character_card' | 'lore_book';

/** Card versions `POST /api/upload_parse` reads. */
export type CharacterCardSpec = 'v1' | 'v2' | 'v3';

/** `data` of `POST /api/upload_parse`. */
export interface UploadParseData {
  /** The text for the prologue and character settings field (empty for a lore book: it carries only `lore`). */
  content: string;
  kind: UploadKind;
  /** For text files: the detected encoding (e.g. UTF-8, UTF-16LE, GB18030). */
  encoding?: string;
  /** For character cards (PNG or JSON): the character's name and the card version. */
  card?: { name: string; spec: CharacterCardSpec };
  fileName: string;
  /** Number of characters in `content`. */
  characters: number;
  /**
   * Lore the file carries: a character card's book (V2/V3 `character_book`), a txt/md file's lore
   * blocks (taken out of `content`), or a lore book file (.json: SillyTavern World Info, TaleLoom's lore
   * export, or a bare `character_book`). Send it as `lore` when creating the story, or import it into one.
   */
  lore?: LoreBookInput;
}
