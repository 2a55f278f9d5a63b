import { BRANCHES_PER_STORY_MAX, type BranchesData, type BranchView } from '@taleloom/contracts';
import type { Types } from 'mongoose';
import { playedBranchId } from '../stories/played-branch';
import type { BranchListFields } from '../stories/story-branch.repository';

/** What the list reads of the story: which branch it plays and how long that branch is. */
export interface PlayedStory {
  _id: Types.ObjectId;
  branchId?: string | null;
  charCount?: number;
  createdAt?: Date | string | number;
}

// The stand-in's file storage hands dates back as strings.
export const epochMs = (d: Date | string | number | null | undefined): number => (d ? new Date(d).getTime() || 0 : 0);

/**
 * The branches of a story, oldest first. The played one is described from the story (its text is
 * there); a story that never branched has one branch, its original line, with no document yet.
 */
export function toBranchesData(story: PlayedStory, docs: readonly BranchListFields[]): BranchesData {
  const current = playedBranchId(story);
  const byId = new Map(docs.map((d) => [d._id.toHexString(), d]));
  const rows: BranchView[] = docs.map((d) => {
    const id = d._id.toHexString();
    const parent = d.forkedFrom ? byId.get(d.forkedFrom) : undefined;
    return {
      id,
      no: d.no,
      name: d.name ?? '',
      current: id === current,
      forkedFrom: d.forkedFrom
        ? { parentId: d.forkedFrom, parentNo: parent?.no ?? null, parentName: parent ? (parent.name ?? '') : null, at: d.forkAt ?? 0, excerpt: d.forkExcerpt ?? '' }
        : null,
      length: id === current ? (story.charCount ?? 0) : (d.charCount ?? 0),
      lastPlayedAt: id === current ? null : (d.lastPlayedAt ?? null),
      createdAt: epochMs(d.createdAt),
    };
  });
  if (!byId.has(current)) {
    rows.unshift({ id: current, no: 1, name: '', current: true, forkedFrom: null, length: story.charCount ?? 0, lastPlayedAt: null, createdAt: epochMs(story.createdAt) });
  }
  return { branches: rows.sort((a, b) => a.no - b.no), current, max: BRANCHES_PER_STORY_MAX };
}
