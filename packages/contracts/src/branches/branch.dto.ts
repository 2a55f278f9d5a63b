import { IsInt, IsMongoId, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import type { StoryData } from '../stories/story.dto';

/** A story holds at most this many branches (lines of its text); one more is BRANCH_LIMIT. */
export const BRANCHES_PER_STORY_MAX = 50;
export const BRANCH_NAME_MAX_LENGTH = 60;
/** How many characters before the fork point a branch keeps to show where it forks. */
export const BRANCH_EXCERPT_CHARS = 80;

/**
 * `POST /api/llm/{id}/branches`: "branch from here". A new line of the story starts at `at` (a UTF-16
 * offset into the played text: the new branch keeps `main_text.slice(0, at)`); the old line is kept,
 * and the story plays the new branch at once. `from_branch` is the branch the client shows: when the
 * story plays another one by now (another device switched), the fork is refused (BRANCH_CHANGED).
 */
export class CreateBranchDto extends LocalizedDto {
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  at!: number;

  @IsOptional()
  @IsMongoId()
  from_branch?: string;

  /** Empty or absent: the branch is shown as "Branch {no}". */
  @IsOptional()
  @IsString()
  @MaxLength(BRANCH_NAME_MAX_LENGTH)
  name?: string;
}

/** `PATCH /api/llm/{id}/branches/{branchId}`: rename a branch; an empty name shows the default one. */
export class RenameBranchDto extends LocalizedDto {
  @IsString()
  @MaxLength(BRANCH_NAME_MAX_LENGTH)
  name!: string;
}

/** Where a branch forks from its parent. */
export interface BranchFork {
  /** The branch it was made from (it may have been deleted since: then `parentNo` is null). */
  parentId: string;
  parentNo: number | null;
  parentName: string | null;
  /** The offset in the parent's text where the new line starts, and the text just before it. */
  at: number;
  excerpt: string;
}

/** One line of a story. */
export interface BranchView {
  id: string;
  /** 1 for the story's original line, then 2, 3, ... in the order they were made (never reused). */
  no: number;
  /** Empty: the web shows "Main line" (no 1) or "Branch {no}" in the reader's language. */
  name: string;
  /** The branch being played: the story's text, summary, pictures, tasks and pending turn are its. */
  current: boolean;
  /** Null for the original line. */
  forkedFrom: BranchFork | null;
  /** Characters of its text. */
  length: number;
  /** When it was last played (epoch ms): when it was left; null for the current one (played now) or one never played. */
  lastPlayedAt: number | null;
  createdAt: number;
}

/** `data` of `GET /api/llm/{id}/branches` and of rename and delete. */
export interface BranchesData {
  branches: BranchView[];
  /** The id of the branch being played. */
  current: string;
  max: number;
}

/** `data` of a fork or a switch: the story as it now plays (the chosen branch) and the branch list. */
export interface BranchSwitchData extends BranchesData {
  story: StoryData;
}
