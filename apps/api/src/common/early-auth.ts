import type { IncomingMessage } from 'node:http';
import type { AuthUser } from './current-user.decorator';

interface Checked {
  user: AuthUser;
  /** The checks were the JWT strategy's, on a user read within the TTL (false: read longer ago). */
  sure: boolean;
}

// Requests whose bearer token was checked on arrival (auth/token-fast-path.ts), with the user it names.
const checked = new WeakMap<IncomingMessage, Checked>();

/**
 * The request's bearer token was checked as the JWT strategy checks it, and names this user: on what
 * this instance read of the user within the TTL (`sure`), or longer ago (a likely user only: the
 * guards still check the token, with a read).
 */
export function tokenChecked(req: IncomingMessage, user: AuthUser, sure = true): void {
  checked.set(req, { user, sure });
}

/**
 * The user a request's token was found to name on arrival (undefined: not checked then; the guards'
 * passport strategy checks it, and answers whatever is wrong with it).
 */
export function checkedUser(req: IncomingMessage): AuthUser | undefined {
  const c = checked.get(req);
  return c?.sure ? c.user : undefined;
}

/**
 * The user a request's token most likely names: checked on arrival, on what this instance read of the
 * user however long ago (a user who paused longer than the TTL between two sends). Only for work that
 * the request's guard can still undo, unseen, when its read refuses the token (a send's early start).
 */
export function likelyUser(req: IncomingMessage): AuthUser | undefined {
  return checked.get(req)?.user;
}
