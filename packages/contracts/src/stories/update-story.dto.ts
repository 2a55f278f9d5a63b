import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsMongoId, IsObject, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { asDto } from '../common/nested-dto';
import {
  MODEL_NAME_MAX_LENGTH,
  MODEL_TYPE_MAX_LENGTH,
  PLAY_MODES,
  STORY_NAME_MAX_LENGTH,
  STORY_NAME_MIN_LENGTH,
  STORY_TEXT_MAX_LENGTH,
  type PlayMode,
} from './create-story.dto';
import { StorySettingsDto } from './story-settings.dto';

export const AUTHOR_REMARK_MAX_LENGTH = 5_000;
export const PREVIOUS_SUMMARY_MAX_LENGTH = 20_000;
export const CHARACTER_SHEET_MAX_LENGTH = 5_000;

/**
 * One change of a long text without sending it whole (`UpdateStoryDto.main_text_edit`): the characters
 * `removed` at `at` become `inserted`, in the text of `base_length` characters the client edited.
 * Positions and lengths count UTF-16 code units (JavaScript string indices). The server applies it only
 * if its text still has that length and those characters at that place; otherwise STORY_TEXT_CHANGED.
 */
export class MainTextEditDto {
  @IsInt()
  @Min(0)
  @Max(STORY_TEXT_MAX_LENGTH)
  at!: number;

  @IsString()
  @MaxLength(STORY_TEXT_MAX_LENGTH)
  removed!: string;

  @IsString()
  @MaxLength(STORY_TEXT_MAX_LENGTH)
  inserted!: string;

  @IsInt()
  @Min(0)
  @Max(STORY_TEXT_MAX_LENGTH)
  base_length!: number;
}

// The nested object becomes a MainTextEditDto here, not with @Type (which needs reflect-metadata in the browser).
const toMainTextEdit = ({ value }: { value: unknown }) => asDto(() => new MainTextEditDto())(value);

/**
 * The smallest edit turning `before` into `after` (their common start and end kept), never splitting a
 * character written as two UTF-16 units. What the play screen sends instead of the whole text.
 */
export function mainTextEdit(before: string, after: string): MainTextEditDto {
  const limit = Math.min(before.length, after.length);
  let start = 0;
  while (start < limit && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // A high surrogate kept at the end of the common start would be split from its pair.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let end = 0;
  while (end < limit - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  // Likewise a low surrogate kept at the start of the common end.
  if (end > 0 && isLowSurrogate(before.charCodeAt(before.length - end))) end--;
  return Object.assign(new MainTextEditDto(), {
    at: start,
    removed: before.slice(start, before.length - end),
    inserted: after.slice(start, after.length - end),
    base_length: before.length,
  });
}

/** `text` with `edit` applied, or undefined when `text` is not the text the edit was made on. */
export function applyMainTextEdit(text: string, edit: MainTextEditDto): string | undefined {
  if (text.length !== edit.base_length || edit.at + edit.removed.length > text.length) return undefined;
  if (text.slice(edit.at, edit.at + edit.removed.length) !== edit.removed) return undefined;
  return text.slice(0, edit.at) + edit.inserted + text.slice(edit.at + edit.removed.length);
}

/**
 * `mine` (an edit of `base`) carried onto `theirs` (another edit of `base`, such as a turn accepted on
 * another device): both changes kept, or undefined when they touch the same characters. When both insert
 * at the same place, `mine` comes first.
 */
export function rebaseText(base: string, theirs: string, mine: string): string | undefined {
  // The same change on both sides (this client's own save coming back) is made once.
  if (theirs === mine) return theirs;
  const a = mainTextEdit(base, mine);
  const b = mainTextEdit(base, theirs);
  const aEnd = a.at + a.removed.length;
  const bEnd = b.at + b.removed.length;
  if (b.at >= aEnd) return theirs.slice(0, a.at) + a.inserted + theirs.slice(aEnd);
  if (bEnd <= a.at) {
    const shift = b.inserted.length - b.removed.length;
    return theirs.slice(0, a.at + shift) + a.inserted + theirs.slice(aEnd + shift);
  }
  return undefined;
}

/** Fails when the object also carries `other`: two ways of saying the same thing, of which one is meant. */
function NotWith(other: string) {
  return ValidateBy({
    name: 'notWith',
    constraints: [other],
    validator: {
      validate: (_value, args) => (args?.object as Record<string, unknown> | undefined)?.[other] === undefined,
      defaultMessage: (args) => `${args?.property ?? 'this field'} cannot be sent with ${other}`,
    },
  });
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * `PATCH /api/llm?id=`: change the story's text, play mode, model, settings, author's note, previous summary or name (owner only).
 * At least one field must be present.
 */
export class UpdateStoryDto extends StorySettingsDto {
  /** The whole new text. A long text is better changed with `main_text_edit`. */
  @IsOptional()
  @IsString()
  @MaxLength(STORY_TEXT_MAX_LENGTH)
  main_text?: string;

  /** One change of the text (what changed, where), instead of `main_text`; not both. */
  @IsOptional()
  @NotWith('main_text')
  @Transform(toMainTextEdit)
  @IsObject()
  @ValidateNested()
  main_text_edit?: MainTextEditDto;

  @IsOptional()
  @IsIn(PLAY_MODES as unknown as string[])
  play_mode?: PlayMode;

  @IsOptional()
  @IsString()
  @MaxLength(MODEL_NAME_MAX_LENGTH)
  model_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MODEL_TYPE_MAX_LENGTH)
  model_type?: string;

  /** The author's note the model follows for the next parts. */
  @IsOptional()
  @IsString()
  @MaxLength(AUTHOR_REMARK_MAX_LENGTH)
  author_remark?: string;

  /** The summary of earlier events (kept by the model, editable by the user). */
  @IsOptional()
  @IsString()
  @MaxLength(PREVIOUS_SUMMARY_MAX_LENGTH)
  previous_summary?: string;

  /** How the characters look in pictures (written by the model with the first consistent picture; editable). */
  @IsOptional()
  @IsString()
  @MaxLength(CHARACTER_SHEET_MAX_LENGTH)
  picture_character_sheet?: string;

  @IsOptional()
  @ValidateIf((o: UpdateStoryDto) => o.name !== '')
  @IsString()
  @Length(STORY_NAME_MIN_LENGTH, STORY_NAME_MAX_LENGTH)
  name?: string;

  /**
   * The branch the client shows (StoryData.branch_id): when the story plays another branch by now
   * (switched on another device), the change is refused with BRANCH_CHANGED instead of landing there.
   */
  @IsOptional()
  @IsMongoId()
  branch_id?: string;
}

/** `PATCH /api/user/story`: rename a story (owner only); an empty name makes it untitled. */
export class RenameStoryDto extends LocalizedDto {
  @IsString()
  @MaxLength(64)
  id!: string;

  @ValidateIf((o: RenameStoryDto) => o.storyName !== '')
  @IsString()
  @Length(STORY_NAME_MIN_LENGTH, STORY_NAME_MAX_LENGTH)
  storyName!: string;
}
