import { Transform } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, Length, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { toLoreBookInput, type LoreBookInputDto } from '../lore/lore.dto';
import { StorySettingsDto } from './story-settings.dto';

/** How the AI plays along (spec section 4 "Play mode"); fly_free is the default on create. */
export const PLAY_MODES = ['tasks_master', 'tasks_guider', 'fly_free'] as const;
export type PlayMode = (typeof PLAY_MODES)[number];
export const DEFAULT_PLAY_MODE: PlayMode = 'fly_free';

export const STORY_NAME_MIN_LENGTH = 2;
export const STORY_NAME_MAX_LENGTH = 200;
export const STORY_ROLE_MAX_LENGTH = 50;
export const STORY_GOAL_MAX_LENGTH = 2_000;
export const HIDDEN_SETTINGS_MIN_LENGTH = 2;
export const HIDDEN_SETTINGS_MAX_LENGTH = 20;
export const PROLOGUE_MAX_LENGTH = 100_000;
/** The longest story text the API stores: a long novel (UTF-8 CJK: about 6 MB of a document's 16 MB). */
export const STORY_TEXT_MAX_LENGTH = 2_000_000;
/** The request body limit of saving a whole story text (`PATCH /api/llm`): the longest text, as UTF-8 JSON. */
export const STORY_TEXT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
export const MODEL_NAME_MAX_LENGTH = 128;
export const MODEL_TYPE_MAX_LENGTH = 64;

// The nested object becomes a LoreBookInputDto here, not with @Type (which needs reflect-metadata in the browser).
const toLoreBook = ({ value }: { value: unknown }) => toLoreBookInput(value);

/** A name is valid when empty (the story is untitled) or 2 to 200 characters. */
const hasName = (o: { name?: string }) => o.name !== undefined && o.name !== '';

/**
 * `POST /api/llm`: create a story. An empty or missing name is stored empty and shown as a
 * translated "Untitled"; the prologue also becomes the start of the story's text.
 */
export class CreateStoryDto extends StorySettingsDto {
  @IsOptional()
  @ValidateIf(hasName)
  @IsString()
  @Length(STORY_NAME_MIN_LENGTH, STORY_NAME_MAX_LENGTH)
  name?: string;

  @IsString()
  @MinLength(1)
  @MaxLength(PROLOGUE_MAX_LENGTH)
  prologue_and_characters!: string;

  @IsOptional()
  @IsString()
  @MaxLength(STORY_GOAL_MAX_LENGTH)
  goal?: string;

  @IsOptional()
  @IsString()
  @MaxLength(STORY_ROLE_MAX_LENGTH)
  role?: string;

  @IsOptional()
  @IsIn(PLAY_MODES as unknown as string[])
  play_mode?: PlayMode;

  @IsOptional()
  @IsString()
  @Length(HIDDEN_SETTINGS_MIN_LENGTH, HIDDEN_SETTINGS_MAX_LENGTH)
  'hidden-settings'?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MODEL_NAME_MAX_LENGTH)
  model_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MODEL_TYPE_MAX_LENGTH)
  model_type?: string;

  /** The story's lore, as `POST /api/upload_parse` answered it for an imported file. */
  @IsOptional()
  @Transform(toLoreBook)
  @IsObject()
  @ValidateNested()
  lore?: LoreBookInputDto;
}
