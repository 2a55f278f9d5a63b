import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode } from '@taleloom/contracts';
import { Model } from 'mongoose';
import { AppException } from '../common/app-exception';
import { isDuplicateKey } from '../common/database-errors';
import { Clock } from './clock';
import { counterId, RateLimitCounter } from './rate-limit.schema';

/** Fixed-window limits stored in MongoDB, so they hold across instances. */
@Injectable()
export class RateLimitService {
  constructor(
    @InjectModel(RateLimitCounter.name) private readonly counters: Model<RateLimitCounter>,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one hit on `name`; throws `code` (429, with `params.seconds` until the window ends) once
   * more than `limit` hits fall in the window.
   */
  async hit(name: string, limit: number, windowSeconds: number, code: ErrorCode = ErrorCode.TOO_MANY_REQUESTS): Promise<void> {
    const now = this.clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const index = Math.floor(now / windowMs);
    const key = `${name}:${index}`;
    const expiresAt = new Date((index + 1) * windowMs);
    const counter = await upsertInc(this.counters, key, expiresAt);
    if (counter > limit) {
      const seconds = Math.max(1, Math.ceil((expiresAt.getTime() - now) / 1000));
      throw new AppException(code, undefined, { seconds, retryAfterSeconds: seconds });
    }
  }
}

// One atomic $inc by _id (the native driver: this is on the way to a generation's first token); two
// first hits can race to insert the same _id, so a duplicate retries once.
async function upsertInc(model: Model<RateLimitCounter>, key: string, expiresAt: Date): Promise<number> {
  const run = () =>
    model.collection.findOneAndUpdate(
      { _id: counterId(key) },
      { $inc: { count: 1 }, $setOnInsert: { key, expiresAt } },
      { upsert: true, returnDocument: 'after', projection: { count: 1 } },
    );
  try {
    return Number((await run())?.count);
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return Number((await run())?.count);
  }
}
