import type { Model } from 'mongoose';
import type { RoyaltyRecipient } from '../power/power.service';
import type { Story } from './story.schema';

/**
 * Whom power spent on a story pays a royalty: the author of the nearest story it was cloned from
 * that someone else owns (a clone of a public story). Null for originals and own clones.
 */
export async function royaltyRecipientOf(
  stories: Model<Story>,
  story: Pick<Story, 'userID' | 'lineage'>,
): Promise<RoyaltyRecipient | null> {
  if (!story.lineage?.length) return null;
  const sources = await stories
    .find({ _id: { $in: story.lineage }, userID: { $ne: story.userID } }, { userID: 1, name: 1 })
    .lean()
    .exec();
  const byId = new Map(sources.map((s) => [s._id.toHexString(), s]));
  for (const id of story.lineage) {
    const source = byId.get(String(id));
    if (source) return { authorUserID: source.userID, storyID: source._id.toHexString(), storyName: source.name ?? '' };
  }
  return null;
}
