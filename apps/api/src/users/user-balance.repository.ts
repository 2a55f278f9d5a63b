import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types, type mongo } from 'mongoose';
import { User } from './user.schema';

/** What a movement of power needs to know of a balance. */
export interface BalanceView {
  _id: Types.ObjectId;
  points: number;
  powerApplied?: string[];
  powerVoided?: string[];
  powerFence?: number;
}

/** How a ledger entry is decided on a balance: its points applied, or voided. */
export type BalanceDecision = { apply: number } | 'void';

const BALANCE_PROJECTION = { points: 1, powerApplied: 1, powerVoided: 1, powerFence: 1 } as const;

const oid = (hex: string) => new Types.ObjectId(hex);
const fenceIs = (fence: number | undefined) =>
  fence === undefined ? { powerFence: { $exists: false } } : { powerFence: fence };

/**
 * The balance fields of the `users` collection (`points` and the ledger's bookkeeping beside it).
 * Only the power ledger calls this (power/ledger.repository.ts says how a movement uses these steps);
 * each is one single-document update through the native driver (on the path of every paid send).
 */
@Injectable()
export class UserBalances {
  private readonly users: mongo.Collection<User>;

  constructor(@InjectModel(User.name) model: Model<User>) {
    this.users = model.collection as unknown as mongo.Collection<User>;
  }

  read(userID: string): Promise<BalanceView | null> {
    return this.users.findOne({ _id: oid(userID) }, { projection: BALANCE_PROJECTION }) as Promise<BalanceView | null>;
  }

  /** Moves the balance's fence: any decision prepared against the old fence can no longer match. */
  async bumpFence(userID: string): Promise<void> {
    await this.users.updateOne({ _id: oid(userID) }, { $inc: { powerFence: 1 } } as never);
  }

  /**
   * Decides entry `entryId` once: matched only while the id is in neither list, the fence is `fence`
   * and (with `min`) the points are at least `min.points` (or, to void for too little, below it).
   * True when this call decided it.
   */
  async decide(userID: string, entryId: string, fence: number | undefined, decision: BalanceDecision, min?: { points: number; covered: boolean }): Promise<boolean> {
    const filter = {
      _id: oid(userID),
      powerApplied: { $ne: entryId },
      powerVoided: { $ne: entryId },
      ...fenceIs(fence),
      ...(min ? { points: min.covered ? { $gte: min.points } : { $lt: min.points } } : {}),
    };
    const update = decision === 'void' ? { $push: { powerVoided: entryId } } : { $inc: { points: decision.apply }, $push: { powerApplied: entryId } };
    const result = await this.users.updateOne(filter, update as never);
    return result.modifiedCount === 1;
  }

  /** Drops a marked entry's id from the list that decided it. */
  async forget(userID: string, entryId: string, decided: 'applied' | 'voided'): Promise<void> {
    await this.users.updateOne({ _id: oid(userID) }, {
      $pull: decided === 'applied' ? { powerApplied: entryId } : { powerVoided: entryId },
    } as never);
  }

  /** Users with ids left in either list (a crash between marking an entry and forgetting its id), at most `limit`. */
  async withLeftovers(limit: number): Promise<string[]> {
    const users = await this.users
      .find({ $or: [{ 'powerApplied.0': { $exists: true } }, { 'powerVoided.0': { $exists: true } }] } as never, { projection: { _id: 1 } })
      .limit(limit)
      .toArray();
    return users.map((u) => String(u._id));
  }

  /** Drops these ids from both lists (repair of a crash between marking and forgetting). */
  async forgetAll(userID: string, entryIds: string[]): Promise<void> {
    await this.users.updateOne({ _id: oid(userID) }, { $pullAll: { powerApplied: entryIds, powerVoided: entryIds } } as never);
  }
}
