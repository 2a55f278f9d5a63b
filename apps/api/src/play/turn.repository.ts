import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { SEND_THROTTLE_MS, TAKES_PER_TURN_MAX } from '@taleloom/contracts';
import { Model, Types, type mongo } from 'mongoose';
import { bulkWritesTo } from '../common/batched-writes';
import { isDuplicateKey } from '../common/database-errors';
import { PlayTurn, type StoredTake } from './play-turn.schema';

/** What repair reads of a generating turn. */
export type GeneratingTurn = Pick<PlayTurn, '_id' | 'userID' | 'generationId' | 'holdId' | 'finalCost' | 'state' | 'heartbeatAt' | 'owner'>;

/** What a rejoined stream reads of its turn (TurnRepository.followed). */
export type FollowedTurn = Pick<
  PlayTurn,
  '_id' | 'userID' | 'generationId' | 'state' | 'role' | 'input' | 'userText' | 'aiText' | 'reasoning' | 'errorCode' | 'cost' | 'promptTokens' | 'completionTokens' | 'heartbeatAt' | 'finalCost'
>;
const FOLLOWED_FIELDS = {
  userID: 1, generationId: 1, state: 1, role: 1, input: 1, userText: 1, aiText: 1, reasoning: 1, errorCode: 1, cost: 1, promptTokens: 1, completionTokens: 1, heartbeatAt: 1, finalCost: 1,
};

/** The fields of a pending turn that accepting or dropping it clears (its takes too). */
export const IDLE_TURN = { state: 'idle', userText: '', aiText: '', reasoning: '', input: '', errorCode: null, holdId: null, takes: [] as StoredTake[] } as const;

// How long a change of branch may hold the turn before it is taken to be dead, and how long an
// accept may take between clearing the turn and appending it.
const SWITCH_LOCK_MS = 30_000;
const ACCEPT_FENCE_MS = 15_000;
// The per-second text flushes of running streams (all on one clock) in one bulk write at most.
const TEXT_WRITES_PER_BULK = 32;

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
  async claim(storyId: Types.ObjectId, userID: string, now: number, staleMs: number, set: Partial<PlayTurn>, addsTake = false): Promise<{ before: PlayTurn | null } | null> {
    try {
      // The native driver: this update is on the way to every generation's first token.
      const before = await this.turns.collection.findOneAndUpdate(
        {
          _id: storyId,
          userID,
          lastSendAt: { $lte: now - SEND_THROTTLE_MS },
          $or: [{ state: { $ne: 'generating' } }, { heartbeatAt: { $lt: now - staleMs } }],
          // A regenerate adds a take: only while the turn has room for one more.
          ...(addsTake ? { [`takes.${TAKES_PER_TURN_MAX - 1}`]: { $exists: false } } : {}),
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
    await this.textWrites.add({ updateOne: { filter: { _id: storyId, generationId }, update: { $set: { ...text, updatedAt: new Date() } } } });
  }

  // The flushes of every running generation that fall in one turn of the event loop: one bulk write.
  // At most TEXT_WRITES_PER_BULK to a bulk: a stream's text grows to kilobytes.
  private readonly textWrites = bulkWritesTo<mongo.Document>(this.turns.collection, TEXT_WRITES_PER_BULK);

  /**
   * The last write of generation `generationId`: its outcome, and (when it is done) its take added to
   * the turn's takes. Only while the turn still says generating, so a repeated write adds nothing.
   */
  async finish(storyId: Types.ObjectId, generationId: string, set: Partial<PlayTurn>, take: StoredTake | null): Promise<void> {
    // The native driver, with the updatedAt mongoose's timestamps would add (the stored document is
    // the same); the streams of a burst end together, so their last writes share a bulk write.
    const update: mongo.UpdateFilter<mongo.Document> = { $set: { ...set, updatedAt: new Date() } };
    if (take) update.$push = { takes: { ...take } } as mongo.Document;
    await this.finishes.add({ updateOne: { filter: { _id: storyId, generationId, state: 'generating' }, update } });
  }

  private readonly finishes = bulkWritesTo<mongo.Document>(this.turns.collection);

  /** Adds a take the turn had before takes were kept (its newest one), while generation `generationId` owns the turn. */
  async keepTake(storyId: Types.ObjectId, generationId: string, take: StoredTake): Promise<void> {
    await this.turns.updateOne({ _id: storyId, generationId, 'takes.turnId': { $ne: take.turnId } }, { $push: { takes: take } }).exec();
  }

  /**
   * Clears the pending turn of `generationId` (accepted or dropped); with `state`, only while it is in
   * that state; never while a change of branch holds the turn. With `fence`, the turn says an accept is
   * under way until it is lifted (see unfence). True when cleared.
   */
  async clear(storyId: Types.ObjectId, generationId: string | null, state?: PlayTurn['state'], fence?: number): Promise<boolean> {
    const now = Date.now();
    const filter = { _id: storyId, generationId, lastSendAt: { $lte: now }, ...(state === undefined ? {} : { state }) };
    const set = fence === undefined ? IDLE_TURN : { ...IDLE_TURN, acceptFence: fence };
    const cleared = await this.turns.updateOne(filter, { $set: set }).exec();
    return cleared.modifiedCount === 1;
  }

  /** A new fence for an accept that clears the turn now (see clear). */
  fence(): number {
    return Date.now() + ACCEPT_FENCE_MS;
  }

  /** The accept that set `fence` is over. */
  async unfence(storyId: Types.ObjectId, fence: number): Promise<void> {
    await this.turns.updateOne({ _id: storyId, acceptFence: fence }, { $set: { acceptFence: null } }).exec();
  }

  /** Whether a change of branch holds the turn now. */
  isHeld(turn: Pick<PlayTurn, 'switchLock' | 'lastSendAt'>, now: number): boolean {
    return Boolean(turn.switchLock) && Number(turn.lastSendAt ?? 0) > now;
  }

  /**
   * Holds the story's turn for a change of branch (`lockId` names the holder): no generation running
   * (a dead one may be held: it is closed next), no accept under way, no other change of branch. No send,
   * accept or undo can touch the turn until it is let go (or SWITCH_LOCK_MS pass: a holder that died).
   * Answers the turn as it was, or null when it cannot be held now.
   */
  async hold(storyId: Types.ObjectId, userID: string, lockId: string, staleMs: number): Promise<PlayTurn | null> {
    const now = Date.now();
    const before = await this.turns.collection.findOneAndUpdate(
      {
        _id: storyId,
        userID,
        lastSendAt: { $lte: now },
        $and: [
          { $or: [{ state: { $ne: 'generating' } }, { heartbeatAt: { $lt: now - staleMs } }] },
          { $or: [{ acceptFence: null }, { acceptFence: { $lt: now } }] },
        ],
      },
      { $set: { lastSendAt: now + SWITCH_LOCK_MS, switchLock: lockId, updatedAt: new Date(now) } },
      { returnDocument: 'before' },
    );
    return before as PlayTurn | null;
  }

  /** Lets go of a held turn, writing `set` with it (the branch it now belongs to and its pending turn). False when the hold was lost. */
  async letGo(storyId: Types.ObjectId, lockId: string, set: Partial<PlayTurn>): Promise<boolean> {
    const result = await this.turns.updateOne({ _id: storyId, switchLock: lockId }, { $set: { ...set, switchLock: null } }).exec();
    return result.matchedCount === 1;
  }

  /**
   * The turns of `storyIds` as a rejoined stream follows them from another process (what it needs:
   * its text, state and outcome); one read for every turn this process follows.
   */
  followed(storyIds: Types.ObjectId[]): Promise<FollowedTurn[]> {
    return this.turns.find({ _id: { $in: storyIds } }, FOLLOWED_FIELDS).lean<FollowedTurn[]>().exec();
  }

  /** Turns still marked generating (as many as generations run at once), at most `limit`. */
  generating(limit: number): Promise<GeneratingTurn[]> {
    return this.turns
      .find({ state: 'generating' }, { userID: 1, generationId: 1, holdId: 1, finalCost: 1, state: 1, heartbeatAt: 1, owner: 1 })
      .limit(limit)
      .lean<GeneratingTurn[]>()
      .exec();
  }

  /** Records how a dead generation ended (a whole one with its take), only while its turn still belongs to it and still says generating. */
  async closeGenerating(storyId: Types.ObjectId, generationId: string | null, set: Partial<PlayTurn>, take: StoredTake | null = null): Promise<void> {
    await this.turns.updateOne({ _id: storyId, generationId, state: 'generating' }, { $set: set, ...(take ? { $push: { takes: take } } : {}) }).exec();
  }
}
