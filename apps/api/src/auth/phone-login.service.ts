import { Injectable } from '@nestjs/common';
import type { LoginData, LoginDto } from '@taleloom/contracts';
import { randomInt } from 'node:crypto';
import type { Types } from 'mongoose';
import { Clock } from '../verification/clock';
import { parsePhone, type ParsedPhone } from '../verification/phone';
import { SmsCodeService } from '../verification/sms-code.service';
import { toUserInfo } from '../users/user-info.mapper';
import { UserRepository } from '../users/user.repository';
import type { UserDocument } from '../users/user.schema';
import { AuthService } from './auth.service';
import { InvitesService } from './invites.service';
import { PhoneRewardsService } from './phone-rewards.service';

/**
 * Phone sign-in and registration. A person may own two identities for one number: the account a phone
 * login created (`registeredBy: 'phone'`) and a user-name account that later bound and verified the same
 * number. Phone login with a right code then answers:
 * - neither exists: a new phone account is registered (first-binding and invitation rewards apply) -> `token`;
 * - one exists: `token` of that one;
 * - both exist: `token` (the user-name account) AND `phoneToken` (the phone account), with
 *   `userInfo.token` / `userInfo.phoneToken` describing each; the client asks which to use.
 * A user-name account can bind a number only while no other user-name account holds it, so there are
 * never more than these two choices.
 */
@Injectable()
export class PhoneLoginService {
  constructor(
    private readonly users: UserRepository,
    private readonly auth: AuthService,
    private readonly codes: SmsCodeService,
    private readonly invites: InvitesService,
    private readonly rewards: PhoneRewardsService,
    private readonly clock: Clock,
  ) {}

  async login(dto: LoginDto): Promise<LoginData> {
    const phone = parsePhone(dto.countryCode!, dto.phoneNum!);
    const invitedBy = await this.invites.resolve(dto.inviteCode);
    await this.codes.consume(phone.e164, ['login'], dto.verifyCode!);

    const [phoneUser, nameUser] = await Promise.all([
      this.users.byPhoneAccount(phone.e164),
      this.users.byVerifiedPhone(phone.e164),
    ]);
    if (phoneUser && nameUser) {
      const phoneInfo = toUserInfo(phoneUser);
      return {
        token: this.auth.sign(nameUser),
        phoneToken: this.auth.sign(phoneUser),
        userInfo: { ...phoneInfo, token: toUserInfo(nameUser), phoneToken: phoneInfo },
      };
    }
    const user = phoneUser ?? nameUser ?? (await this.register(phone, invitedBy));
    return { token: this.auth.sign(user), userInfo: toUserInfo(user) };
  }

  private async register(phone: ParsedPhone, invitedBy: Types.ObjectId | null): Promise<UserDocument> {
    const userName = await this.freeUserName();
    const now = this.clock.now();
    const { user, created } = await this.users.registerByPhone(phone.e164, {
      userName,
      userNameKey: userName.toLowerCase(),
      phone: phone.national,
      phoneCountryCode: phone.countryCode,
      phoneVerifiedAt: now,
      invitedBy,
    });
    if (created) {
      await this.rewards.onPhoneVerified(user._id, phone.e164, invitedBy);
      return (await this.users.byId(user._id))!;
    }
    return user;
  }

  // A neutral generated name (no digits of the number: names are shown to others).
  private async freeUserName(): Promise<string> {
    for (;;) {
      const name = `user_${randomInt(36 ** 6).toString(36).padStart(6, '0')}`;
      if (!(await this.users.nameKeyTaken(name))) return name;
    }
  }
}
