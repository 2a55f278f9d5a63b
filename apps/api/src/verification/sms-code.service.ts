import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ErrorCode,
  SMS_CODE_MAX_WRONG_TRIES,
  SMS_CODE_TTL_SECONDS,
  type Language,
  type SendSmsData,
  type SmsType,
} from '@taleloom/contracts';
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { Model } from 'mongoose';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Clock } from './clock';
import { RateLimitService } from './rate-limit.service';
import { SmsCode } from './sms-code.schema';
import { SmsSender } from './sms/sms-sender';
import { isDuplicateKey } from '../common/database-errors';

const HOUR = 3600;

/**
 * Verification codes: 6 digits, valid 5 minutes, burnt after 5 wrong tries, one live code per phone and
 * at most one send per resend interval. Every rule is one atomic update of the phone's single document.
 */
@Injectable()
export class SmsCodeService {
  constructor(
    @InjectModel(SmsCode.name) private readonly codes: Model<SmsCode>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sender: SmsSender,
    private readonly limits: RateLimitService,
    private readonly clock: Clock,
  ) {}

  /** Sends a fresh code to `phone` (E.164) after the resend, per-phone and per-IP checks. */
  async send(phone: string, type: SmsType, ip: string, language: Language): Promise<SendSmsData> {
    const env = this.config.env;
    const now = this.clock.now().getTime();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.ensureDocument(phone);
    const cutoff = now - env.SMS_RESEND_SECONDS * 1000;
    // Claim the send slot: matches only when no code went out within the interval.
    const claimed = await this.codes
      .findOneAndUpdate(
        { phone, $or: [{ sentAtMs: null }, { sentAtMs: { $lte: cutoff } }] },
        {
          $set: {
            type,
            codeHash: this.hash(phone, code),
            sentAtMs: now,
            expiresAtMs: now + SMS_CODE_TTL_SECONDS * 1000,
            wrongTries: 0,
          },
        },
        { new: true },
      )
      .lean()
      .exec();
    if (!claimed) {
      const current = await this.codes.findOne({ phone }, { sentAtMs: 1 }).lean().exec();
      const wait = current?.sentAtMs
        ? Math.max(1, Math.ceil((current.sentAtMs + env.SMS_RESEND_SECONDS * 1000 - now) / 1000))
        : env.SMS_RESEND_SECONDS;
      throw new AppException(ErrorCode.SMS_RESEND_TOO_SOON, undefined, { seconds: wait, retryAfterSeconds: wait });
    }
    try {
      await this.limits.hit(`sms:phone:${phone}`, env.SMS_PHONE_HOURLY_LIMIT, HOUR);
      await this.limits.hit(`sms:ip:${ip}`, env.SMS_IP_HOURLY_LIMIT, HOUR);
    } catch (error) {
      await this.release(phone, claimed.codeHash!);
      throw error;
    }
    try {
      await this.sender.send({ to: phone, code, type, language });
    } catch {
      await this.release(phone, claimed.codeHash!);
      throw new AppException(ErrorCode.SMS_SEND_FAILED);
    }
    const showCode = this.sender.isLocal && env.SMS_SHOW_CODE_IN_DEV && env.NODE_ENV !== 'production';
    return {
      resendAfterSeconds: env.SMS_RESEND_SECONDS,
      expiresInSeconds: SMS_CODE_TTL_SECONDS,
      ...(showCode ? { devCode: code } : {}),
    };
  }

  /**
   * Uses up the code of `phone` when it is right, of one of `types`, unexpired and not burnt.
   * A try is counted before the code is compared, in the same conditional update that checks the limit
   * (`wrongTries < 5`): of any number of tries sent at once, at most 5 are compared, the rest are
   * refused unread. Of many concurrent requests with the right code exactly one succeeds.
   */
  async consume(phone: string, types: readonly SmsType[], code: string): Promise<void> {
    const now = this.clock.now().getTime();
    const claimed = await this.codes
      .findOneAndUpdate(
        {
          phone,
          type: { $in: types },
          codeHash: { $ne: null },
          expiresAtMs: { $gt: now },
          wrongTries: { $lt: SMS_CODE_MAX_WRONG_TRIES },
        },
        { $inc: { wrongTries: 1 } },
        { new: true },
      )
      .lean()
      .exec();
    if (!claimed) return this.refuse(phone, types, now);
    if (this.matches(this.hash(phone, code), claimed.codeHash!)) {
      // Right: used up, unless a concurrent right try or a new code got there first.
      const used = await this.codes
        .findOneAndUpdate({ phone, codeHash: claimed.codeHash }, { $set: { codeHash: null } }, { projection: { _id: 1 } })
        .lean()
        .exec();
      if (used) return;
      throw new AppException(ErrorCode.SMS_CODE_WRONG);
    }
    // Wrong: the try stays counted; the one that used up the last try burnt the code.
    if (claimed.wrongTries >= SMS_CODE_MAX_WRONG_TRIES) throw new AppException(ErrorCode.SMS_CODE_TOO_MANY_TRIES);
    throw new AppException(ErrorCode.SMS_CODE_WRONG);
  }

  // Why a try was not let in (nothing was compared).
  private async refuse(phone: string, types: readonly SmsType[], now: number): Promise<never> {
    const current = await this.codes.findOne({ phone }).lean().exec();
    if (!current?.codeHash || !current.type || !types.includes(current.type)) {
      throw new AppException(ErrorCode.SMS_CODE_WRONG);
    }
    if (current.wrongTries >= SMS_CODE_MAX_WRONG_TRIES) throw new AppException(ErrorCode.SMS_CODE_TOO_MANY_TRIES);
    if (!current.expiresAtMs || current.expiresAtMs <= now) throw new AppException(ErrorCode.SMS_CODE_EXPIRED);
    // Changed between the two reads (a new code was sent): this try was not compared; the user retries.
    throw new AppException(ErrorCode.SMS_CODE_WRONG);
  }

  /** Whether a code's hash is the stored one: the one place a code is compared. */
  matches(hash: string, stored: string): boolean {
    return hash.length === stored.length && timingSafeEqual(Buffer.from(hash), Buffer.from(stored));
  }

  // A send that did not go out frees the slot again, so the user can retry at once.
  private async release(phone: string, codeHash: string): Promise<void> {
    await this.codes.updateOne({ phone, codeHash }, { $set: { codeHash: null, sentAtMs: null } }).exec();
  }

  // The phone's document exists before any conditional update (an upsert on a condition could duplicate it).
  private async ensureDocument(phone: string): Promise<void> {
    try {
      await this.codes.updateOne({ phone }, { $setOnInsert: { phone, sentAtMs: null } }, { upsert: true }).exec();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  private hash(phone: string, code: string): string {
    return createHmac('sha256', this.config.jwtSecret).update(`sms:${phone}:${code}`).digest('hex');
  }
}
