import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ErrorCode } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { isDatabaseUnavailable } from '../database/database-errors';

/** Lets every request through (unless the database is away); `request.user` is set only when a valid bearer token came with it. */
@Injectable()
export class OptionalJwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<TUser>(err: unknown, user: TUser): TUser {
    // A signed-in caller is not served as anonymous because their account could not be read.
    if (isDatabaseUnavailable(err)) throw new AppException(ErrorCode.DATABASE_UNAVAILABLE);
    return (!err && user ? user : undefined) as TUser;
  }
}
