import { createHash } from 'node:crypto';
import { Types } from 'mongoose';

/**
 * The _id of a save slot, derived from the story and the slot number. Every save of one slot targets the
 * same document, so slot occupancy rests on the always-unique _id and a single-document upsert,
 * not on a secondary unique index (which the offline stand-in does not enforce).
 */
export function archiveSlotId(storyId: string, archiveIndex: number): Types.ObjectId {
  const digest = createHash('sha256').update(`story-archive:${storyId}:${archiveIndex}`).digest();
  return new Types.ObjectId(digest.subarray(0, 12));
}
