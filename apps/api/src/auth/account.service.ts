import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type BindMobileDto,
  type LoginData,
  type ResetPasswordDto,
  type SendSmsData,
  type SendSmsDto,
  type UserInfo,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { CaptchaService } from '../verification/captcha/captcha.service';
import { Clock } from '../verification/clock';
import { parsePhone } from '../verification/phone';
import { SmsCodeService } from '../verification/sms-code.service';
import { toUserInfo } from '../users/user-info.mapper';
import { UserRepository } from '../users/user.repository';
import type { UserDocument } from '../users/user.schema';
import { AuthService } from './auth.service';
import { PasswordsService } from './passwords.service';
import { PhoneRewardsService } from './phone-rewards.service';
import { TokenUsers } from './token-user.cache';

/** Sending codes, binding a phone and resetting the password. */
@Injectable()
export class AccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly auth: AuthService,
    private readonly tokenUsers: TokenUsers,
    private readonly captcha: CaptchaService,
    private readonly codes: SmsCodeService,
    private readonly rewards: PhoneRewardsService,
    private readonly clock: Clock,
    private readonly passwords: PasswordsService,
  ) {}

  /**
   * login: anyone, after the captcha. register (binding a phone) and reset_password (to the bound phone):
   * the signed-in user only, no captcha. All: resend interval, per-phone and per-IP limits.
   */
  async sendSms(dto: SendSmsDto, who: AuthUser | undefined, ip: string): Promise<SendSmsData> {
    const language = dto.language ?? 'en';
    if (dto.type === 'reset_password') {
      const user = await this.signedIn(who);
      if (!user.phoneVerified || !user.phoneE164) throw new AppException(ErrorCode.PHONE_NOT_VERIFIED);
      return this.codes.send(user.phoneE164, 'reset_password', ip, language);
    }
    const phone = parsePhone(dto.countryCode!, dto.phoneNum!);
    if (dto.type === 'register') {
      const user = await this.signedIn(who);
      await this.assertCanBind(user, phone.e164);
      return this.codes.send(phone.e164, 'register', ip, language);
    }
    await this.captcha.assertPassed(dto.verifyCode, dto.captchaId, ip);
    return this.codes.send(phone.e164, 'login', ip, language);
  }

  /** Verifies a phone for the signed-in user; the first binding earns the reward (once per user and number). */
  async bindMobile(who: AuthUser, dto: BindMobileDto): Promise<UserInfo> {
    const phone = parsePhone(dto.countryCode, dto.phoneNum);
    const user = await this.signedIn(who);
    await this.assertCanBind(user, phone.e164);
    await this.codes.consume(phone.e164, ['register'], dto.smsCode);
    const now = this.clock.now();
    const bound = await this.users.verifyPhone(user._id, {
      phone: phone.national,
      phoneCountryCode: phone.countryCode,
      phoneE164: phone.e164,
      phoneVerifiedAt: now,
    });
    if (!bound) throw new AppException(ErrorCode.PHONE_ALREADY_VERIFIED);
    await this.rewards.onPhoneVerified(bound._id, phone.e164, bound.invitedBy ?? null);
    return toUserInfo((await this.users.byId(bound._id))!);
  }

  /** New password for a phone-verified user; every token issued before now stops working. */
  async resetPassword(who: AuthUser, dto: ResetPasswordDto): Promise<LoginData> {
    const user = await this.signedIn(who);
    if (!user.phoneVerified || !user.phoneE164) throw new AppException(ErrorCode.PHONE_NOT_VERIFIED);
    await this.codes.consume(user.phoneE164, ['reset_password'], dto.smsCode);
    const passwordHash = await this.passwords.hash(dto.newPassword);
    // Real time, like the tokens' iat: the fresh token below is issued after this instant.
    const updated = await this.users.setPassword(user._id, passwordHash, new Date());
    this.tokenUsers.forget(user._id.toHexString());
    return { token: this.auth.sign(updated!), userInfo: toUserInfo(updated!) };
  }

  private async signedIn(who: AuthUser | undefined): Promise<UserDocument> {
    if (!who) throw new AppException(ErrorCode.UNAUTHORIZED);
    const user = await this.users.byId(new Types.ObjectId(who.userID));
    if (!user) throw new AppException(ErrorCode.USER_NOT_FOUND);
    return user;
  }

  // A user binds one phone, and a number belongs to at most one user-name account
  // (a phone-registered account of the same number is the person's other identity: see PhoneLoginService).
  private async assertCanBind(user: UserDocument, e164: string): Promise<void> {
    if (user.phoneVerified) throw new AppException(ErrorCode.PHONE_ALREADY_VERIFIED);
    if (await this.users.phoneBoundElsewhere(user._id, e164)) throw new AppException(ErrorCode.PHONE_ALREADY_BOUND);
  }
}
