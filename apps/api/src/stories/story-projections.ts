import type { Types } from 'mongoose';
import type { BranchState } from './story-branch.schema';
import type { Story } from './story.schema';

// What each reader of a story reads of it (the repository's projections and the shapes they answer).

/**
 * What every write of a story's text keeps in step with it (textSnippets): a write conditioned on these
 * lands only if the text did not change since it was read.
 */
export type TextState = { charCount: number; firstLine: string; lastLine: string };
/** A stored story's TextState (a field never written reads as its default). */
export const textStateOf = (s: Partial<TextState>): TextState => ({ charCount: s.charCount ?? 0, firstLine: s.firstLine ?? '', lastLine: s.lastLine ?? '' });

/** A stored story as read whole (lean). */
export type StoryRecord = Story & { _id: Types.ObjectId };

/** The fields a list reads (LIST_PROJECTION). */
export type StoryListFields = Pick<
  Story,
  | 'name' | 'level' | 'clonedFrom' | 'storyNo' | 'time' | 'userID' | 'permission' | 'pinToTop' | 'recovery_point'
  | 'firstLine' | 'lastLine' | 'publicFirstLine' | 'publicLastLine' | 'unique_user_count'
  | 'penetration_story_total_rounds' | 'additional_story_count'
> & { _id: Types.ObjectId };

export const PLAY_FIELDS = {
  branchId: 1, summarized_chars: 1, userID: 1, name: 1, model_name: 1, model_type: 1, lineage: 1, updatedAt: 1, prologue_and_characters: 1, hidden_settings: 1,
  goal: 1, author_remark: 1, previous_summary: 1, main_text: 1, play_mode: 1, settings_system_prompt_switch: 1,
  settings_system_prompt_text: 1, settings_user_prompt_switch: 1, settings_user_prompt_text: 1, stateRev: 1,
} as const;

/**
 * What a turn reads of a story: its prompt's fields, model choice and lineage (one read on the path of
 * every send), and `stateRev`, the revision its text is at (absent on a story never written since
 * revisions were counted).
 */
export type StoryForPlay = Pick<Story, Exclude<keyof typeof PLAY_FIELDS, 'stateRev'> & keyof Story> & { _id: Types.ObjectId; updatedAt?: Date; stateRev?: number };

/**
 * A story's text as this process last read or wrote it, with its revision then. Every write of a
 * story's text raises `stateRev` in the same update (update, restore, playBranch, append, the summary's
 * write), so a story still at that revision still has that text: a send of a long story need not
 * read its text again (a 1,000,000-character story is about a megabyte each way).
 */
export interface KnownText {
  stateRev: number;
  main_text: string;
}

/** A story's text and the revision it was read or written at (null: a story without a revision). */
export function knownTextOf(story: Pick<StoryForPlay, 'stateRev' | 'main_text'>): KnownText | null {
  return typeof story.stateRev === 'number' ? { stateRev: story.stateRev, main_text: story.main_text } : null;
}

export const TASK_FIELDS = {
  branchId: 1, userID: 1, name: 1, rounds: 1, activity: 1, main_text: 1, prologue_and_characters: 1, goal: 1,
  previous_summary: 1, model_name: 1, model_type: 1, lineage: 1,
} as const;

/** What task requests read of a story. */
export type StoryForTasks = Pick<Story, keyof typeof TASK_FIELDS> & { _id: Types.ObjectId };

/** Who a story belongs to and whether it is public. */
export type StoryAccess = Pick<Story, 'userID' | 'permission'> & { _id: Types.ObjectId };

/** What a change of branch reads of a story: the played branch's state and where the story stands. */
export type StoryForBranching = Pick<Story, 'userID' | 'branchId' | 'stateRev' | 'charCount' | 'lastLine' | 'createdAt'> & BranchState & { _id: Types.ObjectId };

export const BRANCHING_FIELDS = {
  userID: 1, branchId: 1, stateRev: 1, charCount: 1, lastLine: 1, createdAt: 1, main_text: 1, previous_summary: 1, summarized_chars: 1, pictures: 1,
} as const;

/** A clone's source: what it copies besides the state, and whom it credits. */
export type CloneSource = Pick<Story, 'storyNo' | 'level' | 'lineage' | 'rootStoryId' | 'userID'> & { _id: Types.ObjectId };

