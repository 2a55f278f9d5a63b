import { IsIn, IsMongoId, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
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
 * `PATCH /api/llm?id=`: change the story's text, play mode, model, settings, author's note, previous summary or name (owner only).
 * At least one field must be present.
 */
export class UpdateStoryDto extends StorySettingsDto {
  @IsOptional()
  @IsString()
  @MaxLength(STORY_TEXT_MAX_LENGTH)
  main_text?: string;

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
