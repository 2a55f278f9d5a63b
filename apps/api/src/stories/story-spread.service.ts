import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { AuthUser } from '../common/current-user.decorator';
import { isDuplicateKey } from '../common/database-errors';
import { StoryNumbersService } from './story-numbers.service';
import { StoryPlayer } from './story-player.schema';
import { StoryRepository, type CloneSource } from './story.repository';
import { textSnippets } from './story-text';
import type { StoryDocument, StoryState } from './story.schema';

// How many sources back a clone keeps crediting; deeper chains credit only the nearest ones.
export const MAX_LINEAGE = 32;

/**
 * How stories spread: making clones and crediting the stories they came from. Every counter moves
 * with single-document atomic updates; nothing here needs a transaction.
 */
@Injectable()
export class StorySpreadService {
  constructor(
    private readonly stories: StoryRepository,
    @InjectModel(StoryPlayer.name) private readonly players: Model<StoryPlayer>,
    private readonly numbers: StoryNumbersService,
  ) {}

  /** A private copy of `state` for `owner`, one level below `source`, crediting its sources. */
  async clone(source: CloneSource, state: StoryState, owner: AuthUser): Promise<StoryDocument> {
    const sourceId = source._id.toHexString();
    const lineage = [sourceId, ...(source.lineage ?? [])].slice(0, MAX_LINEAGE);
    const now = new Date();
    const story = await this.stories.create({
      ...state,
      ...textSnippets(state.main_text ?? ''),
      writer: owner.userName,
      user: owner.userID,
      // A clone starts clean: no restore point of its own yet.
      recovery_point: false,
      recovery_point_id: null,
      storyNo: await this.numbers.next(),
      userID: owner.userID,
      permission: '0',
      pinToTop: false,
      level: (source.level ?? 0) + 1,
      clonedFrom: source.storyNo,
      sourceStoryId: sourceId,
      rootStoryId: source.rootStoryId ?? sourceId,
      lineage,
      time: now,
    });
    await this.creditPlayer(lineage, owner.userID);
    return story;
  }

  /** Counts `player` once as a player of every source that is not their own. */
  private async creditPlayer(lineage: string[], player: string): Promise<void> {
    const sources = await this.stories.ownedByOthers(lineage, player);
    const at = new Date();
    for (const _id of sources) {
      if (await this.firstTime(_id.toHexString(), player, at)) await this.stories.countPlayer(_id);
    }
  }

  // The upsert decides who is first; on real MongoDB a concurrent duplicate raises 11000 instead.
  private async firstTime(storyId: string, userID: string, at: Date): Promise<boolean> {
    try {
      const result = await this.players
        .findOneAndUpdate(
          { storyId, userID },
          { $setOnInsert: { storyId, userID, at } },
          { upsert: true, includeResultMetadata: true },
        )
        .exec();
      return result.lastErrorObject?.updatedExisting === false;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /**
   * One accepted turn that added `addedChars` characters: the story's own counters, and the square
   * counters of every source not owned by the story's owner. Unknown ids are ignored.
   */
  async recordTurn(storyId: string | Types.ObjectId, addedChars: number): Promise<void> {
    if (!Types.ObjectId.isValid(storyId)) return;
    const added = Number.isFinite(addedChars) ? Math.max(0, Math.floor(addedChars)) : 0;
    await this.stories.recordTurn(storyId, added);
  }
}
