// The power ledger. Every movement of a balance is one ledger entry whose _id is derived from
// (user, namespace, idempotency key), so a retry or a concurrent twin finds the same entry.
// An entry is inserted `pending` and claimed (a random token) by the call that inserted it. The claimant
// decides it with ONE conditional update of the user document: `$inc points` + `$push powerApplied: id`
// (or `$push powerVoided: id` for a hold the balance cannot cover), matched only while the id is in
// neither list, the balance covers a hold (`points >= max`) and `powerFence` equals the value read
// before the claimant last confirmed its claim. Then it marks the entry applied/voided and `$pull`s the id.
// Others wait for the claimant; a claim older than 30 s (a dead process) is taken over, and the taker
// bumps `powerFence` first, so a write the dead claimant had prepared can never land after the takeover.
// No transactions: each step is one atomic single-document write, and a crash between steps leaves a
// pending entry that repair (ledger-repair.service.ts, at start-up and every minute) finishes or voids.
// Holds reserve the maximum (`-max`, hidden from the record); settle writes the one closing entry of the
// hold (`+max - cost`, shown as `-cost`) carrying the royalty owed, which lands as a second entry
// (keyed by the hold) on the author's balance; release writes the same closing entry with `+max`.
// Invariant, checked by verify-ledger.ts: users.points == sum of points of applied entries.
import { Inject, Injectable } from '@nestjs/common';
import {
  DAILY_CHECK_IN_POWER,
  ErrorCode,
  POINTS_PAGE_SIZE,
  PowerReason,
  ROYALTY_PERCENT,
  type CheckInData,
  type CheckInStatusData,
  type PointsPage,
  type UserPointsQueryDto,
} from '@taleloom/contracts';
import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import { INSTANCE_TAG } from '../common/instance';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { calendarDay } from './calendar-day';
import type { LedgerEntry, LedgerEntryKind, LedgerStoryInfo } from './ledger-entry.schema';
import { CLAIM_MS, LedgerRepository, type BalanceView, type FaultHook, type Outcome } from './ledger.repository';

/** What a paid action is for: shown in the points record once the hold is settled. */
export interface SpendInfo {
  reason?: string;
  storyID?: string;
  storyName?: string;
}

export interface HoldOptions {
  /**
   * The balance as read just before (`balance()`), instead of reading it again; or that read still
   * under way, which the hold's entry is then written alongside (one round trip less).
   */
  balance?: BalanceView | null | Promise<BalanceView | null>;
}

/** The source story of a clone, whose author earns the royalty. */
export interface RoyaltyRecipient {
  authorUserID: string;
  storyID: string;
  storyName: string;
}

export interface GrantExtra {
  storyID?: string;
  storyName?: string;
}

export interface GrantResult {
  entryId: string;
  /** False when the key had been used before: nothing new was granted. */
  created: boolean;
}

export interface SettleResult {
  charged: number;
  royalty: number;
}

@Injectable()
export class PowerService {
  // The balance this process last saw of each user (read, or after its own hold): a hint a send's early
  // start goes by, never what a hold is decided on.
  private readonly seen = new LRUCache<string, number>({ max: 20_000 });

  constructor(
    private readonly store: LedgerRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Test-only: called at each step of a movement; throwing there simulates a crash at that step. */
  get faults(): FaultHook | undefined {
    return this.store.faults;
  }
  set faults(hook: FaultHook | undefined) {
    this.store.faults = hook;
  }

  now(): Date {
    return new Date();
  }

  /** Credits `amount` once per `key` (a retry with the same key grants nothing more). */
  async grant(userID: string, amount: number, reason: string, key: string, extra?: GrantExtra): Promise<GrantResult> {
    assertAmount(amount);
    const user = toUserId(userID);
    const view = await this.store.readBalance(user);
    if (!view) throw new AppException(ErrorCode.USER_NOT_FOUND);
    const entry = this.newEntry(user, 'grant', key, amount, reason, story(extra), amount > 0);
    const { entry: stored, claim } = await this.store.insertClaimed(entry);
    this.store.fault('entry-created', stored);
    await this.store.settleEntry(stored, claim, { fresh: view });
    return { entryId: stored._id.toHexString(), created: claim !== null };
  }

  /** Reserves up to `max` before a paid action; NOT_ENOUGH_POWER when the balance is short. */
  async hold(userID: string, max: number, key: string, spend: SpendInfo = {}, options: HoldOptions = {}): Promise<string> {
    assertAmount(max);
    const user = toUserId(userID);
    const id = LedgerRepository.entryId(user, 'hold', key);
    if (options.balance instanceof Promise) return this.holdAlongside(user, max, key, spend, options.balance);
    const view = options.balance ?? (await this.store.readBalance(user));
    if (!view) throw new AppException(ErrorCode.USER_NOT_FOUND);
    let outcome: Outcome;
    const earlier = view.points < max ? await this.store.find(id) : null;
    if (earlier) {
      // A retry of a hold that was taken when the balance still covered it.
      outcome = await this.store.settleEntry(earlier, null, { minPoints: max });
    } else {
      if (view.points < max) throw new AppException(ErrorCode.NOT_ENOUGH_POWER);
      const entry = this.newEntry(user, 'hold', key, -max, spend.reason ?? PowerReason.STORY, story(spend), false);
      const { entry: stored, claim } = await this.store.insertClaimed(entry);
      if (claim) this.store.fault('entry-created', stored);
      outcome = await this.store.settleEntry(stored, claim, { minPoints: -stored.points, fresh: view, markLater: true });
    }
    if (outcome === 'voided') throw new AppException(ErrorCode.NOT_ENOUGH_POWER);
    this.seen.set(user, view.points - max);
    return id.toHexString();
  }

  // A hold whose entry is inserted while the balance is still being read. The decision then uses that
  // read only if it finished well within CLAIM_MS of the claim: a claim can be taken over only after
  // CLAIM_MS, so the fence it read predates any takeover (the rule "balance first, claim second" of
  // LedgerRepository.decide, by time instead of by order). A balance too short voids the entry.
  private async holdAlongside(user: string, max: number, key: string, spend: SpendInfo, balance: Promise<BalanceView | null>): Promise<string> {
    const issuedAt = Date.now();
    const entry = this.newEntry(user, 'hold', key, -max, spend.reason ?? PowerReason.STORY, story(spend), false);
    const [view, { entry: stored, claim }] = await Promise.all([balance, this.store.insertClaimed(entry)]);
    if (claim) this.store.fault('entry-created', stored);
    const fresh = view && Date.now() - issuedAt < CLAIM_MS / 2 ? view : undefined;
    const outcome = claim
      ? await this.store.settleEntry(stored, claim, { minPoints: max, fresh, markLater: true })
      : await this.store.settleEntry(stored, null, { minPoints: max });
    if (outcome === 'voided') throw new AppException(view ? ErrorCode.NOT_ENOUGH_POWER : ErrorCode.USER_NOT_FOUND);
    if (view) this.seen.set(user, view.points - max);
    return stored._id.toHexString();
  }

  /** Names the story a hold is for, when it was taken before the story was read (what repair's settle shows). */
  async nameHold(holdId: string, storyName: string): Promise<void> {
    if (!Types.ObjectId.isValid(holdId)) return;
    await this.store.hint(new Types.ObjectId(holdId), { kind: 'hold' }, { 'storyInfo.storyName': storyName });
  }

  /** The id the hold taken with this key has (or will have). */
  holdIdOf(userID: string, key: string): string {
    return LedgerRepository.entryId(toUserId(userID), 'hold', key).toHexString();
  }

  /**
   * The balance as the ledger reads it, for a caller that reads it alongside other work and passes it
   * to `hold` (one round trip less on the way to a provider). Null: no such user.
   */
  async balance(userID: string): Promise<BalanceView | null> {
    const user = toUserId(userID);
    const view = await this.store.readBalance(user);
    if (view) this.seen.set(user, view.points);
    return view;
  }

  /** The balance this process last saw of the user (undefined: none); a hint only (see `seen`). */
  knownBalance(userID: string): number | undefined {
    return this.seen.get(userID.toLowerCase());
  }

  /**
   * Charges the real cost of a hold (at most what was held), gives the rest back and credits the
   * royalty to the source story's author. Retries charge once; after a release it charges nothing.
   * `takeoverBefore` (epoch ms): a settle its caller's process left half-done, claimed before then, is
   * finished at once (the caller knows that process is dead) instead of after the usual 30 s.
   */
  async settle(holdId: string, actualCost: number, royalty?: RoyaltyRecipient, takeoverBefore?: number, storyName?: string): Promise<SettleResult> {
    if (!Number.isFinite(actualCost) || actualCost < 0) throw new RangeError(`a cost is >= 0, got ${actualCost}`);
    const opened = await this.openHold(holdId, takeoverBefore);
    // `storyName`: the caller knows the story's name when the hold was taken before it was read.
    const hold = storyName === undefined ? opened : { ...opened, storyInfo: { storyID: opened.storyInfo?.storyID ?? null, storyName } };
    const max = -hold.points;
    // Never more than was held: the hold is the promise made to the user.
    const cost = Math.min(Math.floor(actualCost), max);
    const author = royalty && Types.ObjectId.isValid(royalty.authorUserID) ? royalty.authorUserID.toLowerCase() : null;
    const royaltyPoints = author && author !== hold.userID ? Math.floor((cost * ROYALTY_PERCENT) / 100) : 0;
    const close = this.closingEntry(hold, 'settle', max - cost, cost);
    if (royaltyPoints > 0) {
      close.royalty = {
        authorUserID: author!,
        points: royaltyPoints,
        storyID: royalty!.storyID ?? null,
        storyName: royalty!.storyName ?? null,
      };
    }
    const view = await this.store.readBalance(hold.userID);
    const { entry: stored, claim } = await this.store.insertClaimed(close);
    if (claim) this.store.fault('entry-created', stored);
    await this.finishClose(stored, claim, takeoverBefore, view ?? undefined);
    if (stored.kind !== 'settle') return { charged: 0, royalty: 0 };
    return { charged: -stored.shownPoints, royalty: stored.royalty?.points ?? 0 };
  }

  /** Gives a whole hold back (the paid action failed). Idempotent; after a settle it does nothing. */
  async release(holdId: string, takeoverBefore?: number): Promise<void> {
    const hold = await this.openHold(holdId, takeoverBefore);
    const view = await this.store.readBalance(hold.userID);
    const { entry: stored, claim } = await this.store.insertClaimed(this.closingEntry(hold, 'release', -hold.points, 0));
    if (claim) this.store.fault('entry-created', stored);
    await this.finishClose(stored, claim, takeoverBefore, view ?? undefined);
  }

  /**
   * Finishes a settle or release from wherever it stopped (also used by repair). `fresh`: the payer's
   * balance as read before `close` was inserted with `claim`.
   */
  async finishClose(close: LedgerEntry, claim: string | null, takeoverBefore?: number, fresh?: BalanceView): Promise<void> {
    let royalty: { entry: LedgerEntry; claim: string | null; fresh?: BalanceView } | null = null;
    if (close.royalty) {
      const r = close.royalty;
      const entry = this.newEntry(r.authorUserID, 'royalty', close.key, r.points, PowerReason.STORY, {
        storyID: r.storyID,
        storyName: r.storyName,
      });
      entry.holdID = close.holdID;
      const authorView = (await this.store.readBalance(r.authorUserID)) ?? undefined;
      royalty = { ...(await this.store.insertClaimed(entry)), fresh: authorView };
      this.store.fault('royalty-created', royalty.entry);
    }
    await this.store.settleEntry(close, claim, { takeoverBefore, fresh });
    this.store.fault('settle-applied', close);
    if (royalty) {
      await this.store.settleEntry(royalty.entry, royalty.claim, { takeoverBefore, fresh: royalty.fresh });
      this.store.fault('royalty-applied', royalty.entry);
    }
    await this.store.closeHold(close);
  }

  /** Holds not closed yet (applied, or pending: their taker may have died while taking them); for repair. */
  openHolds(limit: number): Promise<LedgerEntry[]> {
    return this.store.entries.find({ kind: 'hold', state: { $in: ['applied', 'pending'] }, closed: { $ne: true } }).limit(limit).toArray();
  }

  /**
   * Closes a hold whose action is known not to run any more (its taker died, or nothing uses it):
   * one its taker left pending is voided unless the balance already took it; one applied is released
   * (or its closing entry finished, when a settle or release had begun). Safe to repeat.
   */
  async closeStray(hold: LedgerEntry, takeoverBefore: number): Promise<void> {
    if (hold.state === 'pending' && (await this.store.settleEntry(hold, null, { voidIfUnresolved: true, takeoverBefore })) === 'voided') return;
    const close = await this.store.find(LedgerRepository.entryId(hold.userID, 'close', hold._id.toHexString()));
    if (close) await this.finishClose(close, null, takeoverBefore);
    else await this.release(hold._id.toHexString(), takeoverBefore);
  }

  /** 5000 power once per calendar day of the configured time zone. */
  async checkIn(userID: string): Promise<CheckInData> {
    const key = `check-in:${calendarDay(this.now(), this.config.env.CHECKIN_TIME_ZONE)}`;
    const { created } = await this.grant(userID, DAILY_CHECK_IN_POWER, PowerReason.DAILY_CHECK_IN, key);
    if (!created) throw new AppException(ErrorCode.ALREADY_CHECKED_IN);
    const view = await this.store.readBalance(toUserId(userID));
    return { awarded: DAILY_CHECK_IN_POWER, points: view?.points ?? 0 };
  }

  async checkInStatus(userID: string): Promise<CheckInStatusData> {
    const key = `check-in:${calendarDay(this.now(), this.config.env.CHECKIN_TIME_ZONE)}`;
    const entry = await this.store.find(LedgerRepository.entryId(toUserId(userID), 'grant', key));
    return { dailyCheckinStatus: !!entry && entry.state !== 'voided' };
  }

  /** One page of the user's own points record, newest first. */
  async records(userID: string, query: UserPointsQueryDto): Promise<PointsPage> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? POINTS_PAGE_SIZE;
    const filter = {
      userID: toUserId(userID),
      shown: true,
      state: 'applied' as const,
      ...(query.type === 'income' ? { shownPoints: { $gt: 0 } } : {}),
      ...(query.type === 'expense' ? { shownPoints: { $lt: 0 } } : {}),
    };
    const [total, rows] = await Promise.all([
      this.store.entries.countDocuments(filter),
      this.store.entries
        .find(filter, { projection: { reason: 1, shownPoints: 1, operationAt: 1, storyInfo: 1 } })
        .sort({ operationAt: -1, seq: -1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .toArray(),
    ]);
    return {
      records: rows.map((r) => ({
        reason: r.reason,
        points: r.shownPoints,
        // Dates come back as strings from the stand-in's disk storage.
        operationAt: new Date(r.operationAt).toISOString(),
        storyInfo: { storyName: r.storyInfo?.storyName ?? null },
      })),
      pagination: { page, pageSize, total, totalPages: Math.ceil(total / pageSize) },
    };
  }

  // An applied hold (finishing a hold left pending by a crash first: at once when the caller knows its
  // process is dead, `takeoverBefore`, instead of after the claim's 30 s).
  private async openHold(holdId: string, takeoverBefore?: number): Promise<LedgerEntry> {
    const hold = Types.ObjectId.isValid(holdId) ? await this.store.find(new Types.ObjectId(holdId)) : null;
    if (!hold || hold.kind !== 'hold') throw new AppException(ErrorCode.NOT_FOUND);
    if (hold.state === 'applied') return hold;
    const outcome = await this.store.settleEntry(hold, null, { minPoints: -hold.points, takeoverBefore });
    if (outcome === 'voided') throw new AppException(ErrorCode.NOT_FOUND);
    return hold;
  }

  // The one closing entry of a hold: settle and release share its id, so only the first one counts.
  private closingEntry(hold: LedgerEntry, kind: 'settle' | 'release', points: number, cost: number): LedgerEntry {
    const entry = this.newEntry(hold.userID, kind, hold._id.toHexString(), points, hold.reason, hold.storyInfo, cost > 0);
    entry._id = LedgerRepository.entryId(hold.userID, 'close', hold._id.toHexString());
    entry.shownPoints = -cost;
    entry.holdID = hold._id.toHexString();
    return entry;
  }

  private newEntry(
    userID: string,
    kind: LedgerEntryKind,
    key: string,
    points: number,
    reason: string,
    storyInfo: LedgerStoryInfo | null,
    shown = true,
  ): LedgerEntry {
    const now = this.now();
    return {
      _id: LedgerRepository.entryId(userID, kind === 'royalty' ? 'royalty' : kind === 'hold' ? 'hold' : 'grant', key),
      userID,
      key,
      kind,
      points,
      shown,
      shownPoints: points,
      reason,
      storyInfo,
      state: 'pending',
      holdID: null,
      closed: false,
      royalty: null,
      operationAt: now,
      seq: new Types.ObjectId().toHexString(),
      createdAt: now,
      resolvedAt: null,
      // A hold names the process that took it: repair releases one nothing points to once that process is gone.
      ...(kind === 'hold' ? { owner: INSTANCE_TAG } : {}),
    };
  }
}

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`power amounts are whole numbers >= 0, got ${amount}`);
}

// User ids are kept as lower-case hex strings in the ledger.
function toUserId(userID: string): string {
  if (typeof userID !== 'string' || !/^[0-9a-fA-F]{24}$/.test(userID)) throw new AppException(ErrorCode.USER_NOT_FOUND);
  return userID.toLowerCase();
}

function story(info?: { storyID?: string | null; storyName?: string | null }): LedgerStoryInfo | null {
  if (!info || (!info.storyID && !info.storyName)) return null;
  return { storyID: info.storyID ?? null, storyName: info.storyName ?? null };
}
