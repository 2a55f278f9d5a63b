import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type { PlayMode } from './create-story.dto';
import type { StorySettings } from './story-settings.dto';
import type { StoryPermission } from './story-list.dto';

/** Longest id string accepted; a malformed id is answered 404 STORY_NOT_FOUND, like an unknown one. */
export const STORY_ID_MAX_LENGTH = 64;

/** `?id=` of the story endpoints that take the id in the query. */
export class StoryIdQueryDto {
  @IsString()
  @MaxLength(STORY_ID_MAX_LENGTH)
  id!: string;

  @IsOptional()
  @IsIn(['en', 'zh-CN'])
  language?: string;
}

/** The record used for play (spec section 3 "Story") with its settings. */
export interface StoryData extends StorySettings {
  id: string;
  storyNo: number;
  userID: string;
  name: string;
  main_text: string;
  goal: string;
  role: string;
  user: string;
  'hidden-settings': string;
  author: string;
  writer: string;
  history_table: unknown[];
  note_table: unknown[];
  prologue_and_characters: string;
  play_mode: PlayMode;
  recovery_point: boolean;
  recovery_point_id: string | null;
  author_remark: string;
  previous_summary: string;
  model_name: string;
  model_type: string;
  activity: string | null;
  activity_story_index: number | null;
  /** With consistent pictures on: how the characters look, reused by every picture prompt. */
  picture_character_sheet: string;
  permission: StoryPermission;
  level: number;
  clonedFrom: number | null;
  pinToTop: boolean;
  /** Seconds since the epoch. */
  time: number;
  /** True when the caller owns it; false when it is someone's public version (read-only). */
  isOwner: boolean;
  /**
   * The branch being played (GET /api/llm/{id}/branches lists them): the text, summary and pictures
   * above are its. The story's own id for its original line.
   */
  branch_id: string;
}

/**
 * `data` of `PATCH /api/llm?id=` asked with `Prefer: return=minimal`: the record without its text,
 * which the client already has (it sent the change), and the text's length to check it against.
 */
export type StoryChangeData = Omit<StoryData, 'main_text'> & { main_text_length: number };

/** `data` of `GET /api/user/check-story/{id}`. */
export interface CheckStoryData {
  userHasStory: boolean;
  isPublic: boolean;
  originUserID: string;
}

/** `data` of create and clone calls. */
export interface StoryIdData {
  id: string;
}
