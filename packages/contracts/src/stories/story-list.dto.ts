import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const STORY_LIST_DEFAULT_PAGE_SIZE = 20;
export const STORY_LIST_MAX_PAGE_SIZE = 50;

// Query strings arrive as text. `@Transform(toInt)` would need reflect-metadata loaded before
// contracts (in the browser too), so whole numbers are converted here; anything else stays and fails @IsInt.
const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

/** `GET /api/user/story-list`: the caller's stories, or with `public=true` the story square. */
export class StoryListQueryDto {
  @IsOptional()
  @IsIn(['true', 'false'])
  public?: 'true' | 'false';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  page?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(STORY_LIST_MAX_PAGE_SIZE)
  pageSize?: number;

  /** Part of the story name, case-insensitive. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @IsOptional()
  @IsIn(['en', 'zh-CN'])
  language?: string;
}

/** One story in a list (spec section 3 "Story list item"); the square's counters come from its clones. */
export interface StoryListItem {
  id: string;
  name: string;
  level: number;
  /** The source story's `storyNo` (a short number), or null for an original story. */
  clonedFrom: number | null;
  /** This story's own short number. */
  storyNo: number;
  /** Last change, in seconds since the epoch. */
  time: number;
  userID: string;
  permission: StoryPermission;
  pinToTop: boolean;
  recovery_point: boolean;
  'first-line': string;
  'last-line': string;
  /** Distinct users who cloned it, directly or through clones of its clones (its author excluded). */
  unique_user_count: number;
  /** Rounds played on all those clones. */
  penetration_story_total_rounds: number;
  story_average_rounds: number;
  /** Characters those clones continued beyond the text they copied. */
  additional_story_count: number;
  /** additional_story_count per player, rounded to 2 decimals. */
  story_average_count: number;
}

export type StoryPermission = '0' | '1';

/**
 * Where a page stands. There is no total on purpose: counting every matching story on every request
 * costs as much as the list itself (O(n) on a large square); the web scrolls on while `hasMore`.
 */
export interface StoryListPage {
  page: number;
  pageSize: number;
  hasMore: boolean;
}

/** `data` of `GET /api/user/story-list`. */
export interface StoryListData {
  list: StoryListItem[];
  pagination: StoryListPage;
}
