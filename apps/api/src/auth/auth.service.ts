import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { TokenPayload } from '@taleloom/contracts';
import type { UserDocument } from '../users/user.schema';

@Injectable()
export class AuthService {
  constructor(private readonly jwt: JwtService) {}

  /** A three-part HS256 token whose payload carries userID. */
  sign(user: UserDocument): string {
    const payload: TokenPayload = { userID: user._id.toHexString(), userName: user.userName };
    return this.jwt.sign(payload);
  }
}
