import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { SEND_THROTTLE_MS } from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { isDuplicateKey } from '../common/database-errors';
import { PlayTurn } from './play-turn.schema';

/** What repair reads of a generating turn. */
export type GeneratingTurn = Pick<PlayTurn, '_id' | 'userID' | 'generationId' | 'holdId' | 'finalCost' | 'state' | 'heartbeatAt' | 'owner'>;

/** The fields of a pending turn that accepting or dropping it clears. */
export const IDLE_TURN = { state: 'idle', userText: '', aiText: '', reasoning: '', input: '', errorCode: null, holdId: null } as const;

/**
 * The `play_turns` collection: one document per story (its `_id` is the story's), holding its latest,
 * unaccepted turn, the send throttle and how far the summary covers the text. Every rule that must
 * hold across API instances (one generation at a time, one send per second) is one conditional
 * update here; a generation's own writes match on its generationId, so a late one changes nothing.
 */
@Injectable()
export class TurnRepository {
  constructor(@InjectModel(PlayTurn.name) private readonly turns: Model<PlayTurn>) {}

  /** A new story's turn document, so its first send is the same single update as every later one. */
  async create(storyId: Types.ObjectId, userID: string): Promise<void> {
    try {
      await this.turns.create({ _id: storyId, userID });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** The story's turn, when `userID` owns it (any owner without). */
  find(storyId: Types.ObjectId, userID?: string): Promise<PlayTurn | null> {
    return this.turns.findOne(userID === undefined ? { _id: storyId } : { _id: storyId, userID }).lean<PlayTurn>().exec();
  }

  /**
   * Claims the story's turn for a new generation when the throttle and the one-at-a-time rule allow
   * (a generating turn whose heartbeat is older than `staleMs` may be taken over). An upsert: the first
   * send on a story creates the document. Answers the turn as it was before (null when it was created),
   * or null when the claim is not allowed now (or the turn is someone else's).
   */
  async claim(storyId: Types.ObjectId, userID: string, now: number, staleMs: number, set: Partial<PlayTurn>): Promise<{ before: PlayTurn | null } | null> {
    try {
      // The native driver: this update is on the way to every generation's first token.
      const before = await this.turns.collection.findOneAndUpdate(
        {
          _id: storyId,
          userID,
          lastSendAt: { $lte: now - SEND_THROTTLE_MS },
          $or: [{ state: { $ne: 'generating' } }, { heartbeatAt: { $lt: now - staleMs } }],
        },
        { $set: { ...set, updatedAt: new Date(now) }, $setOnInsert: { summarizedChars: 0, createdAt: new Date(now) } },
        { upsert: true, returnDocument: 'before' },
      );
      return { before: before as PlayTurn | null };
    } catch (error) {
      // The document exists but may not be claimed now: the upsert's insert met its _id.
      if (isDuplicateKey(error)) return null;
      throw error;
    }
  }

  /** Puts a turn back as it was before a claim that must not stand (a turn the claim created goes away). */
  async restore(storyId: Types.ObjectId, before: PlayTurn | null, generationId: string): Promise<void> {
    if (!before) {
      await this.turns.deleteOne({ _id: storyId, generationId }).exec();
      return;
    }
    const { _id, ...fields } = before as PlayTurn & { createdAt?: unknown; updatedAt?: unknown };
    delete (fields as { createdAt?: unknown }).createdAt;
    delete (fields as { updatedAt?: unknown }).updatedAt;
    await this.turns.updateOne({ _id, generationId }, { $set: fields }).exec();
  }

  /** A write of generation `generationId` on its turn (nothing when another generation owns the turn now). */
  async write(storyId: Types.ObjectId, generationId: string, set: Partial<PlayTurn>): Promise<void> {
    await this.turns.updateOne({ _id: storyId, generationId }, { $set: set }).exec();
  }

  /**
   * A running generation's text so far (every second for every open stream): the native driver, with
   * the updatedAt mongoose's timestamps would add; mongoose's casting and cloning of this write cost
   * more than the driver's own work (bench:flush). The stored document is the same, BSON types included.
   */
  async writeText(storyId: Types.ObjectId, generationId: string, text: Pick<PlayTurn, 'userText' | 'aiText' | 'reasoning' | 'heartbeatAt'>): Promise<void> {
    await this.turns.collection.updateOne({ _id: storyId, generationId }, { $set: { ...text, updatedAt: new Date() } });
  }

  /** Clears the pending turn of `generationId` (accepted or dropped); with `state`, only while it is in that state. True when cleared. */
  async clear(storyId: Types.ObjectId, generationId: string | null, state?: PlayTurn['state']): Promise<boolean> {
    const filter = state === undefined ? { _id: storyId, generationId } : { _id: storyId, generationId, state };
    const cleared = await this.turns.updateOne(filter, { $set: IDLE_TURN }).exec();
    return cleared.modifiedCount === 1;
  }

  /** main_text[0, chars) is now covered by the story's previous_summary. */
  async setSummarized(storyId: Types.ObjectId, chars: number): Promise<void> {
    await this.turns.updateOne({ _id: storyId }, { $set: { summarizedChars: chars } }).exec();
  }

  /** Turns still marked generating (as many as generations run at once), at most `limit`. */
  generating(limit: number): Promise<GeneratingTurn[]> {
    return this.turns
      .find({ state: 'generating' }, { userID: 1, generationId: 1, holdId: 1, finalCost: 1, state: 1, heartbeatAt: 1, owner: 1 })
      .limit(limit)
      .lean<GeneratingTurn[]>()
      .exec();
  }

  /** Records how a dead generation ended, only while its turn still belongs to it and still says generating. */
  async closeGenerating(storyId: Types.ObjectId, generationId: string | null, set: Partial<PlayTurn>): Promise<void> {
    await this.turns.updateOne({ _id: storyId, generationId, state: 'generating' }, { $set: set }).exec();
  }
}
