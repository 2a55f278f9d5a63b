import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode } from '@taleloom/contracts';
import { Model } from 'mongoose';
import { AppException } from '../common/app-exception';
import { isDuplicateKey } from '../common/database-errors';
import { Clock } from './clock';
import { counterId, RateLimitCounter } from './rate-limit.schema';

/** Hits on one counter waiting for the next turn of the event loop, counted by one update. */
interface Batch {
  hits: number;
  /** The counter after the batch's update. */
  after: Promise<number>;
}

/** A hit that was counted: `giveBack` uncounts it once (the action it counted did not happen, through no fault of the limit). */
export interface CountedHit {
  giveBack(): Promise<void>;
}

/**
 * Fixed-window limits stored in MongoDB, so they hold across instances. Hits on the same counter
 * that arrive in the same turn of the event loop (a user's sends opened together) are counted by one
 * `$inc` of their number: the k-th of them gets the count it would have had alone (the count after
 * the update, less the hits after it), so the limit is exactly what it would be with one update each.
 */
@Injectable()
export class RateLimitService {
  private readonly batches = new Map<string, Batch>();

  constructor(
    @InjectModel(RateLimitCounter.name) private readonly counters: Model<RateLimitCounter>,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one hit on `name`; throws `code` (429, with `params.seconds` until the window ends) once
   * more than `limit` hits fall in the window.
   */
  async hit(name: string, limit: number, windowSeconds: number, code: ErrorCode = ErrorCode.TOO_MANY_REQUESTS): Promise<CountedHit> {
    const now = this.clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const index = Math.floor(now / windowMs);
    const key = `${name}:${index}`;
    const expiresAt = new Date((index + 1) * windowMs);
    const counter = await this.count(key, expiresAt);
    if (counter > limit) {
      const seconds = Math.max(1, Math.ceil((expiresAt.getTime() - now) / 1000));
      throw new AppException(code, undefined, { seconds, retryAfterSeconds: seconds });
    }
    let given = false;
    return {
      giveBack: async () => {
        if (given) return;
        given = true;
        // One atomic decrement of this window's counter (never below zero); a window already over has nothing to give back.
        await this.counters.collection.updateOne({ _id: counterId(key), count: { $gt: 0 } }, { $inc: { count: -1 } });
      },
    };
  }

  // This hit's place in its counter (see the class comment).
  private async count(key: string, expiresAt: Date): Promise<number> {
    let batch = this.batches.get(key);
    if (!batch) {
      const open: Batch = { hits: 0, after: Promise.resolve(0) };
      open.after = new Promise<void>((next) => setImmediate(next)).then(() => {
        this.batches.delete(key);
        return upsertInc(this.counters, key, expiresAt, open.hits);
      });
      this.batches.set(key, open);
      batch = open;
    }
    const place = ++batch.hits;
    const after = await batch.after;
    return after - batch.hits + place;
  }
}

// One atomic $inc of `hits` by _id (the native driver: this is on the way to a generation's first
// token); two first hits can race to insert the same _id, so a duplicate retries once.
async function upsertInc(model: Model<RateLimitCounter>, key: string, expiresAt: Date, hits: number): Promise<number> {
  const run = () =>
    model.collection.findOneAndUpdate(
      { _id: counterId(key) },
      { $inc: { count: hits }, $setOnInsert: { key, expiresAt } },
      { upsert: true, returnDocument: 'after', projection: { count: 1 } },
    );
  try {
    return Number((await run())?.count);
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return Number((await run())?.count);
  }
}
