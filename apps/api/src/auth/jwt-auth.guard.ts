import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ErrorCode } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { isDatabaseUnavailable } from '../database/database-errors';

/** Requires a valid bearer token; tells an expired token from a bad or missing one. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<TUser>(err: unknown, user: TUser, info: unknown): TUser {
    if (err instanceof AppException) throw err;
    // The user could not be looked up (the database is away): not the token's fault, so no 401
    // (which would sign the client out).
    if (isDatabaseUnavailable(err)) throw new AppException(ErrorCode.DATABASE_UNAVAILABLE);
    if (err) throw err;
    if (user) return user;
    const name = (info as { name?: string } | undefined)?.name;
    if (name === 'TokenExpiredError') throw new AppException(ErrorCode.TOKEN_EXPIRED);
    const message = (info as { message?: string } | undefined)?.message ?? '';
    if (message === 'No auth token') throw new AppException(ErrorCode.UNAUTHORIZED);
    throw new AppException(ErrorCode.TOKEN_INVALID);
  }
}
