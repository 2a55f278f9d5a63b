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

/** `data` of a successful login. */
export interface LoginData {
  token?: string;
  phoneToken?: string;
  userInfo: UserInfo;
}

/** The payload of the three-part signed login token. */
export interface TokenPayload {
  userID: string;
  userName: string;
  iat?: number;
  exp?: number;
}
