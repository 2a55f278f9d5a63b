import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { createHash } from 'node:crypto';
import { Model, Types } from 'mongoose';
import { ParkedTurn, type ParkedFields } from './parked-turn.schema';

// One document per (story, branch): its id is derived from both, so parking the same turn twice writes one document.
function parkedId(storyId: string, branchId: string): Types.ObjectId {
  return new Types.ObjectId(createHash('sha256').update(`parked-turn:${storyId}:${branchId}`).digest().subarray(0, 12));
}

/** The `parked_turns` collection: pending turns of branches that are not being played (single-document writes). */
@Injectable()
export class ParkedTurnRepository {
  constructor(@InjectModel(ParkedTurn.name) private readonly parked: Model<ParkedTurn>) {}

  /** Keeps the branch's pending turn (replacing what was kept for it). */
  async park(storyId: string, branchId: string, userID: string, turn: ParkedFields): Promise<void> {
    await this.parked
      .updateOne({ _id: parkedId(storyId, branchId) }, { $set: { storyId, branchId, userID, turn, parkedAt: Date.now() } }, { upsert: true })
      .exec();
  }

  async find(storyId: string, branchId: string, userID: string): Promise<ParkedFields | null> {
    const doc = await this.parked.findOne({ _id: parkedId(storyId, branchId), userID }).lean<ParkedTurn>().exec();
    return doc?.turn ?? null;
  }

  async remove(storyId: string, branchId: string, userID: string): Promise<void> {
    await this.parked.deleteOne({ _id: parkedId(storyId, branchId), userID }).exec();
  }
}
