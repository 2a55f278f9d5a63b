import type { StoryData, StoryListData, StoryListItem } from '@taleloom/contracts';
import { DEFAULT_STORY_SETTINGS } from '@taleloom/contracts';

export const storyItem = (over: Partial<StoryListItem> = {}): StoryListItem => ({
  id: 'a'.repeat(24),
  name: 'The Dragon',
  level: 0,
  clonedFrom: null,
  storyNo: 1,
  time: 1_700_000_000,
  userID: 'u1',
  permission: '0',
  pinToTop: false,
  recovery_point: false,
  'first-line': 'Once upon a time.',
  'last-line': 'The end.',
  unique_user_count: 0,
  penetration_story_total_rounds: 0,
  story_average_rounds: 0,
  additional_story_count: 0,
  story_average_count: 0,
  ...over,
});

export const storyList = (list: StoryListItem[]): StoryListData => ({
  list,
  pagination: { page: 1, pageSize: 12, hasMore: false },
});

export const storyData = (over: Partial<StoryData> = {}): StoryData => ({
  ...DEFAULT_STORY_SETTINGS,
  id: 'a'.repeat(24),
  storyNo: 1,
  userID: 'u1',
  name: 'The Dragon',
  main_text: 'Once upon a time.\nThe end.',
  goal: '',
  role: '',
  user: 'u1',
  'hidden-settings': '',
  author: 'alice',
  writer: 'alice',
  history_table: [],
  note_table: [],
  prologue_and_characters: 'Once upon a time.',
  play_mode: 'fly_free',
  recovery_point: false,
  recovery_point_id: null,
  author_remark: '',
  previous_summary: '',
  model_name: '',
  model_type: '',
  activity: null,
  activity_story_index: null,
  picture_character_sheet: '',
  permission: '0',
  level: 0,
  clonedFrom: null,
  pinToTop: false,
  time: 1_700_000_000,
  isOwner: true,
  branch_id: over.id ?? 'a'.repeat(24),
  ...over,
});

export const ok = <T,>(data: T) => ({ status: 'success', message: 'ok', data });
