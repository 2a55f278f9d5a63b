import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Counter, STORY_NO_COUNTER } from './counter.schema';
import { isDuplicateKey } from '../common/database-errors';

/** Hands out the short sequential story numbers (`storyNo`) that clones show as `S{clonedFrom}`. */
@Injectable()
export class StoryNumbersService {
  constructor(@InjectModel(Counter.name) private readonly counters: Model<Counter>) {}

  /** One atomic `$inc` upsert: concurrent callers always get distinct numbers. */
  async next(): Promise<number> {
    try {
      return await this.increment();
    } catch (error) {
      // Two first-ever upserts on real MongoDB: the unique index refuses one; the retry finds the document.
      if (!isDuplicateKey(error)) throw error;
      return this.increment();
    }
  }

  /** Makes sure later numbers start above `atLeast` (used after bulk seeding). */
  async raiseTo(atLeast: number): Promise<void> {
    await this.counters.updateOne({ name: STORY_NO_COUNTER }, { $max: { seq: atLeast } }, { upsert: true }).exec();
  }

  private async increment(): Promise<number> {
    const counter = await this.counters
      .findOneAndUpdate({ name: STORY_NO_COUNTER }, { $inc: { seq: 1 } }, { upsert: true, new: true })
      .lean()
      .exec();
    return counter!.seq;
  }
}
