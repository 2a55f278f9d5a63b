import { Inject, Injectable } from '@nestjs/common';
import type { TokenPayload } from '@taleloom/contracts';
import type { NextFunction, Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { tokenChecked } from '../common/early-auth';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { honours, namesUser, TokenUsers } from './token-user.cache';

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;
// Tokens whose signature was verified here, by their whole text (a client sends the same token with
// every request): one verification per token instead of one per request.
const VERIFIED_MAX = 20_000;

// Expired as jsonwebtoken tells it (no clock tolerance): from the second its `exp` names.
const expired = (payload: TokenPayload, now: number) => typeof payload.exp === 'number' && Math.floor(now / 1000) >= payload.exp;

/**
 * Checks a request's bearer token as it arrives, without a read: the same checks as the JWT strategy
 * (HS256 signature, expiry, a user id, a user this instance knows whose tokens it still honours), on
 * the user as TokenUsers knows it. A token that passes them all is noted on the request
 * (common/early-auth.ts): the guards take the user from there instead of running passport, and a send
 * can start its provider request before the rest of its pipeline (play/early-lane.ts). A user this
 * instance read longer ago than the TTL makes the token's user only likely: a send still starts early
 * on it, and the guard's passport check (with a read) decides, undoing that start when it refuses.
 * Anything else (no token, a bad or expired one, a user not known here) is left to passport, which
 * answers it.
 */
@Injectable()
export class TokenFastPath {
  private readonly key: KeyObject;
  private readonly verified = new LRUCache<string, TokenPayload>({ max: VERIFIED_MAX });

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: TokenUsers,
  ) {
    this.key = createSecretKey(Buffer.from(config.jwtSecret));
  }

  middleware(): (req: Request, res: Response, next: NextFunction) => void {
    return (req, _res, next) => {
      const header = req.headers.authorization;
      if (header) this.check(req, header);
      next();
    };
  }

  private check(req: Request, header: string): void {
    const token = BEARER.exec(header)?.[1];
    if (!token) return;
    let payload = this.verified.get(token);
    if (payload) {
      // Its signature stands; its expiry is checked again at every use.
      if (expired(payload, Date.now())) {
        this.verified.delete(token);
        return;
      }
    } else {
      try {
        payload = jwt.verify(token, this.key, { algorithms: ['HS256'] }) as TokenPayload;
      } catch {
        return;
      }
      // A token with a start (nbf) is verified each time, as its time may not have come yet.
      if ((payload as { nbf?: unknown }).nbf === undefined) this.verified.set(token, payload);
    }
    if (!namesUser(payload)) return;
    const fresh = this.users.peek(payload.userID);
    // Read longer ago than the TTL (a player who paused): a likely user, whom the guard reads again.
    const user = fresh ?? this.users.lastKnown(payload.userID);
    if (!user || !honours(user, payload)) return;
    tokenChecked(req, { userID: payload.userID, userName: user.userName }, fresh !== undefined);
  }
}
