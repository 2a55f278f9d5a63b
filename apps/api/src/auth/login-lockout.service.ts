import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode } from '@taleloom/contracts';
import { Model } from 'mongoose';
import { AppException } from '../common/app-exception';
import { isDuplicateKey } from '../common/database-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Clock } from '../verification/clock';
import { LoginFailure } from './login-failure.schema';

// How long a try waits for the tries being checked ahead of it, and how often it looks.
const SLOT_WAIT_MS = 5_000;
const SLOT_POLL_MS = 50;

/** A password try let in (counted): say how the check of the password came out. */
export interface PasswordTry {
  /** Wrong password: throws WRONG_PASSWORD, or ACCOUNT_LOCKED when this try was the last one allowed. */
  failed(): Promise<never>;
  /** Right password: the count starts again. */
  succeeded(): Promise<void>;
}

/**
 * Locks a user name for LOGIN_LOCK_MINUTES after LOGIN_MAX_FAILURES wrong passwords in a row (failures
 * older than the lock span are forgotten). Stored in MongoDB, so every instance sees the same count.
 * A try is counted before its password is checked, by the same conditional update that checks the
 * limit: of any number of tries sent at once, at most LOGIN_MAX_FAILURES are checked at a time; the
 * rest wait for their outcome. A right password starts the count again (and lifts the lock when it held
 * the last try); the last wrong one locks the name, and the tries still waiting are told so.
 */
@Injectable()
export class LoginLockoutService {
  constructor(
    @InjectModel(LoginFailure.name) private readonly failures: Model<LoginFailure>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** A cheap refusal before any work (a registration's hash): throws ACCOUNT_LOCKED while locked. */
  async assertNotLocked(key: string): Promise<void> {
    const now = this.clock.now().getTime();
    const doc = await this.failures.findOne({ key, lockedUntilMs: { $gt: now } }, { lockedUntilMs: 1 }).lean().exec();
    if (doc?.lockedUntilMs) throw this.locked(doc.lockedUntilMs, now);
  }

  /**
   * Counts a try on `key` before its password is checked; throws ACCOUNT_LOCKED when the name is locked.
   * When every try is taken by tries still being checked (no lock yet), it waits for their outcome
   * (up to SLOT_WAIT_MS): right passwords among them start the count again and let it in, wrong ones
   * lock the name. So right passwords sent together all get in, and wrong ones never more than the limit.
   */
  async begin(key: string): Promise<PasswordTry> {
    await this.ensureDocument(key);
    const deadline = Date.now() + SLOT_WAIT_MS;
    for (;;) {
      const attempt = await this.tryBegin(key);
      if (attempt) return attempt;
      const now = this.clock.now().getTime();
      const doc = await this.failures.findOne({ key }, { lockedUntilMs: 1 }).lean().exec();
      if ((doc?.lockedUntilMs && doc.lockedUntilMs > now) || Date.now() >= deadline) return this.refuse(key, now);
      await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
    }
  }

  // One conditional update: a counted try, or null when none is left now.
  private async tryBegin(key: string): Promise<PasswordTry | null> {
    const { LOGIN_MAX_FAILURES: max } = this.config.env;
    const span = this.span();
    const now = this.clock.now().getTime();
    // Within the span and not locked: one more try while fewer than `max` are counted.
    const counted =
      (await this.failures
        .findOneAndUpdate(
          { key, lockedUntilMs: null, lastFailureAtMs: { $gt: now - span }, failures: { $lt: max } },
          { $inc: { failures: 1 }, $set: { lastFailureAtMs: now } },
          { new: true, projection: { failures: 1 } },
        )
        .lean()
        .exec()) ??
      // No try within the span, or a lock that has ended: the count starts again with this try.
      (await this.failures
        .findOneAndUpdate(
          {
            key,
            $and: [
              { $or: [{ lockedUntilMs: null }, { lockedUntilMs: { $lte: now } }] },
              { $or: [{ lastFailureAtMs: null }, { lastFailureAtMs: { $lte: now - span } }, { lockedUntilMs: { $ne: null } }] },
            ],
          },
          { $set: { failures: 1, lastFailureAtMs: now, lockedUntilMs: null } },
          { new: true, projection: { failures: 1 } },
        )
        .lean()
        .exec());
    if (!counted) return null;
    const last = counted.failures >= max;
    return {
      failed: () => this.failed(key, last),
      succeeded: async () => {
        await this.failures.updateOne({ key, lockedUntilMs: null }, { $set: { failures: 0 } }).exec();
      },
    };
  }

  private async failed(key: string, last: boolean): Promise<never> {
    if (!last) throw new AppException(ErrorCode.WRONG_PASSWORD);
    const now = this.clock.now().getTime();
    const lockedUntilMs = now + this.span();
    await this.failures.updateOne({ key, lockedUntilMs: null }, { $set: { lockedUntilMs } }).exec();
    throw this.locked(lockedUntilMs, now);
  }

  // No try left: locked, or the last try is being checked (its outcome decides the lock; until then
  // the name counts as locked from that try on).
  private async refuse(key: string, now: number): Promise<never> {
    const doc = await this.failures.findOne({ key }, { lockedUntilMs: 1, lastFailureAtMs: 1 }).lean().exec();
    const until = doc?.lockedUntilMs && doc.lockedUntilMs > now ? doc.lockedUntilMs : (doc?.lastFailureAtMs ?? now) + this.span();
    throw this.locked(Math.max(until, now + 1000), now);
  }

  // The name's document exists before any conditional update (an upsert on a condition could duplicate it
  // on the offline stand-in, which does not enforce unique indexes).
  private async ensureDocument(key: string): Promise<void> {
    try {
      await this.failures
        .updateOne({ key }, { $setOnInsert: { key, failures: 0, lastFailureAtMs: null, lockedUntilMs: null } }, { upsert: true })
        .exec();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  private span(): number {
    return this.config.env.LOGIN_LOCK_MINUTES * 60_000;
  }

  private locked(untilMs: number, now: number): AppException {
    const until = new Date(untilMs);
    const seconds = Math.ceil((untilMs - now) / 1000);
    return new AppException(ErrorCode.ACCOUNT_LOCKED, undefined, {
      minutes: Math.ceil(seconds / 60),
      until: until.toISOString().slice(0, 16).replace('T', ' '),
      retryAfterSeconds: seconds,
    });
  }
}
