import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { hash, verify } from '@node-rs/argon2';
import { ErrorCode, type LoginData, type LoginDto, type UserInfo } from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { AuthService } from '../auth/auth.service';
import { AppException } from '../common/app-exception';
import { User, UserDocument } from './user.schema';

// argon2id with the library's recommended defaults (19 MiB, 2 passes).
const hashPassword = (password: string) => hash(password);

@Injectable()
export class UsersService {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly auth: AuthService,
  ) {}

  /** `type: 'username'`: an unknown name registers, a known one signs in. */
  async login(dto: LoginDto): Promise<LoginData> {
    if (dto.type !== 'username') throw new AppException(ErrorCode.LOGIN_TYPE_UNSUPPORTED);
    const userName = dto.userName!.trim();
    const password = dto.password!;
    const userNameKey = userName.toLowerCase();

    let user = await this.users.findOne({ userNameKey }).exec();
    if (!user) {
      const passwordHash = await hashPassword(password);
      // One atomic upsert: of two concurrent registrations of a name, exactly one inserts.
      const result = await this.users
        .findOneAndUpdate(
          { userNameKey },
          {
            $setOnInsert: {
              userName,
              userNameKey,
              passwordHash,
              points: 0,
              invitedByCode: dto.inviteCode?.trim() || null,
            },
          },
          { upsert: true, new: true, includeResultMetadata: true },
        )
        .exec();
      user = result.value!;
      if (result.lastErrorObject?.updatedExisting === false) return this.answer(user);
    }
    if (!user.passwordHash || !(await verify(user.passwordHash, password))) {
      throw new AppException(ErrorCode.WRONG_PASSWORD);
    }
    return this.answer(user);
  }

  async userInfo(userID: string): Promise<UserInfo> {
    const user = Types.ObjectId.isValid(userID) ? await this.users.findById(userID).exec() : null;
    if (!user) throw new AppException(ErrorCode.USER_NOT_FOUND);
    return toUserInfo(user);
  }

  private answer(user: UserDocument): LoginData {
    return { token: this.auth.sign(user), userInfo: toUserInfo(user) };
  }
}

export function toUserInfo(user: UserDocument): UserInfo {
  return {
    userID: user._id.toHexString(),
    userName: user.userName,
    points: user.points,
    phone: user.phone ?? null,
    phoneCountryCode: user.phoneCountryCode ?? null,
    phoneVerified: Boolean(user.phoneVerified),
    phoneVerifiedAt: user.phoneVerifiedAt ? user.phoneVerifiedAt.toISOString() : null,
  };
}
