import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode } from '@taleloom/contracts';
import { Model } from 'mongoose';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Clock } from '../verification/clock';
import { LoginFailure } from './login-failure.schema';

/**
 * Locks a user name for LOGIN_LOCK_MINUTES after LOGIN_MAX_FAILURES wrong passwords in a row (failures
 * older than the lock span are forgotten). Stored in MongoDB, so every instance sees the same count.
 */
@Injectable()
export class LoginLockoutService {
  constructor(
    @InjectModel(LoginFailure.name) private readonly failures: Model<LoginFailure>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async assertNotLocked(key: string): Promise<void> {
    const now = this.clock.now().getTime();
    const doc = await this.failures.findOne({ key, lockedUntilMs: { $gt: now } }, { lockedUntilMs: 1 }).lean().exec();
    if (doc?.lockedUntilMs) throw this.locked(doc.lockedUntilMs, now);
  }

  /** Counts a wrong password and throws WRONG_PASSWORD, or ACCOUNT_LOCKED when this one reached the limit. */
  async recordFailure(key: string): Promise<never> {
    const { LOGIN_MAX_FAILURES: max, LOGIN_LOCK_MINUTES: minutes } = this.config.env;
    const now = this.clock.now().getTime();
    const span = minutes * 60_000;
    await this.failures.updateOne({ key, lastFailureAtMs: { $lt: now - span } }, { $set: { failures: 0 } }).exec();
    const doc = await this.failures
      .findOneAndUpdate(
        { key },
        { $inc: { failures: 1 }, $set: { lastFailureAtMs: now } },
        { upsert: true, new: true },
      )
      .lean()
      .exec();
    if (doc && doc.failures >= max) {
      const lockedUntilMs = now + span;
      await this.failures.updateOne({ key }, { $set: { lockedUntilMs, failures: 0 } }).exec();
      throw this.locked(lockedUntilMs, now);
    }
    throw new AppException(ErrorCode.WRONG_PASSWORD);
  }

  async recordSuccess(key: string): Promise<void> {
    await this.failures.updateOne({ key, failures: { $gt: 0 } }, { $set: { failures: 0 } }).exec();
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
