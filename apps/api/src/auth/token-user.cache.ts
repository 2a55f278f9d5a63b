import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { UserRepository } from '../users/user.repository';

/** How long this instance trusts what it read of a token's user (its name and last password change). */
export const TOKEN_USER_TTL_MS = 5_000;

export interface TokenUser {
  userName: string;
  /** Tokens issued before this instant (epoch ms) are refused; 0: none. */
  validAfter: number;
}

/**
 * What every authenticated request needs of its user, read once per user and instance every few
 * seconds instead of once per request: one database round trip less on every call (it is on the
 * path of the first token of a generation). A password reset on this instance forgets the user at
 * once; another instance honours it within TOKEN_USER_TTL_MS.
 */
@Injectable()
export class TokenUsers {
  private readonly cache = new LRUCache<string, TokenUser>({ max: 50_000, ttl: TOKEN_USER_TTL_MS });
  private readonly reading = new Map<string, Promise<TokenUser | null>>();

  constructor(private readonly users: UserRepository) {}

  async get(userID: string): Promise<TokenUser | null> {
    const known = this.cache.get(userID);
    if (known) return known;
    // Concurrent requests of one user share one read.
    let read = this.reading.get(userID);
    if (!read) {
      read = this.read(userID).finally(() => this.reading.delete(userID));
      this.reading.set(userID, read);
    }
    return read;
  }

  /** Called when a user's tokens change (a password reset): the next request reads the user again. */
  forget(userID: string): void {
    this.cache.delete(userID);
    this.reading.delete(userID);
  }

  private async read(userID: string): Promise<TokenUser | null> {
    const user = await this.users.tokenFields(userID);
    if (!user) return null;
    // new Date(): the offline stand-in's file storage hands Dates back as strings.
    const found = { userName: user.userName, validAfter: user.tokensValidAfter ? new Date(user.tokensValidAfter).getTime() : 0 };
    // Not cached when forgotten while reading: the read may predate the change.
    if (this.reading.has(userID)) this.cache.set(userID, found);
    return found;
  }
}
