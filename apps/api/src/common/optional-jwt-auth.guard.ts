import { Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { noTokenSent, tokenFailure } from './jwt-auth.guard';

/**
 * A token is optional: without one the request goes on anonymously and `request.user` stays unset.
 * A token that IS sent must be valid (401 as on every other endpoint): a forged, expired or revoked
 * token never silently downgrades to an anonymous request.
 */
@Injectable()
export class OptionalJwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<TUser>(err: unknown, user: TUser, info: unknown): TUser {
    if (user && !err) return user;
    if (!err && noTokenSent(info)) return undefined as TUser;
    throw tokenFailure(err, info);
  }
}
