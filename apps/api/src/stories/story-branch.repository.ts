import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { BranchState, StoryBranch } from './story-branch.schema';

/** A branch as the list shows it (without its state, whose text can be long). */
export type BranchListFields = Omit<StoryBranch, 'state'> & { _id: Types.ObjectId };

/** A stored branch, whole. */
export type BranchRecord = StoryBranch & { _id: Types.ObjectId };

/** What a new branch document starts with. */
export type NewBranch = Pick<StoryBranch, 'no' | 'name' | 'forkedFrom' | 'forkAt' | 'forkExcerpt' | 'createdAt' | 'state' | 'charCount'>;

const WITHOUT_STATE = { state: 0 } as const;

/**
 * The `story_branches` collection: the branches of stories that are not being played (the story
 * document holds the played one). Every write is one single-document update (or insert) matched on
 * the branch's id and its story's and owner's ids, so nobody reaches another user's branches.
 */
@Injectable()
export class StoryBranchRepository {
  constructor(@InjectModel(StoryBranch.name) private readonly branches: Model<StoryBranch>) {}

  list(storyId: string, userID: string): Promise<BranchListFields[]> {
    return this.branches.find({ storyId, userID }, WITHOUT_STATE).sort({ no: 1 }).lean<BranchListFields[]>().exec();
  }

  count(storyId: string, userID: string): Promise<number> {
    return this.branches.countDocuments({ storyId, userID }).exec();
  }

  find(storyId: string, userID: string, branchId: string): Promise<BranchRecord | null> {
    if (!Types.ObjectId.isValid(branchId)) return Promise.resolve(null);
    return this.branches.findOne({ _id: new Types.ObjectId(branchId), storyId, userID }).lean<BranchRecord>().exec();
  }

  /** A new branch (its id chosen by the caller, so a retried insert finds it instead of making two). */
  async insert(storyId: string, userID: string, id: Types.ObjectId, branch: NewBranch): Promise<void> {
    await this.branches
      .updateOne({ _id: id, storyId, userID }, { $setOnInsert: { storyId, userID, ...branch } }, { upsert: true })
      .exec();
  }

  /**
   * Stores the state of a branch the story is leaving (its document is made if it has none: the
   * original line of a story that never branched), with when it was left.
   */
  async saveState(storyId: string, userID: string, branchId: string, state: BranchState, charCount: number, leftAt: number, defaults: { no: number; createdAt: number }): Promise<void> {
    await this.branches
      .updateOne(
        { _id: new Types.ObjectId(branchId), storyId, userID },
        {
          $set: { state, charCount, lastPlayedAt: leftAt },
          $setOnInsert: { storyId, userID, no: defaults.no, name: '', forkedFrom: null, forkAt: 0, forkExcerpt: '', createdAt: defaults.createdAt },
        },
        { upsert: true },
      )
      .exec();
  }

  /** Makes sure the branch has a document (the played original line of a story that is branching now). */
  async ensure(storyId: string, userID: string, branchId: string, defaults: { no: number; createdAt: number }): Promise<void> {
    await this.branches
      .updateOne(
        { _id: new Types.ObjectId(branchId), storyId, userID },
        { $setOnInsert: { storyId, userID, no: defaults.no, name: '', forkedFrom: null, forkAt: 0, forkExcerpt: '', createdAt: defaults.createdAt, state: null, charCount: 0, lastPlayedAt: null } },
        { upsert: true },
      )
      .exec();
  }

  /** Renames a branch; `upsert` for the original line, which may have no document yet. Answers whether it exists. */
  async rename(storyId: string, userID: string, branchId: string, name: string, upsert?: { no: number; createdAt: number }): Promise<boolean> {
    const result = await this.branches
      .updateOne(
        { _id: new Types.ObjectId(branchId), storyId, userID },
        {
          $set: { name },
          ...(upsert ? { $setOnInsert: { storyId, userID, no: upsert.no, forkedFrom: null, forkAt: 0, forkExcerpt: '', createdAt: upsert.createdAt, state: null, charCount: 0, lastPlayedAt: null } } : {}),
        },
        { upsert: Boolean(upsert) },
      )
      .exec();
    return result.matchedCount + (result.upsertedCount ?? 0) > 0;
  }

  async remove(storyId: string, userID: string, branchId: string): Promise<boolean> {
    const result = await this.branches.deleteOne({ _id: new Types.ObjectId(branchId), storyId, userID }).exec();
    return result.deletedCount === 1;
  }

  /** Whether a branch of `userID`'s references the picture (a picture of a branch not played now). */
  async referencesPicture(userID: string, pictureId: string): Promise<boolean> {
    return Boolean(await this.branches.exists({ userID, 'state.pictures.id': pictureId }).exec());
  }
}
