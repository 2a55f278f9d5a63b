import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode } from '@taleloom/contracts';
import { randomUUID } from 'node:crypto';
import { Model, Types, type mongo } from 'mongoose';
import { AppException } from '../common/app-exception';
import { BatchedReads } from '../common/batched-reads';
import { bulkWritesTo, everyModified, type BatchedWrites } from '../common/batched-writes';
import { isDuplicateKey } from '../common/database-errors';
import { UserBalances, type BalanceView } from '../users/user-balance.repository';
import { LedgerEntry, type LedgerEntryState } from './ledger-entry.schema';
import { ledgerEntryIdBytes } from './ledger-entry-id';

/** Points where tests make the process "die" (see PowerService.faults). */
export type FaultStep =
  | 'entry-created'
  | 'user-updated'
  | 'entry-marked'
  | 'royalty-created'
  | 'settle-applied'
  | 'royalty-applied';
export type FaultHook = (step: FaultStep, entry: LedgerEntry) => void;

export type { BalanceView };

export type Outcome = Exclude<LedgerEntryState, 'pending'>;

export interface DecideOptions {
  /** A hold: apply only while the balance covers this much, else void. */
  minPoints?: number;
  /** Repair of a hold whose caller is gone: void it unless it was already applied. */
  voidIfUnresolved?: boolean;
  /** Take over a claim taken before this instant, epoch ms (default: older than CLAIM_MS). */
  takeoverBefore?: number;
  /**
   * Answer as soon as the balance document has decided, and record the decision on the entry in the
   * background (used by holds, whose caller waits on them before calling a provider). Safe: until the
   * entry is marked, its id on the balance document says how it was decided (verify and repair read it).
   */
  markLater?: boolean;
}

/** A claim older than this belongs to a process presumed dead: another may take the entry over. */
export const CLAIM_MS = 30_000;
const MAX_ATTEMPTS = 200;
const WAIT_STEP_MS = 10;
const REPAIR_WAIT_MS = 5000;

const has = (ids: string[] | undefined, id: string) => !!ids?.includes(id);
const oid = (hex: string) => new Types.ObjectId(hex);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The `ledger_entries` collection, and the single-document steps every movement is made of (the
 * design is described in power.service.ts). Only this class moves a balance (through UserBalances).
 * The steps of the movements in one turn of the event loop (a burst's holds, the settles of streams
 * that end together) go out together: the inserts, the marks and the hints each as one unordered bulk
 * write, the reads by `_id` as one `find`; every step is still its own single-document write.
 */
@Injectable()
export class LedgerRepository {
  faults?: FaultHook;
  readonly entries: mongo.Collection<LedgerEntry>;
  private readonly reads: BatchedReads<LedgerEntry>;
  private readonly inserts: BatchedWrites<mongo.AnyBulkWriteOperation<LedgerEntry>>;
  private readonly marks: BatchedWrites<mongo.AnyBulkWriteOperation<LedgerEntry>, boolean>;
  private readonly hints: BatchedWrites<mongo.AnyBulkWriteOperation<LedgerEntry>>;

  constructor(
    @InjectModel(LedgerEntry.name) entryModel: Model<LedgerEntry>,
    readonly balances: UserBalances,
  ) {
    this.entries = entryModel.collection as unknown as mongo.Collection<LedgerEntry>;
    this.reads = new BatchedReads((ids) => this.entries.find({ _id: { $in: ids } }).toArray());
    this.inserts = bulkWritesTo(this.entries);
    this.marks = bulkWritesTo(this.entries, Infinity, everyModified);
    this.hints = bulkWritesTo(this.entries);
  }

  /** The entry id of a movement: the same (user, namespace, key) always gives the same id. */
  static entryId(userID: Types.ObjectId | string, namespace: string, key: string): Types.ObjectId {
    return new Types.ObjectId(ledgerEntryIdBytes(userID, namespace, key));
  }

  fault(step: FaultStep, entry: LedgerEntry): void {
    this.faults?.(step, entry);
  }

  readBalance(userID: string): Promise<BalanceView | null> {
    return this.balances.read(userID);
  }

  /** Read after the call (with the other reads of this turn): never an earlier answer. */
  find(id: Types.ObjectId): Promise<LedgerEntry | null> {
    return this.reads.get(id);
  }

  /** Sets fields of an entry that are not money (a story's name, a hold's `closed` hint for repair). */
  async hint(id: Types.ObjectId, filter: mongo.Filter<LedgerEntry>, set: Partial<LedgerEntry> & Record<string, unknown>): Promise<void> {
    await this.hints.add({ updateOne: { filter: { ...filter, _id: id }, update: { $set: set } } });
  }

  /**
   * Inserts a pending entry claimed by the caller; when its id exists already (a retry or a race)
   * answers the stored entry and no claim.
   */
  async insertClaimed(entry: LedgerEntry): Promise<{ entry: LedgerEntry; claim: string | null }> {
    const claim = randomUUID();
    const claimed = { ...entry, claim, claimedAt: Date.now() };
    try {
      await this.inserts.add({ insertOne: { document: claimed } });
      return { entry: claimed, claim };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const stored = await this.find(entry._id);
    if (!stored) throw new Error(`ledger entry ${entry._id.toHexString()} vanished`);
    return { entry: stored, claim: null };
  }

  /**
   * Brings an entry to its final state: with `claim`, by deciding it; without, by waiting for its
   * claimant, or taking it over once the claim is stale. Safe however often and concurrently it runs.
   */
  async settleEntry(
    entry: LedgerEntry,
    claim: string | null,
    options: DecideOptions & { fresh?: BalanceView } = {},
  ): Promise<Outcome> {
    if (claim) return this.decide(entry, claim, options, options.fresh);
    const started = Date.now();
    for (;;) {
      const stored = await this.find(entry._id);
      if (!stored) throw new Error(`ledger entry ${entry._id.toHexString()} vanished`);
      if (stored.state !== 'pending') return stored.state;
      const before = options.takeoverBefore ?? Date.now() - CLAIM_MS;
      // Repair (a fixed instant) does not wait for a live claimant: its next pass looks again.
      if (options.takeoverBefore && Date.now() - started > REPAIR_WAIT_MS) throw new Error('ledger entry busy');
      if ((stored.claimedAt ?? 0) <= before) {
        const mine = await this.takeOver(stored, before);
        if (mine) return this.decide(stored, mine, options);
      } else {
        await sleep(WAIT_STEP_MS);
      }
    }
  }

  // Claims an entry whose claimant is presumed dead, then bumps the balance's fence so that any write
  // that claimant prepared can no longer match.
  private async takeOver(entry: LedgerEntry, before: number): Promise<string | null> {
    const claim = randomUUID();
    const taken = await this.entries.updateOne(
        { _id: entry._id, state: 'pending', claim: entry.claim, claimedAt: { $lte: before } },
        { $set: { claim, claimedAt: Date.now() } },
      );
    if (taken.modifiedCount !== 1) return null;
    await this.balances.bumpFence(entry.userID);
    return claim;
  }

  /**
   * The decision, made once on the balance document: apply (`$inc points`, `$push powerApplied`) or
   * void (`$push powerVoided`), matched only while the id is in neither list and the fence is the one
   * read before the caller last confirmed it holds the claim.
   */
  private async decide(
    entry: LedgerEntry,
    claim: string,
    options: DecideOptions,
    fresh?: BalanceView,
  ): Promise<Outcome> {
    const id = entry._id.toHexString();
    let view: BalanceView | null | undefined = fresh;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (!view) {
        // Balance first, claim second: a takeover after this read bumps the fence we read.
        view = await this.readBalance(entry.userID);
        const stored = await this.find(entry._id);
        if (!stored) throw new Error(`ledger entry ${id} vanished`);
        if (stored.state !== 'pending') return stored.state;
        if (stored.claim !== claim) return this.settleEntry(entry, null, options);
        if (!view) return this.mark(entry, claim, 'voided');
        if (has(view.powerApplied, id)) return this.mark(entry, claim, 'applied');
        if (has(view.powerVoided, id)) return this.mark(entry, claim, 'voided');
      }
      const min = options.minPoints;
      const voiding = options.voidIfUnresolved === true || (min !== undefined && view.points < min);
      // Matched only while the id is in neither list and the fence is the one read (and, for a hold, on the points).
      const decided = await this.balances.decide(
        entry.userID,
        id,
        view.powerFence,
        voiding ? 'void' : { apply: entry.points },
        min !== undefined && !options.voidIfUnresolved ? { points: min, covered: !voiding } : undefined,
      );
      if (decided) {
        this.fault('user-updated', entry);
        const outcome: Outcome = voiding ? 'voided' : 'applied';
        if (!options.markLater) return this.mark(entry, claim, outcome);
        void this.mark(entry, claim, outcome).catch(() => undefined);
        return outcome;
      }
      // The fence moved, the balance changed, or the user is gone: look again.
      view = undefined;
    }
    throw new AppException(ErrorCode.TOO_MANY_REQUESTS);
  }

  // Records the decision on the entry, then drops its id from the balance document: once marked, no
  // claimant can decide it again (a stale one is fenced out), so the id is no longer needed there.
  private async mark(entry: LedgerEntry, claim: string, state: Outcome): Promise<Outcome> {
    const all = await this.marks.add({ updateOne: { filter: { _id: entry._id, state: 'pending', claim }, update: { $set: { state, resolvedAt: new Date() } } } });
    // A bulk in which some mark did not land: this one did when the entry says so under this claim
    // (only the claimant marks; a takeover changes the claim first).
    if (!all) {
      const stored = await this.find(entry._id);
      if (stored?.state !== state || stored.claim !== claim) return state;
    }
    this.fault('entry-marked', entry);
    await this.balances.forget(entry.userID, entry._id.toHexString(), state);
    return state;
  }

  /** Marks the hold a settle or release closed (a hint for repair, not money). */
  async closeHold(close: LedgerEntry): Promise<void> {
    await this.hint(oid(close.holdID!), {}, { closed: true });
  }

  /** Drops ids of marked entries a crash left on a balance document (repair). */
  async trim(userID: string): Promise<void> {
    const view = await this.readBalance(userID);
    const ids = [...(view?.powerApplied ?? []), ...(view?.powerVoided ?? [])];
    if (ids.length === 0) return;
    const done = await this.entries.find({ _id: { $in: ids.map(oid) }, state: { $ne: 'pending' } }, { projection: { _id: 1 } }).toArray();
    if (done.length === 0) return;
    const doneIds = done.map((d) => d._id.toHexString());
    await this.balances.forgetAll(userID, doneIds);
  }
}
