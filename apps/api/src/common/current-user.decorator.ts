import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** What the JWT guard puts on the request. */
export interface AuthUser {
  userID: string;
  userName: string;
}

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest<{ user: AuthUser }>().user;
});
