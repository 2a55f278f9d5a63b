import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { TokenPayload } from '@taleloom/contracts';
import type { UserDocument } from '../users/user.schema';

@Injectable()
export class AuthService {
  constructor(private readonly jwt: JwtService) {}

  /** A three-part HS256 token whose payload carries userID. */
  sign(user: UserDocument): string {
    // iat in milliseconds precision, so a password reset can refuse every token issued before it,
    // even within the same second.
    const payload: TokenPayload = { userID: user._id.toHexString(), userName: user.userName, iat: Date.now() / 1000 };
    return this.jwt.sign(payload);
  }
}
