import { ErrorCode, type BindMobileDto, type LoginDto, type SendSmsDto } from '@taleloom/contracts';
import { createAccountsApp, FIXED_CAPTCHA } from './account-helpers';
import { createTestApp } from './test-app';
import request from 'supertest';

const CN = '13800138000';
const CN2 = '13900139000';

describe('phone sign-in: captcha, SMS codes, country codes, choose-user', () => {
  let a: Awaited<ReturnType<typeof createAccountsApp>>;
  const db = () => a.t.connection.db!;

  beforeAll(async () => {
    a = await createAccountsApp({ SMS_PHONE_HOURLY_LIMIT: '3', SMS_IP_HOURLY_LIMIT: '6' });
  });
  beforeEach(async () => {
    await a.t.clean();
    a.outbox.clear();
    a.clock.reset();
  });
  afterAll(() => a.t.close());

  it('GET /api/country-codes answers an object keyed by numeric calling codes', async () => {
    const res = await a.http().get('/api/country-codes');
    expect(res.status).toBe(200);
    const codes = res.body.data as Record<string, string[]>;
    expect(Object.keys(codes).length).toBeGreaterThan(200);
    expect(Object.keys(codes).every((k) => /^\d{1,3}$/.test(k))).toBe(true);
    expect(codes['86']).toEqual(['CN']);
    expect(codes['1']).toEqual(expect.arrayContaining(['US', 'CA']));
  });

  describe('captcha before a login code', () => {
    it('refuses a missing, wrong or reused captcha answer, and sends after a right one', async () => {
      const base = { type: 'login', phoneNum: CN, countryCode: '86' } satisfies SendSmsDto;
      const missing = await a.http().post('/api/user/send-sms').send(base);
      expect([missing.status, missing.body.code]).toEqual([400, ErrorCode.CAPTCHA_REQUIRED]);

      const id = await a.captcha();
      const wrong = await a.http().post('/api/user/send-sms').send({ ...base, verifyCode: 'nope', captchaId: id });
      expect([wrong.status, wrong.body.code]).toEqual([400, ErrorCode.CAPTCHA_INVALID]);
      // One try per image: the right answer on the same id is refused too.
      const reused = await a.http().post('/api/user/send-sms').send({ ...base, verifyCode: FIXED_CAPTCHA, captchaId: id });
      expect(reused.body.code).toBe(ErrorCode.CAPTCHA_INVALID);
      expect(a.outbox.messages).toHaveLength(0);

      const ok = await a.sendLoginCode(CN);
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({ resendAfterSeconds: 60, expiresInSeconds: 300 });
      expect(a.outbox.lastCode(`+86${CN}`)).toMatch(/^\d{6}$/);
    });

    it('expires an unanswered image after two minutes, and is case-insensitive', async () => {
      const id = await a.captcha();
      a.clock.advance(121_000);
      const late = await a
        .http()
        .post('/api/user/send-sms')
        .send({ type: 'login', phoneNum: CN, countryCode: '86', verifyCode: FIXED_CAPTCHA, captchaId: id } satisfies SendSmsDto);
      expect(late.body.code).toBe(ErrorCode.CAPTCHA_INVALID);
      const id2 = await a.captcha();
      const lower = await a
        .http()
        .post('/api/user/send-sms')
        .send({ type: 'login', phoneNum: CN, countryCode: '86', verifyCode: FIXED_CAPTCHA.toLowerCase(), captchaId: id2 });
      expect(lower.status).toBe(200);
    });
  });

  describe('bad input gets a clear 4xx with a code', () => {
    const send = (body: object) => a.http().post('/api/user/send-sms').send(body);

    it('malformed numbers, unknown country codes and invalid numbers', async () => {
      const letters = await send({ type: 'login', phoneNum: '138abc', countryCode: '86' });
      expect([letters.status, letters.body.code, letters.body.details[0].field]).toEqual([400, ErrorCode.VALIDATION_FAILED, 'phoneNum']);
      const short = await send({ type: 'login', phoneNum: '12345', countryCode: '86' });
      expect(short.body.details[0].field).toBe('phoneNum');
      const long = await send({ type: 'login', phoneNum: '1'.repeat(16), countryCode: '86' });
      expect(long.body.details[0].field).toBe('phoneNum');
      const plus = await send({ type: 'login', phoneNum: CN, countryCode: '+86' });
      expect(plus.body.details[0].field).toBe('countryCode');

      const captchaId = await a.captcha();
      const unknown = await send({ type: 'login', phoneNum: CN, countryCode: '999', verifyCode: FIXED_CAPTCHA, captchaId });
      expect([unknown.status, unknown.body.code]).toEqual([400, ErrorCode.COUNTRY_CODE_UNKNOWN]);
      const invalid = await send({ type: 'login', phoneNum: '1234567', countryCode: '86', verifyCode: FIXED_CAPTCHA, captchaId });
      expect([invalid.status, invalid.body.code]).toEqual([400, ErrorCode.PHONE_INVALID]);
      const zh = await send({ type: 'login', phoneNum: '1234567', countryCode: '86', language: 'zh-CN' });
      expect(zh.body.message).toBe('请输入正确的手机号。');
    });

    it('codes of the wrong length, and {"$ne": ...} objects where strings are expected', async () => {
      const login = (body: object) => a.http().post('/api/user/login').send(body);
      for (const verifyCode of ['12345', '1234567', 'abcdef']) {
        const res = await login({ type: 'phone', phoneNum: CN, countryCode: '86', verifyCode } satisfies LoginDto);
        expect([res.status, res.body.code, res.body.details[0].field]).toEqual([400, ErrorCode.VALIDATION_FAILED, 'verifyCode']);
      }
      const bodies: [string, object][] = [
        ['/api/user/login', { type: 'phone', phoneNum: { $ne: '' }, countryCode: '86', verifyCode: '123456' }],
        ['/api/user/login', { type: 'phone', phoneNum: CN, countryCode: '86', verifyCode: { $ne: '' } }],
        ['/api/user/login', { type: 'phone', phoneNum: CN, countryCode: { $gt: '' }, verifyCode: '123456' }],
        ['/api/user/send-sms', { type: 'login', phoneNum: { $ne: null }, countryCode: '86' }],
        ['/api/user/send-sms', { type: 'login', phoneNum: CN, countryCode: '86', verifyCode: { $ne: '' }, captchaId: 'x' }],
        ['/api/user/send-sms', { type: { $ne: 'x' }, phoneNum: CN, countryCode: '86' }],
        ['/api/user/login', { type: 'username', userName: 'alice', password: { $ne: '' } }],
      ];
      for (const [path, body] of bodies) {
        const res = await a.http().post(path).send(body);
        expect([path, res.status, res.body.code]).toEqual([path, 400, ErrorCode.VALIDATION_FAILED]);
      }
      const bind = await a.http().post('/api/user/bind-mobile').send({ phoneNum: CN, countryCode: '86', smsCode: { $ne: '' } });
      expect(bind.status).toBe(401); // the token is checked first
    });
  });

  describe('codes', () => {
    it('registers a new number by phone login: verified, generated name, first-binding reward; signs it in again later', async () => {
      const first = await a.phoneLogin(CN);
      expect(first.status).toBe(200);
      const { token, phoneToken, userInfo } = first.body.data;
      expect(token.split('.')).toHaveLength(3);
      expect(phoneToken).toBeUndefined();
      expect(userInfo).toMatchObject({ phone: CN, phoneCountryCode: '86', phoneVerified: true, points: 100000 });
      expect(userInfo.userName).toMatch(/^user_[a-z0-9]{6}$/);
      expect(userInfo.userName).not.toContain(CN.slice(-4));

      a.clock.advance(61_000);
      const again = await a.phoneLogin(CN);
      expect(again.body.data.userInfo).toMatchObject({ userID: userInfo.userID, points: 100000 });
      expect(await db().collection('users').countDocuments()).toBe(1);
    });

    it('a code is used once', async () => {
      await a.sendLoginCode(CN);
      const verifyCode = a.outbox.lastCode(`+86${CN}`)!;
      const body = { type: 'phone', phoneNum: CN, countryCode: '86', verifyCode } satisfies LoginDto;
      expect((await a.http().post('/api/user/login').send(body)).status).toBe(200);
      const twice = await a.http().post('/api/user/login').send(body);
      expect([twice.status, twice.body.code]).toEqual([400, ErrorCode.SMS_CODE_WRONG]);
    });

    it('expires after 5 minutes', async () => {
      await a.sendLoginCode(CN);
      const verifyCode = a.outbox.lastCode(`+86${CN}`)!;
      a.clock.advance(300_000 + 1000);
      const res = await a.http().post('/api/user/login').send({ type: 'phone', phoneNum: CN, countryCode: '86', verifyCode } satisfies LoginDto);
      expect([res.status, res.body.code]).toEqual([400, ErrorCode.SMS_CODE_EXPIRED]);
    });

    it('is burnt by the fifth wrong try: even the right code is refused afterwards', async () => {
      await a.sendLoginCode(CN);
      const right = a.outbox.lastCode(`+86${CN}`)!;
      const wrong = right === '000000' ? '111111' : '000000';
      const codes: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await a.http().post('/api/user/login').send({ type: 'phone', phoneNum: CN, countryCode: '86', verifyCode: wrong });
        codes.push(res.body.code);
      }
      expect(codes).toEqual([...Array(4).fill(ErrorCode.SMS_CODE_WRONG), ErrorCode.SMS_CODE_TOO_MANY_TRIES]);
      const late = await a.http().post('/api/user/login').send({ type: 'phone', phoneNum: CN, countryCode: '86', verifyCode: right });
      expect(late.body.code).toBe(ErrorCode.SMS_CODE_TOO_MANY_TRIES);
    });

    it('a number gets one code per 60 s, enforced by the server; a new code replaces the old one', async () => {
      expect((await a.sendLoginCode(CN)).status).toBe(200);
      const old = a.outbox.lastCode(`+86${CN}`)!;
      a.clock.advance(30_000);
      const soon = await a.sendLoginCode(CN);
      expect([soon.status, soon.body.code, soon.body.params.seconds]).toEqual([429, ErrorCode.SMS_RESEND_TOO_SOON, 30]);
      expect(soon.headers['retry-after']).toBe('30');
      a.clock.advance(30_000);
      expect((await a.sendLoginCode(CN)).status).toBe(200);
      expect(a.outbox.messages).toHaveLength(2);
      const fresh = a.outbox.lastCode(`+86${CN}`)!;
      if (fresh !== old) {
        const stale = await a.http().post('/api/user/login').send({ type: 'phone', phoneNum: CN, countryCode: '86', verifyCode: old });
        expect(stale.body.code).toBe(ErrorCode.SMS_CODE_WRONG);
      }
    });

    it('limits codes per number and per client IP per hour (stored in MongoDB)', async () => {
      // The limits count in fixed one-hour windows: start at a window's start, so the six minutes this
      // test moves the clock on never straddle two windows.
      a.clock.advance(3_600_000 - (a.clock.now().getTime() % 3_600_000));
      for (let i = 0; i < 3; i++) {
        expect((await a.sendLoginCode(CN)).status).toBe(200);
        a.clock.advance(61_000);
      }
      const perPhone = await a.sendLoginCode(CN);
      expect([perPhone.status, perPhone.body.code]).toEqual([429, ErrorCode.TOO_MANY_REQUESTS]);
      for (let i = 0; i < 3; i++) {
        expect((await a.sendLoginCode(CN2)).status).toBe(200);
        a.clock.advance(61_000);
      }
      const perIp = await a.sendLoginCode('13700137000');
      expect([perIp.status, perIp.body.code]).toEqual([429, ErrorCode.TOO_MANY_REQUESTS]);
      expect(await db().collection('rateLimits').countDocuments()).toBeGreaterThan(0);
    });

    it('a provider failure answers 502 and frees the number for an immediate retry', async () => {
      a.outbox.failing = true;
      const failed = await a.sendLoginCode(CN);
      expect([failed.status, failed.body.code]).toEqual([502, ErrorCode.SMS_SEND_FAILED]);
      a.outbox.failing = false;
      expect((await a.sendLoginCode(CN)).status).toBe(200);
    });

    it('20 concurrent logins with the right code register one user and grant the reward once', async () => {
      await a.sendLoginCode(CN);
      const verifyCode = a.outbox.lastCode(`+86${CN}`)!;
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          a.http().post('/api/user/login').send({ type: 'phone', phoneNum: CN, countryCode: '86', verifyCode } satisfies LoginDto),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 400).map((r) => r.body.code)).toEqual(Array(19).fill(ErrorCode.SMS_CODE_WRONG));
      const users = await db().collection('users').find().toArray();
      expect(users).toHaveLength(1);
      expect(users[0].points).toBe(100000);
    });
  });

  describe('choose-user', () => {
    it('answers token and phoneToken with both choices when the number has a phone account and a user-name account', async () => {
      const phoneAccount = (await a.phoneLogin(CN)).body.data.userInfo;
      const named = await a.registerName('carol');
      a.clock.advance(61_000);
      expect((await a.sendBindCode(named.token, CN)).status).toBe(200);
      const bind = await a
        .http()
        .post('/api/user/bind-mobile')
        .set(a.bearer(named.token))
        .send({ phoneNum: CN, countryCode: '86', smsCode: a.outbox.lastCode(`+86${CN}`)! } satisfies BindMobileDto);
      expect(bind.status).toBe(200);
      // The number already earned its first-binding reward on the phone account.
      expect(bind.body.data).toMatchObject({ phoneVerified: true, points: 0 });

      a.clock.advance(61_000);
      const res = await a.phoneLogin(CN);
      expect(res.status).toBe(200);
      const { token, phoneToken, userInfo } = res.body.data;
      expect(userInfo.token).toMatchObject({ userID: named.userID, userName: 'carol', phoneVerifiedAt: expect.any(String) });
      expect(userInfo.phoneToken).toMatchObject({
        userID: phoneAccount.userID,
        userName: phoneAccount.userName,
        phoneVerifiedAt: phoneAccount.phoneVerifiedAt,
      });
      const payload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
      expect(payload(token).userID).toBe(named.userID);
      expect(payload(phoneToken).userID).toBe(phoneAccount.userID);
      expect((await a.userInfo(token)).body.data.userName).toBe('carol');
      expect((await a.userInfo(phoneToken)).body.data.userID).toBe(phoneAccount.userID);
    });

    it('a number held by a user-name account cannot be bound by another one, and signs in to that account alone', async () => {
      const first = await a.registerName('dora');
      const second = await a.registerName('erik');
      await a.sendBindCode(first.token, CN);
      await a
        .http()
        .post('/api/user/bind-mobile')
        .set(a.bearer(first.token))
        .send({ phoneNum: CN, countryCode: '86', smsCode: a.outbox.lastCode(`+86${CN}`)! } satisfies BindMobileDto);
      a.clock.advance(61_000);
      const taken = await a.sendBindCode(second.token, CN);
      expect([taken.status, taken.body.code]).toEqual([409, ErrorCode.PHONE_ALREADY_BOUND]);
      const login = await a.phoneLogin(CN);
      expect(login.body.data.phoneToken).toBeUndefined();
      expect(login.body.data.userInfo.userID).toBe(first.userID);
    });
  });
});

describe('the default image captcha', () => {
  it('serves an SVG with an id; its answer is not in the answer', async () => {
    const t = await createTestApp();
    try {
      const res = await request(t.app.getHttpServer()).get('/api/captcha');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.data).toMatchObject({ provider: 'svg', id: expect.stringMatching(/^[a-f0-9]{24}$/), expiresInSeconds: 120 });
      expect(res.body.data.svg).toMatch(/^<svg[\s\S]+<\/svg>$/);
      const stored = await t.connection.db!.collection('captchas').findOne();
      expect(Object.keys(stored!).sort()).toEqual(['__v', '_id', 'answerHash', 'expiresAt', 'expiresAtMs']);
    } finally {
      await t.close();
    }
  });
});
