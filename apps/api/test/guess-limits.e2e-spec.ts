import { ErrorCode, SMS_CODE_MAX_WRONG_TRIES, type LoginDto } from '@taleloom/contracts';
import request from 'supertest';
import type { MockInstance } from 'vitest';
import { PasswordsService } from '../src/auth/passwords.service';
import { SmsCodeService } from '../src/verification/sms-code.service';
import { createAccountsApp } from './account-helpers';
import { createTestApp, type TestApp } from './test-app';

/**
 * Guessing limits hold when the guesses arrive together: a try is counted in the same conditional
 * update that decides whether it may be checked, so of 50 tries sent at once (over two API instances
 * on one database) at most the limit's number are checked; the others are refused unread. The checks
 * are counted where they happen (the SMS code comparison, the password hash verification).
 */
const BURST = 50;
const MAX_FAILURES = 5;
const LOCK_MINUTES = 15;
const CN = '13800138000';

describe('guessing limits under concurrency: SMS code tries and password lockout', () => {
  let a: Awaited<ReturnType<typeof createAccountsApp>>;
  let b: TestApp;
  const limits = { LOGIN_MAX_FAILURES: String(MAX_FAILURES), LOGIN_LOCK_MINUTES: String(LOCK_MINUTES) };

  beforeAll(async () => {
    a = await createAccountsApp(limits);
    // A second instance on the same database (as a second replica behind a load balancer); the test
    // app's per-IP sign-in limit is high, so only the limits under test answer.
    b = await createTestApp({ ...limits, SMS_PROVIDER: 'outbox', CAPTCHA_PROVIDER: 'fixed' }, { databaseName: a.t.databaseName });
  });
  beforeEach(async () => {
    await a.t.clean();
    a.outbox.clear();
    a.clock.reset();
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await b.app.close();
    await a.t.close();
  });

  const login = (app: TestApp, body: LoginDto) => request(app.app.getHttpServer()).post('/api/user/login').send(body);
  /** The same request `BURST` times at once, alternating between the two instances. */
  const burst = (body: (i: number) => LoginDto) =>
    Promise.all(Array.from({ length: BURST }, (_, i) => login(i % 2 ? b : a.t, body(i))));
  const tally = (codes: string[]) => codes.reduce<Record<string, number>>((n, c) => ({ ...n, [c]: (n[c] ?? 0) + 1 }), {});

  describe('SMS code', () => {
    const phoneLogin = (verifyCode: string): LoginDto => ({ type: 'phone', phoneNum: CN, countryCode: '86', verifyCode });

    it(`${BURST} wrong codes at once: at most ${SMS_CODE_MAX_WRONG_TRIES} are compared, the rest answer SMS_CODE_TOO_MANY_TRIES; the right code is refused until a new one is sent`, async () => {
      expect((await a.sendLoginCode(CN)).status).toBe(200);
      const right = a.outbox.lastCode(`+86${CN}`)!;
      const wrong = right === '000000' ? '111111' : '000000';
      const compared = [a.t, b].map((app) => vi.spyOn(app.app.get(SmsCodeService), 'matches'));

      const answers = await burst(() => phoneLogin(wrong));

      const compares = compared.reduce((n, spy) => n + spy.mock.calls.length, 0);
      expect(compares).toBe(SMS_CODE_MAX_WRONG_TRIES);
      expect(answers.every((r) => r.status >= 400 && r.status < 500)).toBe(true);
      expect(tally(answers.map((r) => r.body.code))).toEqual({
        [ErrorCode.SMS_CODE_WRONG]: SMS_CODE_MAX_WRONG_TRIES - 1,
        [ErrorCode.SMS_CODE_TOO_MANY_TRIES]: BURST - SMS_CODE_MAX_WRONG_TRIES + 1,
      });
      expect((await a.t.connection.db!.collection('smsCodes').findOne({ phone: `+86${CN}` }))!.wrongTries).toBe(SMS_CODE_MAX_WRONG_TRIES);

      // The burnt code stays refused, right or not, on either instance, and nothing more is compared.
      for (const app of [a.t, b]) expect((await login(app, phoneLogin(right))).body.code).toBe(ErrorCode.SMS_CODE_TOO_MANY_TRIES);
      expect(compared.reduce((n, spy) => n + spy.mock.calls.length, 0)).toBe(SMS_CODE_MAX_WRONG_TRIES);
      // A new code (after the resend interval) is let in again.
      a.clock.advance(61_000);
      expect((await a.sendLoginCode(CN)).status).toBe(200);
      const fresh = await login(a.t, phoneLogin(a.outbox.lastCode(`+86${CN}`)!));
      expect(fresh.status).toBe(200);
    });

    it('of a burst of right codes exactly one signs in; a right code among wrong ones is compared only if let in', async () => {
      await a.sendLoginCode(CN);
      const right = a.outbox.lastCode(`+86${CN}`)!;
      const rights = await Promise.all(Array.from({ length: 10 }, (_, i) => login(i % 2 ? b : a.t, phoneLogin(right))));
      expect(rights.filter((r) => r.status === 200)).toHaveLength(1);
      // The others find the code used up (or, past the fifth try, not let in).
      for (const r of rights.filter((r) => r.status !== 200)) {
        expect([ErrorCode.SMS_CODE_WRONG, ErrorCode.SMS_CODE_TOO_MANY_TRIES]).toContain(r.body.code);
      }

      a.clock.advance(61_000);
      await a.sendLoginCode(CN);
      const second = a.outbox.lastCode(`+86${CN}`)!;
      const other = second === '000000' ? '111111' : '000000';
      const compared = [a.t, b].map((app) => vi.spyOn(app.app.get(SmsCodeService), 'matches'));
      // The right code sent last: whether it is among the tries let in depends on arrival; never more
      // than the limit are compared, and it signs in only if it was one of them.
      const mixed = await burst((i) => phoneLogin(i === BURST - 1 ? second : other));
      const compares = compared.reduce((n, spy) => n + spy.mock.calls.length, 0);
      expect(compares).toBeLessThanOrEqual(SMS_CODE_MAX_WRONG_TRIES);
      const signedIn = mixed.filter((r) => r.status === 200).length;
      expect(signedIn).toBeLessThanOrEqual(1);
      if (signedIn) expect(compared.some((spy) => spy.mock.calls.some(([hash, stored]) => hash === stored))).toBe(true);
      expect(mixed.filter((r) => r.body.code === ErrorCode.SMS_CODE_WRONG).length).toBeLessThanOrEqual(SMS_CODE_MAX_WRONG_TRIES - 1);
    });
  });

  describe('password lockout', () => {
    const byName = (userName: string, password: string): LoginDto => ({ type: 'username', userName, password });
    const verified = () => [a.t, b].map((app) => vi.spyOn(app.app.get(PasswordsService), 'verify'));
    const count = (spies: MockInstance[]) => spies.reduce((n, spy) => n + spy.mock.calls.length, 0);

    it(`${BURST} wrong passwords at once: at most ${MAX_FAILURES} are checked and answered WRONG_PASSWORD or locked, the rest ACCOUNT_LOCKED; the right password is refused until the lock ends`, async () => {
      await a.registerName('olga', 'rightpass');
      const checks = verified();

      const answers = await burst((i) => byName('olga', `wrong-${i}`));

      expect(count(checks)).toBe(MAX_FAILURES);
      const codes = tally(answers.map((r) => r.body.code));
      expect(codes).toEqual({ [ErrorCode.WRONG_PASSWORD]: MAX_FAILURES - 1, [ErrorCode.ACCOUNT_LOCKED]: BURST - MAX_FAILURES + 1 });
      expect(answers.filter((r) => r.body.code === ErrorCode.ACCOUNT_LOCKED).every((r) => r.status === 429 && Number(r.headers['retry-after']) > 0)).toBe(true);

      // The right password is refused unchecked on both instances until the lock ends, then let in.
      for (const app of [a.t, b]) expect((await login(app, byName('olga', 'rightpass'))).body.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      a.clock.advance(LOCK_MINUTES * 60_000 - 5_000);
      expect((await login(a.t, byName('olga', 'rightpass'))).body.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(count(checks)).toBe(MAX_FAILURES);
      a.clock.advance(10_000);
      expect((await login(a.t, byName('olga', 'rightpass'))).status).toBe(200);
      // The count starts again after the lock.
      expect((await login(a.t, byName('olga', 'wrongpass'))).body.code).toBe(ErrorCode.WRONG_PASSWORD);
    });

    it(`${BURST} sign-ins at once with different passwords for a new name: one registers it, at most ${MAX_FAILURES} others are checked`, async () => {
      const checks = verified();
      const answers = await burst((i) => byName('newcomer', `password-${i}`));

      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      expect(count(checks)).toBeLessThanOrEqual(MAX_FAILURES);
      const codes = tally(answers.filter((r) => r.status !== 200).map((r) => r.body.code));
      expect(Object.keys(codes).sort()).toEqual([ErrorCode.ACCOUNT_LOCKED, ErrorCode.WRONG_PASSWORD].sort());
      expect(codes[ErrorCode.WRONG_PASSWORD]).toBeLessThanOrEqual(MAX_FAILURES - 1);
      // The registered password is locked out too until the lock ends.
      const winner = answers.findIndex((r) => r.status === 200);
      expect((await login(a.t, byName('newcomer', `password-${winner}`))).body.code).toBe(ErrorCode.ACCOUNT_LOCKED);
    });

    it('a right password among wrong ones at once is let in and starts the count again', async () => {
      await a.registerName('pia', 'rightpass');
      for (let i = 0; i < MAX_FAILURES - 3; i++) await login(a.t, byName('pia', 'wrongpass'));
      // Three tries left: the right one and a wrong one arrive together; neither is the last try.
      const [right, wrong] = await Promise.all([login(a.t, byName('pia', 'rightpass')), login(b, byName('pia', 'wrongpass'))]);
      expect(right.status).toBe(200);
      expect(wrong.body.code).toBe(ErrorCode.WRONG_PASSWORD);
      // At most the concurrent wrong one is still counted: MAX_FAILURES - 2 more wrong ones are not locked.
      for (let i = 0; i < MAX_FAILURES - 2; i++) expect((await login(a.t, byName('pia', 'wrongpass'))).body.code).toBe(ErrorCode.WRONG_PASSWORD);
    });
  });
});
