import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type LoginData, type LoginDto, type UserInfo } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RateLimitService } from '../verification/rate-limit.service';
import { toUserInfo } from '../users/user-info.mapper';
import { UserRepository } from '../users/user.repository';
import type { UserDocument } from '../users/user.schema';
import { AuthService } from './auth.service';
import { InvitesService } from './invites.service';
import { LoginLockoutService } from './login-lockout.service';
import { PasswordsService } from './passwords.service';
import { PhoneLoginService } from './phone-login.service';

@Injectable()
export class SignInService {
  constructor(
    private readonly users: UserRepository,
    private readonly auth: AuthService,
    private readonly invites: InvitesService,
    private readonly lockout: LoginLockoutService,
    private readonly phoneLogin: PhoneLoginService,
    private readonly limits: RateLimitService,
    private readonly passwords: PasswordsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `type: 'username'`: an unknown name registers, a known one signs in. `type: 'phone'`: see PhoneLoginService. */
  async login(dto: LoginDto, ip: string): Promise<LoginData> {
    // Per client IP, in MongoDB (shared by every instance): password spraying over many names and
    // floods of registrations (each costs an argon2 hash) stop here; one name's lockout is below.
    await this.limits.hit(`login:ip:${ip}`, this.config.env.LOGIN_IP_PER_MINUTE, 60, ErrorCode.LOGIN_RATE_LIMITED);
    if (dto.type === 'phone') return this.phoneLogin.login(dto);
    if (dto.type !== 'username') throw new AppException(ErrorCode.LOGIN_TYPE_UNSUPPORTED);
    const userName = dto.userName!.trim();
    const password = dto.password!;
    const userNameKey = userName.toLowerCase();
    const invitedBy = await this.invites.resolve(dto.inviteCode);
    await this.lockout.assertNotLocked(userNameKey);

    let user = await this.users.byNameKey(userNameKey);
    if (!user) {
      const passwordHash = await this.passwords.hash(password);
      // One atomic upsert: of two concurrent registrations of a name, exactly one inserts.
      const registered = await this.users.registerByName(userNameKey, {
        userName,
        passwordHash,
        invitedByCode: invitedBy ? dto.inviteCode!.trim().toLowerCase() : null,
        invitedBy,
      });
      user = registered.user;
      if (registered.created) return this.answer(user);
    }
    // Counted before the password is checked: tries sent at once cannot all be checked.
    const attempt = await this.lockout.begin(userNameKey);
    if (!user.passwordHash || !(await this.passwords.verify(user.passwordHash, password))) return attempt.failed();
    await attempt.succeeded();
    return this.answer(user);
  }

  async userInfo(userID: string): Promise<UserInfo> {
    const user = await this.users.byId(userID);
    if (!user) throw new AppException(ErrorCode.USER_NOT_FOUND);
    return toUserInfo(user);
  }

  private answer(user: UserDocument): LoginData {
    return { token: this.auth.sign(user), userInfo: toUserInfo(user) };
  }
}
