import { Types } from 'mongoose';

type Played = { _id: Types.ObjectId; branchId?: string | null };

/** The id of the branch a story plays: its own id for its original line (also for stories from before branches). */
export function playedBranchId(story: Played): string {
  return story.branchId || story._id.toHexString();
}

/**
 * The same as an ObjectId: the key of what other features keep per branch (a branch's tasks are the
 * `story_tasks` document of this id, so the original line's are the story's, as they always were).
 */
export function playedBranchKey(story: Played): Types.ObjectId {
  return story.branchId && Types.ObjectId.isValid(story.branchId) ? new Types.ObjectId(story.branchId) : story._id;
}

/** The part of a story filter that matches it only while it plays branch `branchId`. */
export function whilePlaying(storyId: Types.ObjectId, branchId: string): Record<string, unknown> {
  // The original line is stored as null until the story first left it, then as the story's id.
  return branchId === storyId.toHexString() ? { branchId: { $in: [null, branchId] } } : { branchId };
}
