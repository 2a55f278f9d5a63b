/** The signed-in user as the API shows them (spec section 3 "User info"). */
export interface UserInfo {
  userID: string;
  userName: string;
  points: number;
  phone: string | null;
  phoneCountryCode: string | null;
  phoneVerified: boolean;
  phoneVerifiedAt: string | null;
}

/**
 * `data` of a successful login. When a phone login finds both identities of one person (see the
 * Swagger description of POST /api/user/login), both tokens come back and `userInfo.token` /
 * `userInfo.phoneToken` describe the two choices.
 */
export interface LoginData {
  /** The user-name identity (or the only identity). */
  token?: string;
  /** The identity registered by phone; present only when there is a choice to make. */
  phoneToken?: string;
  userInfo: LoginUserInfo;
}

/** The signed-in user; with a choice to make, also the two identities to choose from. */
export interface LoginUserInfo extends UserInfo {
  token?: UserInfo;
  phoneToken?: UserInfo;
}

/** The payload of the three-part signed login token. */
export interface TokenPayload {
  userID: string;
  userName: string;
  iat?: number;
  exp?: number;
}
