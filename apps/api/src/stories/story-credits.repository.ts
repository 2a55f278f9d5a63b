import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Story, type TurnCredit } from './story.schema';

/** What an append answers: the text written, its revision, and what the story's sources are owed (null: none). */
export interface Appended {
  text: string;
  appended: string;
  stateRev: number;
  credit: SourceCredit | null;
}

/** An accepted turn of a clone, owed to its sources. */
export interface SourceCredit {
  storyId: Types.ObjectId;
  /** The clone's owner: sources of theirs are not credited. */
  userID: string;
  lineage: string[];
  due: TurnCredit;
}

/** A clone with spread work left (repair). */
export type SpreadDueRow = Pick<Story, 'userID' | 'lineage' | 'creditsDue' | 'playerDue' | 'createdAt'> & { _id: Types.ObjectId };

/**
 * The square's counters on the `stories` collection (players, rounds and characters a story's clones
 * brought it) and the records that make them exact after a crash: a clone's `playerDue`, its
 * `creditsDue`, and a source's `creditsApplied` (see StorySpreadService). Each write is one
 * single-document atomic update (an `updateMany` is one such update per source).
 */
@Injectable()
export class StoryCredits {
  constructor(@InjectModel(Story.name) private readonly stories: Model<Story>) {}

  /** Of these sources, the ids of those someone other than `userID` owns. */
  async ownedByOthers(ids: string[], userID: string): Promise<Types.ObjectId[]> {
    const rows = await this.stories.find({ _id: { $in: ids }, userID: { $ne: userID } }, { _id: 1 }).lean().exec();
    return rows.map((r) => r._id);
  }

  /** The players counter of a source is at least `players` (the count of its player records: never short, never counted twice). */
  async countPlayers(id: Types.ObjectId, players: number): Promise<void> {
    await this.stories.updateOne({ _id: id }, { $max: { unique_user_count: players } }).exec();
  }

  /** The clone's player was counted on every source (see StorySpreadService.clone). */
  async playerCounted(id: Types.ObjectId): Promise<void> {
    await this.stories.updateOne({ _id: id }, { $unset: { playerDue: '' } }).exec();
  }

  /**
   * One accepted turn of a clone, counted on each of its sources not owned by the clone's owner that
   * did not count it yet (each source's write is atomic: matched while the credit's id is not on it).
   */
  async creditSources(credit: SourceCredit): Promise<void> {
    await this.stories
      .updateMany(
        { _id: { $in: credit.lineage }, userID: { $ne: credit.userID }, creditsApplied: { $ne: credit.due.id } },
        { $inc: { penetration_story_total_rounds: 1, additional_story_count: credit.due.chars }, $push: { creditsApplied: credit.due.id } },
      )
      .exec();
  }

  /** The clone owes this credit no more (every source counted it). */
  async creditPaid(storyId: Types.ObjectId, creditId: string): Promise<void> {
    await this.stories.updateOne({ _id: storyId }, { $pull: { creditsDue: { id: creditId } } }).exec();
  }

  /** The sources let go of a credit's id (the clone no longer owes it, so it cannot be counted again). */
  async forgetCredit(sources: string[], creditId: string): Promise<void> {
    await this.stories.updateMany({ _id: { $in: sources }, creditsApplied: creditId }, { $pull: { creditsApplied: creditId } }).exec();
  }

  /** Repair: clones with credits not yet counted on their sources, and clones whose player is not counted yet. */
  async spreadDue(limit: number): Promise<{ credits: SpreadDueRow[]; players: SpreadDueRow[]; leftovers: { _id: Types.ObjectId; creditsApplied: string[] }[] }> {
    const projection = { userID: 1, lineage: 1, creditsDue: 1, playerDue: 1, createdAt: 1 };
    const [credits, players, leftovers] = await Promise.all([
      this.stories.find({ 'creditsDue.0': { $exists: true } }, projection).limit(limit).lean<SpreadDueRow[]>().exec(),
      this.stories.find({ playerDue: { $exists: true } }, projection).limit(limit).lean<SpreadDueRow[]>().exec(),
      this.stories.find({ 'creditsApplied.0': { $exists: true } }, { creditsApplied: 1 }).limit(limit).lean<{ _id: Types.ObjectId; creditsApplied: string[] }[]>().exec(),
    ]);
    return { credits, players, leftovers };
  }

  /** Of these credit ids, those their clone still owes. */
  async stillDue(creditIds: string[]): Promise<Set<string>> {
    const clones = [...new Set(creditIds.map((c) => c.split(':')[0]).filter((c) => Types.ObjectId.isValid(c)))];
    const rows = await this.stories.find({ _id: { $in: clones } }, { creditsDue: 1 }).lean<{ creditsDue?: TurnCredit[] }[]>().exec();
    return new Set(rows.flatMap((r) => (r.creditsDue ?? []).map((d) => d.id)));
  }
}
