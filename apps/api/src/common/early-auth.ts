import type { IncomingMessage } from 'node:http';
import type { AuthUser } from './current-user.decorator';

// Requests whose bearer token was checked on arrival (auth/token-fast-path.ts), with the user it names.
const checked = new WeakMap<IncomingMessage, AuthUser>();

/** The request's bearer token was checked as the JWT strategy checks it, and names this user. */
export function tokenChecked(req: IncomingMessage, user: AuthUser): void {
  checked.set(req, user);
}

/**
 * The user a request's token was found to name on arrival (undefined: not checked then; the guards'
 * passport strategy checks it, and answers whatever is wrong with it).
 */
export function checkedUser(req: IncomingMessage): AuthUser | undefined {
  return checked.get(req);
}
