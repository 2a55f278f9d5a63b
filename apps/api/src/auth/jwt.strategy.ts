import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ErrorCode, type TokenPayload } from '@taleloom/contracts';
import { createSecretKey } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppException } from '../common/app-exception';
import { isDatabaseUnavailable } from '../common/database-errors';
import type { AuthUser } from '../common/current-user.decorator';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { honours, namesUser, TokenUsers } from './token-user.cache';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tokenUsers: TokenUsers,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject, not the string: given a string, jsonwebtoken first tries to read it as a PEM
      // public key on every request, and the thrown error (with its stack) cost ~1.5 ms a request.
      // passport-jwt hands it to jsonwebtoken as is; its typings only name string and Buffer.
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret)) as unknown as Buffer,
      // Only HS256: `alg: none` and algorithm confusion are refused.
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** The token is honoured only while its user exists and it was issued after the last password change. */
  async validate(payload: TokenPayload): Promise<AuthUser> {
    if (!namesUser(payload)) throw new AppException(ErrorCode.TOKEN_INVALID);
    // A database that cannot be reached is a 503, never a 401: a 401 would sign every user out.
    const user = await this.tokenUsers.get(payload.userID).catch((error: unknown) => {
      throw isDatabaseUnavailable(error) ? new AppException(ErrorCode.DATABASE_UNAVAILABLE) : error;
    });
    if (!user) throw new AppException(ErrorCode.TOKEN_INVALID);
    if (!honours(user, payload)) throw new AppException(ErrorCode.TOKEN_INVALID);
    return { userID: payload.userID, userName: user.userName };
  }
}
