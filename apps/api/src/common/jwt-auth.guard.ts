import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ErrorCode } from '@taleloom/contracts';
import { AppException } from './app-exception';
import { isDatabaseUnavailable } from './database-errors';

const NO_TOKEN = 'No auth token';

/** True when the request carried no bearer token at all (passport-jwt's own wording). */
export function noTokenSent(info: unknown): boolean {
  return (info as { message?: string } | undefined)?.message === NO_TOKEN;
}

/** The coded 401 for a failed token check: expired, missing, or anything else wrong with it. */
export function tokenFailure(err: unknown, info: unknown): AppException {
  if (err instanceof AppException) return err;
  // The user could not be looked up (the database is away): not the token's fault, so no 401
  // (which would sign the client out).
  if (isDatabaseUnavailable(err)) return new AppException(ErrorCode.DATABASE_UNAVAILABLE);
  if ((info as { name?: string } | undefined)?.name === 'TokenExpiredError') return new AppException(ErrorCode.TOKEN_EXPIRED);
  if (noTokenSent(info)) return new AppException(ErrorCode.UNAUTHORIZED);
  return new AppException(ErrorCode.TOKEN_INVALID);
}

/** Requires a valid bearer token; tells an expired token from a bad or missing one. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<TUser>(err: unknown, user: TUser, info: unknown): TUser {
    if (user && !err) return user;
    throw tokenFailure(err, info);
  }
}
