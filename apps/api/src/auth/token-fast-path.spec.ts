import jwt from 'jsonwebtoken';
import { Types } from 'mongoose';
import type { IncomingMessage } from 'node:http';
import { checkedUser, likelyUser } from '../common/early-auth';
import type { AppConfig } from '../config/app-config';
import { TokenFastPath } from './token-fast-path';
import type { TokenUser, TokenUsers } from './token-user.cache';

const SECRET = 'a-test-secret-of-some-length';

describe('TokenFastPath: a bearer token checked on arrival, as the JWT strategy checks it', () => {
  const userID = new Types.ObjectId().toHexString();
  const known = new Map<string, TokenUser>();
  // Read longer ago than the TTL: no longer served by peek, still known.
  const stale = new Map<string, TokenUser>();
  const users = { peek: (id: string) => known.get(id), lastKnown: (id: string) => known.get(id) ?? stale.get(id) } as unknown as TokenUsers;
  const fastPath = new TokenFastPath({ jwtSecret: SECRET } as AppConfig, users);
  const run = fastPath.middleware();
  const arrive = (authorization?: string) => {
    const req = { headers: authorization ? { authorization } : {} } as unknown as IncomingMessage;
    let nexts = 0;
    run(req as never, {} as never, () => nexts++);
    expect(nexts).toBe(1);
    return checkedUser(req);
  };
  const likely = (authorization: string) => {
    const req = { headers: { authorization } } as unknown as IncomingMessage;
    run(req as never, {} as never, () => undefined);
    return { checked: checkedUser(req), likely: likelyUser(req) };
  };
  const sign = (payload: object, options: jwt.SignOptions = {}, secret = SECRET) => jwt.sign(payload, secret, { algorithm: 'HS256', expiresIn: 600, ...options });

  beforeEach(() => {
    known.clear();
    stale.clear();
    known.set(userID, { userName: 'alice', validAfter: 0 });
  });

  it('notes the user of a valid token whose user this instance knows', () => {
    expect(arrive(`Bearer ${sign({ userID, userName: 'alice' })}`)).toEqual({ userID, userName: 'alice' });
  });

  it('leaves to passport what it cannot vouch for: no token, another scheme, a bad signature, another algorithm, expiry, a bad id', () => {
    expect(arrive()).toBeUndefined();
    expect(arrive(`Basic ${sign({ userID })}`)).toBeUndefined();
    expect(arrive(`Bearer ${sign({ userID }, {}, 'another-secret')}`)).toBeUndefined();
    expect(arrive(`Bearer ${sign({ userID }, { algorithm: 'HS512' })}`)).toBeUndefined();
    expect(arrive(`Bearer ${jwt.sign({ userID }, '', { algorithm: 'none' })}`)).toBeUndefined();
    expect(arrive(`Bearer ${jwt.sign({ userID, exp: Math.floor(Date.now() / 1000) - 10 }, SECRET, { algorithm: 'HS256' })}`)).toBeUndefined();
    expect(arrive(`Bearer ${sign({ userID: 'not-an-id' })}`)).toBeUndefined();
  });

  it('leaves to passport a user not known here, and a token issued before the user\'s last password change', () => {
    const stranger = new Types.ObjectId().toHexString();
    expect(arrive(`Bearer ${sign({ userID: stranger })}`)).toBeUndefined();
    known.set(userID, { userName: 'alice', validAfter: Date.now() + 60_000 });
    expect(arrive(`Bearer ${sign({ userID })}`)).toBeUndefined();
  });

  it('notes a user read longer ago than the TTL as likely only (the guard checks the token again), and nothing for what fails a check', () => {
    known.clear();
    stale.set(userID, { userName: 'alice', validAfter: 0 });
    expect(likely(`Bearer ${sign({ userID })}`)).toEqual({ checked: undefined, likely: { userID, userName: 'alice' } });
    // The signature, the algorithm, the expiry and the last password change as known are still checked.
    expect(likely(`Bearer ${sign({ userID }, {}, 'another-secret')}`)).toEqual({ checked: undefined, likely: undefined });
    expect(likely(`Bearer ${jwt.sign({ userID, exp: Math.floor(Date.now() / 1000) - 10 }, SECRET, { algorithm: 'HS256' })}`)).toEqual({ checked: undefined, likely: undefined });
    stale.set(userID, { userName: 'alice', validAfter: Date.now() + 60_000 });
    expect(likely(`Bearer ${sign({ userID })}`)).toEqual({ checked: undefined, likely: undefined });
  });

  it('verifies a token once: the same token again is not verified again, but its expiry is checked at every use', () => {
    const verify = jest.spyOn(jwt, 'verify');
    try {
      const token = sign({ userID, userName: 'alice' }, { expiresIn: 60 });
      expect(arrive(`Bearer ${token}`)).toEqual({ userID, userName: 'alice' });
      expect(arrive(`Bearer ${token}`)).toEqual({ userID, userName: 'alice' });
      expect(verify).toHaveBeenCalledTimes(1);
      // The same payload with another signature is another token: verified, and refused.
      expect(arrive(`Bearer ${token.slice(0, token.lastIndexOf('.'))}.${sign({ userID }, {}, 'another-secret').split('.')[2]}`)).toBeUndefined();
      expect(verify).toHaveBeenCalledTimes(2);
      // A minute later the token has expired: refused without a verification, and forgotten.
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
      try {
        expect(arrive(`Bearer ${token}`)).toBeUndefined();
        expect(arrive(`Bearer ${token}`)).toBeUndefined();
      } finally {
        clock.mockRestore();
      }
      expect(verify).toHaveBeenCalledTimes(3);
    } finally {
      verify.mockRestore();
    }
  });
});
