import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { asDto } from '../common/nested-dto';

/** At most this many lore entries per story. */
export const LORE_ENTRY_LIMIT = 2_000;
/** All entries' content together, in characters (a story's lore stays a small part of its record). */
export const LORE_TOTAL_CHARS_MAX = 1_000_000;
/** The request body limit of bodies that carry a whole lore book (an import, a new story with its lore): the largest book as UTF-8 JSON. */
export const LORE_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
export const LORE_TITLE_MAX_LENGTH = 200;
export const LORE_CONTENT_MAX_LENGTH = 20_000;
/** Keywords (and, separately, secondary keywords) per entry, and the length of one. */
export const LORE_KEYS_MAX = 50;
export const LORE_KEY_MAX_LENGTH = 100;
export const LORE_ORDER_MIN = -100_000;
export const LORE_ORDER_MAX = 100_000;
/** The order a new entry gets (a character card's default insertion order too). */
export const LORE_DEFAULT_ORDER = 100;
/** How far back in the story text keywords are looked for, in characters. */
export const LORE_SCAN_DEPTH_MAX = 50_000;
export const LORE_DEFAULT_SCAN_DEPTH = 2_000;
/** Tokens the lore may take of a prompt (also never more than half the room left for the story text). */
export const LORE_TOKEN_BUDGET_MAX = 64_000;
export const LORE_DEFAULT_TOKEN_BUDGET = 1_024;
/** How many rounds entries that fired may trigger further entries with their content. */
export const LORE_RECURSION_MAX = 5;
export const LORE_DEFAULT_RECURSION = 2;

/** A story's lore settings. */
export interface LoreSettings {
  /** Characters of the newest text scanned for keywords (the player's line and the author's note always are). */
  scan_depth: number;
  /** Tokens the lore may take of a prompt. */
  token_budget: number;
  /** How many rounds of entries triggered by the content of entries that fired (0: none). */
  recursion_depth: number;
}

export const DEFAULT_LORE_SETTINGS: LoreSettings = {
  scan_depth: LORE_DEFAULT_SCAN_DEPTH,
  token_budget: LORE_DEFAULT_TOKEN_BUDGET,
  recursion_depth: LORE_DEFAULT_RECURSION,
};

/** One lore entry as the API answers it. */
export interface LoreEntry {
  id: string;
  title: string;
  /** Any of these in the scanned text fires the entry. */
  keys: string[];
  /** When there are some, one of them must also appear. */
  secondary_keys: string[];
  content: string;
  /** Always in the prompt (first, in order), keywords or not. */
  constant: boolean;
  enabled: boolean;
  /** Entries enter the prompt by ascending order. */
  order: number;
  case_sensitive: boolean;
  /** Latin-script keywords match whole words only (Chinese and other unspaced scripts match anywhere). */
  whole_words: boolean;
  /** Characters of the newest text this entry scans; null: the story's setting. */
  scan_depth: number | null;
}

/** One entry of a lore book brought in whole (what `LoreEntryInputDto` validates): title and content required. */
export type LoreEntryInput = Pick<LoreEntry, 'title' | 'content'> & Partial<Omit<LoreEntry, 'id' | 'title' | 'content'>>;

/** A lore book brought in whole: what an imported file carries (`UploadParseData.lore`). */
export interface LoreBookInput {
  settings?: Partial<LoreSettings>;
  entries: LoreEntryInput[];
}

/** `GET /api/lore/{storyId}`: the story's lore. */
export interface LoreBookData {
  /** Goes up with every change. */
  version: number;
  settings: LoreSettings;
  entries: LoreEntry[];
}

/** The options of an entry a request may send (each optional; title and content are in the classes below). */
export class LoreEntryOptionsDto extends LocalizedDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LORE_KEYS_MAX)
  @IsString({ each: true })
  @MaxLength(LORE_KEY_MAX_LENGTH, { each: true })
  keys?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LORE_KEYS_MAX)
  @IsString({ each: true })
  @MaxLength(LORE_KEY_MAX_LENGTH, { each: true })
  secondary_keys?: string[];

  @IsOptional()
  @IsBoolean()
  constant?: boolean;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsInt()
  @Min(LORE_ORDER_MIN)
  @Max(LORE_ORDER_MAX)
  order?: number;

  @IsOptional()
  @IsBoolean()
  case_sensitive?: boolean;

  @IsOptional()
  @IsBoolean()
  whole_words?: boolean;

  /** null (or absent on create): the story's scan depth. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(LORE_SCAN_DEPTH_MAX)
  scan_depth?: number | null;
}

/** `POST /api/lore/{storyId}/entries`: a new entry (title and content required; the rest has defaults). */
export class CreateLoreEntryDto extends LoreEntryOptionsDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(LORE_TITLE_MAX_LENGTH)
  title!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(LORE_CONTENT_MAX_LENGTH)
  content!: string;
}

/** `PATCH /api/lore/{storyId}/entries/{entryId}`: changes the fields sent (at least one). */
export class UpdateLoreEntryDto extends LoreEntryOptionsDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LORE_TITLE_MAX_LENGTH)
  title?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(LORE_CONTENT_MAX_LENGTH)
  content?: string;
}

/** `PUT /api/lore/{storyId}/settings`: the fields sent change (at least one). */
export class UpdateLoreSettingsDto extends LocalizedDto {
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(LORE_SCAN_DEPTH_MAX)
  scan_depth?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(LORE_TOKEN_BUDGET_MAX)
  token_budget?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(LORE_RECURSION_MAX)
  recursion_depth?: number;
}

/** One entry of a lore book brought in whole (an import, a new story's lore): title and content required. */
export class LoreEntryInputDto extends CreateLoreEntryDto {}

/** Settings of a lore book brought in whole. */
export class LoreSettingsInputDto extends UpdateLoreSettingsDto {}

// Nested objects become DTO instances here, not with @Type (which needs reflect-metadata in the browser).
const toSettings = ({ value }: { value: unknown }) => asDto(() => new LoreSettingsInputDto())(value);
const toEntries = ({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(asDto(() => new LoreEntryInputDto())) : value);
/** A plain lore book as a LoreBookInputDto whose settings and entries are DTO instances too (what validation walks). */
export function toLoreBookInput(value: unknown): unknown {
  const book = asDto(() => new LoreBookInputDto())(value);
  if (!(book instanceof LoreBookInputDto)) return book;
  book.settings = toSettings({ value: book.settings }) as LoreSettingsInputDto | undefined;
  book.entries = toEntries({ value: book.entries }) as LoreEntryInputDto[];
  return book;
}
const toBook = ({ value }: { value: unknown }) => toLoreBookInput(value);

/** A lore book brought in whole: what an imported file carries (`UploadParseData.lore`), and a new story's lore. */
export class LoreBookInputDto {
  @IsOptional()
  @Transform(toSettings)
  @IsObject()
  @ValidateNested()
  settings?: LoreSettingsInputDto;

  @Transform(toEntries)
  @IsArray()
  @ArrayMaxSize(LORE_ENTRY_LIMIT)
  @ValidateNested({ each: true })
  entries!: LoreEntryInputDto[];
}

export const LORE_IMPORT_MODES = ['append', 'replace'] as const;
export type LoreImportMode = (typeof LORE_IMPORT_MODES)[number];

/** `POST /api/lore/{storyId}/import`: entries (and settings) from a file, added to the story's or replacing them. */
export class ImportLoreDto extends LocalizedDto {
  @Transform(toBook)
  @IsObject()
  @ValidateNested()
  book!: LoreBookInputDto;

  @IsIn(LORE_IMPORT_MODES as unknown as string[])
  mode!: LoreImportMode;
}

/** Characters a book's entries hold in all (titles and content), as LORE_TOTAL_CHARS_MAX counts them. */
export function loreBookChars(entries: readonly { title?: string; content?: string }[]): number {
  let chars = 0;
  for (const e of entries) chars += (e.title?.trim().length ?? 0) + (e.content?.trim().length ?? 0);
  return chars;
}
