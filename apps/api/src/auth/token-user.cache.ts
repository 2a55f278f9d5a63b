import { Injectable } from '@nestjs/common';
import type { TokenPayload } from '@taleloom/contracts';
import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import { UserRepository } from '../users/user.repository';

/** Whether a token's payload names a user id at all (what the JWT strategy requires first). */
export function namesUser(payload: TokenPayload): boolean {
  // Every token this app signs ends (JWT_EXPIRES_IN): one without `exp` was not signed by it as it signs, and would never end.
  return typeof payload.userID === 'string' && Types.ObjectId.isValid(payload.userID) && typeof payload.exp === 'number';
}

/** Whether the user still honours a token issued when its payload says (not before their last password change). */
export function honours(user: TokenUser, payload: TokenPayload): boolean {
  return (payload.iat ?? 0) * 1000 >= user.validAfter;
}

/** How long this instance trusts what it read of a token's user (its name and last password change). */
export const TOKEN_USER_TTL_MS = 5_000;
// A user seen again after this long is read again in the background while the entry still serves.
const REFRESH_AFTER_MS = TOKEN_USER_TTL_MS / 2;
export interface TokenUser {
  userName: string;
  /** Tokens issued before this instant (epoch ms) are refused; 0: none. */
  validAfter: number;
}

interface Entry {
  user: TokenUser;
  /** When the read that found it started (epoch ms). */
  readAt: number;
}

/**
 * What every authenticated request needs of its user, read once per user and instance every few
 * seconds instead of once per request: one database round trip less on every call (it is on the
 * path of the first token of a generation). A password reset on this instance forgets the user at
 * once; another instance honours it within TOKEN_USER_TTL_MS: no entry older than that is served.
 * A user who keeps making requests is read again ahead of that, in the background, so their
 * requests do not wait for the read.
 */
@Injectable()
export class TokenUsers {
  private readonly cache = new LRUCache<string, Entry>({ max: 50_000, ttl: TOKEN_USER_TTL_MS });
  private readonly reading = new Map<string, Promise<TokenUser | null>>();
  private readonly refreshing = new Set<string>();

  constructor(private readonly users: UserRepository) {}

  async get(userID: string): Promise<TokenUser | null> {
    const known = this.cache.get(userID);
    const age = known ? Date.now() - known.readAt : Infinity;
    if (!known || age >= TOKEN_USER_TTL_MS) return this.load(userID);
    // Served (younger than the TTL); read again meanwhile, so that the next request finds it fresh.
    if (age >= REFRESH_AFTER_MS) this.refreshSoon(userID);
    return known.user;
  }

  // The read again starts on a timer: after the I/O of the request that found the entry old (a send's
  // provider request, written in the check phase of this turn, would otherwise go out behind it).
  private refreshSoon(userID: string): void {
    if (this.reading.has(userID) || this.refreshing.has(userID)) return;
    this.refreshing.add(userID);
    setTimeout(() => {
      this.refreshing.delete(userID);
      // A read started meanwhile is shared (load).
      void this.load(userID).catch(() => undefined);
    }, 0).unref();
  }

  /** Called when a user's tokens change (a password reset): the next request reads the user again. */
  forget(userID: string): void {
    this.cache.delete(userID);
    this.reading.delete(userID);
  }

  // Concurrent requests of one user share one read.
  private load(userID: string): Promise<TokenUser | null> {
    const pending = this.reading.get(userID);
    if (pending) return pending;
    const read: Promise<TokenUser | null> = this.read(userID, () => this.reading.get(userID) === read).finally(() => {
      if (this.reading.get(userID) === read) this.reading.delete(userID);
    });
    this.reading.set(userID, read);
    return read;
  }

  // `current`: this read is still the user's (not forgotten, nor replaced by a read after a forget).
  private async read(userID: string, current: () => boolean): Promise<TokenUser | null> {
    const readAt = Date.now();
    const user = await this.users.tokenFields(userID);
    if (!user) {
      if (current()) this.cache.delete(userID);
      return null;
    }
    // new Date(): the offline stand-in's file storage hands Dates back as strings.
    const found = { userName: user.userName, validAfter: user.tokensValidAfter ? new Date(user.tokensValidAfter).getTime() : 0 };
    // Not cached when forgotten while reading: the read may predate the change.
    if (current()) this.cache.set(userID, { user: found, readAt });
    return found;
  }
}
