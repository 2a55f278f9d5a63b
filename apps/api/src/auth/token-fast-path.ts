import { Inject, Injectable } from '@nestjs/common';
import type { TokenPayload } from '@taleloom/contracts';
import type { NextFunction, Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { tokenChecked } from '../common/early-auth';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { honours, namesUser, TokenUsers } from './token-user.cache';

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/**
 * Checks a request's bearer token as it arrives, without a read: the same checks as the JWT strategy
 * (HS256 signature, expiry, a user id, a user this instance knows whose tokens it still honours), on
 * the user as TokenUsers knows it. A token that passes them all is noted on the request
 * (common/early-auth.ts): the guards take the user from there instead of running passport, and a send
 * can start its provider request before the rest of its pipeline (play/early-lane.ts). Anything else
 * (no token, a bad or expired one, a user not known here) is left to passport, which answers it.
 */
@Injectable()
export class TokenFastPath {
  private readonly key: KeyObject;

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
    let payload: TokenPayload;
    try {
      payload = jwt.verify(token, this.key, { algorithms: ['HS256'] }) as TokenPayload;
    } catch {
      return;
    }
    if (!namesUser(payload)) return;
    const user = this.users.peek(payload.userID);
    if (!user || !honours(user, payload)) return;
    tokenChecked(req, { userID: payload.userID, userName: user.userName });
  }
}
