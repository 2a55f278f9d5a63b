import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { AuthUser } from '../common/current-user.decorator';
import { isDuplicateKey } from '../common/database-errors';
import { INSTANCE_TAG } from '../common/instance';
import { StoryCredits, type SourceCredit } from './story-credits.repository';
import { StoryNumbersService } from './story-numbers.service';
import { StoryPlayer } from './story-player.schema';
import { StoryRepository, type CloneSource } from './story.repository';
import { textSnippets } from './story-text';
import type { StoryDocument, StoryState } from './story.schema';

// How many sources back a clone keeps crediting; deeper chains credit only the nearest ones.
export const MAX_LINEAGE = 32;

/** A point of a clone or of a turn's credit, named for the crash tests (test/support/kill-switch.js). */
export type SpreadStep = 'cloned' | 'player-recorded' | 'sources-credited' | 'credit-paid';

/**
 * How stories spread: making clones and crediting the stories they came from. No transactions: each
 * step is one single-document atomic update, and what a crash can cut is recorded where it starts:
 *
 *   clone:  the clone is written with `playerDue` -> each source gets its player record (an upsert) ->
 *           its players counter is raised to the count of its records ($max: never short, never
 *           twice) -> `playerDue` is removed.
 *   a turn: the clone's text, own counters and the credit it owes (`creditsDue`) are one write
 *           (StoryRepository.append) -> each source counts it once (matched while its id is not in
 *           the source's `creditsApplied`, pushed there by the same write) -> the clone owes it no
 *           more -> the sources let go of its id.
 *
 * Every step can be repeated; SpreadRepairService runs what a dead process left, at start-up.
 */
@Injectable()
export class StorySpreadService {
  constructor(
    private readonly stories: StoryRepository,
    private readonly credits: StoryCredits,
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
      playerDue: INSTANCE_TAG,
    });
    this.fault('cloned');
    await this.countPlayer(story._id, lineage, owner.userID);
    return story;
  }

  /**
   * Counts `player` once as a player of every source of `clone` that is not their own, then marks the
   * clone done. Safe to repeat: a player record is one per (source, player), and a counter only rises
   * to the number of its records.
   */
  async countPlayer(clone: Types.ObjectId, lineage: string[], player: string): Promise<void> {
    const sources = await this.credits.ownedByOthers(lineage, player);
    const at = new Date();
    for (const _id of sources) {
      const storyId = _id.toHexString();
      await this.record(storyId, player, at);
      this.fault('player-recorded');
      await this.credits.countPlayers(_id, await this.players.countDocuments({ storyId }).exec());
    }
    await this.credits.playerCounted(clone);
  }

  /** An accepted turn of a clone counted on its sources, once each (see the class comment). Safe to repeat. */
  async creditTurn(credit: SourceCredit): Promise<void> {
    await this.credits.creditSources(credit);
    this.fault('sources-credited');
    await this.credits.creditPaid(credit.storyId, credit.due.id);
    this.fault('credit-paid');
    await this.credits.forgetCredit(credit.lineage, credit.due.id);
  }

  /** Test-only: the crash tests make the process die at these points (test/support/kill-switch.js). */
  fault(_step: SpreadStep): void {}

  // One player record per (source, player): an upsert; on real MongoDB a concurrent duplicate raises 11000 instead.
  private async record(storyId: string, userID: string, at: Date): Promise<void> {
    try {
      await this.players.updateOne({ storyId, userID }, { $setOnInsert: { storyId, userID, at } }, { upsert: true }).exec();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
}
