import { IsInt, IsMongoId, IsOptional, IsIn, Max, Min } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';

/** Save slots are 0..998 (999 of them); -1 is the public archive, written only by publishing. */
export const ARCHIVE_SLOT_COUNT = 999;
export const ARCHIVE_SLOT_MIN = 0;
export const ARCHIVE_SLOT_MAX = 998;
export const PUBLIC_ARCHIVE_INDEX = -1;

/** Body of `POST /api/archive/save`: write the story's current state into a slot (overwriting it). */
export class SaveArchiveDto extends LocalizedDto {
  @IsMongoId()
  story_id!: string;

  @IsInt()
  @Min(ARCHIVE_SLOT_MIN)
  @Max(ARCHIVE_SLOT_MAX)
  archive_index!: number;
}

/** Body of `POST /api/archive/load`: restore the story from an archive. */
export class LoadArchiveDto extends LocalizedDto {
  @IsMongoId()
  archive_id!: string;
}

/** Query of `GET /api/archive/{storyId}`. */
export class ArchiveListQueryDto {
  @IsOptional()
  @IsIn(['en', 'zh-CN'])
  language?: string;
}

/** One saved slot (spec section 3 "Archive"); slots without an entry are empty. */
export interface ArchiveEntry {
  _id: string;
  story_id: string;
  archive_index: number;
  /** Seconds since the epoch. */
  time: number;
  current_word_count: number;
  story_ending: string;
}

/** `data` of `POST /api/archive/load`: the story id that now holds the archive's state. */
export interface LoadArchiveData {
  story_id: string;
  archive_index: number;
}
