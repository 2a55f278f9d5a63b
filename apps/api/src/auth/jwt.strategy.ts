import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { PassportStrategy } from '@nestjs/passport';
import { ErrorCode, type TokenPayload } from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppException } from '../common/app-exception';
import { isDatabaseUnavailable } from '../common/database-errors';
import type { AuthUser } from '../common/current-user.decorator';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { User } from '../users/user.schema';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectModel(User.name) private readonly users: Model<User>,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.jwtSecret,
      // Only HS256: `alg: none` and algorithm confusion are refused.
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** The token is honoured only while its user exists and it was issued after the last password change. */
  async validate(payload: TokenPayload): Promise<AuthUser> {
    if (typeof payload.userID !== 'string' || !Types.ObjectId.isValid(payload.userID)) {
      throw new AppException(ErrorCode.TOKEN_INVALID);
    }
    // A database that cannot be reached is a 503, never a 401: a 401 would sign every user out.
    const user = await this.users
      .findById(payload.userID, { userName: 1, tokensValidAfter: 1 })
      .lean()
      .exec()
      .catch((error: unknown) => {
        throw isDatabaseUnavailable(error) ? new AppException(ErrorCode.DATABASE_UNAVAILABLE) : error;
      });
    if (!user) throw new AppException(ErrorCode.TOKEN_INVALID);
    const issuedAtMs = (payload.iat ?? 0) * 1000;
    // new Date(): the offline stand-in's file storage hands Dates back as strings.
    if (user.tokensValidAfter && issuedAtMs < new Date(user.tokensValidAfter).getTime()) {
      throw new AppException(ErrorCode.TOKEN_INVALID);
    }
    return { userID: payload.userID, userName: user.userName };
  }
}
