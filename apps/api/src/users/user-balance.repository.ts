import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types, type mongo } from 'mongoose';
import { BatchedReads } from '../common/batched-reads';
import { bulkWritesTo, everyModified, type BatchedWrites } from '../common/batched-writes';
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
 * each is one single-document update through the native driver (on the path of every paid send). The
 * reads, decisions and forgets of the sends in one turn of the event loop (a burst's holds, the
 * settles of streams that end together) go out together: one `find` by `_id`, one bulk write each
 * (every operation in it applied as it would be alone).
 */
@Injectable()
export class UserBalances {
  private readonly users: mongo.Collection<User>;
  private readonly reads: BatchedReads<BalanceView>;
  private readonly decisions: BatchedWrites<mongo.AnyBulkWriteOperation<User>, boolean>;
  private readonly forgets: BatchedWrites<mongo.AnyBulkWriteOperation<User>>;

  constructor(@InjectModel(User.name) model: Model<User>) {
    this.users = model.collection as unknown as mongo.Collection<User>;
    this.reads = new BatchedReads((ids) => this.users.find({ _id: { $in: ids } } as never, { projection: BALANCE_PROJECTION }).toArray() as unknown as Promise<BalanceView[]>);
    this.decisions = bulkWritesTo(this.users, Infinity, everyModified);
    this.forgets = bulkWritesTo(this.users);
  }

  /** Read after the call (with the other reads of this turn): never an earlier answer. */
  read(userID: string): Promise<BalanceView | null> {
    return this.reads.get(oid(userID));
  }

  /** Moves the balance's fence: any decision prepared against the old fence can no longer match. */
  async bumpFence(userID: string): Promise<void> {
    await this.users.updateOne({ _id: oid(userID) }, { $inc: { powerFence: 1 } } as never);
  }

  /**
   * Decides entry `entryId` once: matched only while the id is in neither list, the fence is `fence`
   * and (with `min`) the points are at least `min.points` (or, to void for too little, below it).
   * True when this call decided it; false when it did not, or when that is not known (a bulk of several
   * in which some did not change their document): the caller reads the balance again either way, and
   * finds its entry's id on it when it was decided after all.
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
    return this.decisions.add({ updateOne: { filter: filter as never, update: update as never } });
  }

  /** Drops a marked entry's id from the list that decided it. */
  async forget(userID: string, entryId: string, decided: 'applied' | 'voided'): Promise<void> {
    await this.forgets.add({
      updateOne: { filter: { _id: oid(userID) } as never, update: { $pull: decided === 'applied' ? { powerApplied: entryId } : { powerVoided: entryId } } as never },
    });
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
