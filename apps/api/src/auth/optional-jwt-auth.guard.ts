import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

/** Lets every request through; `request.user` is set only when a valid bearer token came with it. */
@Injectable()
export class OptionalJwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<TUser>(err: unknown, user: TUser): TUser {
    return (!err && user ? user : undefined) as TUser;
  }
}
