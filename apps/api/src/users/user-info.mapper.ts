import type { UserInfo } from '@taleloom/contracts';
import type { User, UserDocument } from './user.schema';

/** The user as the API shows them (spec section 3). */
export function toUserInfo(user: Pick<UserDocument, '_id' | 'userName' | 'points'> & Partial<User>): UserInfo {
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
