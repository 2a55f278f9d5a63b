import {
  ErrorCode,
  type AnalyticsEventDto,
  type BindMobileDto,
  type InviteCodeDto,
  type LoginDto,
  type ResetPasswordDto,
  type SendSmsDto,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import { createAccountsApp } from './account-helpers';

const CN = '13800138000';
const US = '2015550123';

describe('account: bind phone, invitations, reset password, lockout, analytics', () => {
  let a: Awaited<ReturnType<typeof createAccountsApp>>;
  const db = () => a.t.connection.db!;
  const points = async (userID: string) =>
    (await db().collection('users').findOne({ _id: new Types.ObjectId(userID) }))!.points as number;

  beforeAll(async () => {
    a = await createAccountsApp({ LOGIN_MAX_FAILURES: '5', LOGIN_LOCK_MINUTES: '15' });
  });
  beforeEach(async () => {
    await a.t.clean();
    a.outbox.clear();
    a.clock.reset();
  });
  afterAll(() => a.t.close());

  const bind = (token: string, phoneNum: string, smsCode: string, countryCode = '86') =>
    a.http().post('/api/user/bind-mobile').set(a.bearer(token)).send({ phoneNum, countryCode, smsCode } satisfies BindMobileDto);

  async function bindPhone(token: string, phoneNum: string, countryCode = '86') {
    const sent = await a.sendBindCode(token, phoneNum, countryCode);
    expect(sent.status).toBe(200);
    return bind(token, phoneNum, a.outbox.lastCode(`+${countryCode}${phoneNum}`)!, countryCode);
  }

  const inviteCode = async (token: string) =>
    (await a.http().post('/api/user/invite-code').set(a.bearer(token)).send({} satisfies InviteCodeDto)).body.short as string;

  describe('bind phone', () => {
    it('needs a token; binds with a register code and grants 100000 once', async () => {
      const anon = await a.http().post('/api/user/send-sms').send({ type: 'register', phoneNum: CN, countryCode: '86' } satisfies SendSmsDto);
      expect([anon.status, anon.body.code]).toEqual([401, ErrorCode.UNAUTHORIZED]);

      const { token, userID } = await a.registerName('alice');
      const res = await bindPhone(token, US, '1');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ phone: US, phoneCountryCode: '1', phoneVerified: true, points: 100000 });
      expect((await a.userInfo(token)).body.data.points).toBe(100000);
      // Granted through the power ledger: the points record shows it as "bind phone".
      const record = await a.http().get('/api/user/user-points?type=income&page=1&pageSize=10').set(a.bearer(token));
      expect(record.body.data.records).toEqual([expect.objectContaining({ reason: 'init_points', points: 100000 })]);

      a.clock.advance(61_000);
      const again = await a.sendBindCode(token, CN);
      expect([again.status, again.body.code]).toEqual([409, ErrorCode.PHONE_ALREADY_VERIFIED]);
      expect(await points(userID)).toBe(100000);
    });

    it('refuses a wrong code, a code of another type, and codes of the wrong length', async () => {
      const { token } = await a.registerName('bruno');
      await a.sendBindCode(token, CN);
      const right = a.outbox.lastCode(`+86${CN}`)!;
      const wrong = await bind(token, CN, right === '000000' ? '111111' : '000000');
      expect([wrong.status, wrong.body.code]).toEqual([400, ErrorCode.SMS_CODE_WRONG]);
      const short = await bind(token, CN, '12345');
      expect([short.status, short.body.details[0].field]).toEqual([400, 'smsCode']);
      // A login code does not bind.
      a.clock.advance(61_000);
      await a.sendLoginCode(CN);
      const loginCode = await bind(token, CN, a.outbox.lastCode(`+86${CN}`)!);
      expect(loginCode.body.code).toBe(ErrorCode.SMS_CODE_WRONG);
    });

    it('20 concurrent bind requests with the right code bind once and grant once', async () => {
      const { token, userID } = await a.registerName('carla');
      await a.sendBindCode(token, CN);
      const code = a.outbox.lastCode(`+86${CN}`)!;
      const results = await Promise.all(Array.from({ length: 20 }, () => bind(token, CN, code)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(await points(userID)).toBe(100000);
    });

    it('a phone number pays the first-binding reward once ever, even when claimed by 20 users at once', async () => {
      const ids = Array.from({ length: 20 }, () => new Types.ObjectId());
      const claims = await Promise.all(ids.map((id) => a.rewards.claim(`init_points:+86${CN}`, id)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      // The owner's retry still owns it (a crashed grant can be finished), nobody else does.
      const owner = ids[claims.indexOf(true)];
      expect(await a.rewards.claim(`init_points:+86${CN}`, owner)).toBe(true);
      expect(await a.rewards.claim(`init_points:+86${CN}`, ids.find((i) => i !== owner)!)).toBe(false);
    });
  });

  describe('invitations', () => {
    it('gives each user one stable short code', async () => {
      const { token } = await a.registerName('inviter');
      const codes = await Promise.all(Array.from({ length: 5 }, () => inviteCode(token)));
      expect(new Set(codes).size).toBe(1);
      expect(codes[0]).toMatch(/^[a-z2-9]{8}$/);
      const res = await a.http().post('/api/user/invite-code').set(a.bearer(token)).send({});
      expect(res.body).toEqual({ status: 'success', message: 'ok', short: codes[0], data: { short: codes[0] } });
      expect((await a.http().post('/api/user/invite-code').send({})).status).toBe(401);
    });

    it('rewards the inviter 100000 when the invitee registered with the code and verified a phone, once', async () => {
      const inviter = await a.registerName('ivy');
      const code = await inviteCode(inviter.token);

      const invitee = await a.registerName('ian', 'secret1', code.toUpperCase());
      expect(await points(inviter.userID)).toBe(0);
      expect((await bindPhone(invitee.token, CN)).status).toBe(200);
      expect(await points(inviter.userID)).toBe(100000);
      expect(await points(invitee.userID)).toBe(100000);
      const record = await a.http().get('/api/user/user-points?type=income').set(a.bearer(inviter.token));
      expect(record.body.data.records).toEqual([expect.objectContaining({ reason: 'invite_user_register', points: 100000 })]);

      // Registering by phone with the code counts too.
      const byPhone = await a.phoneLogin(US, '1', code);
      expect(byPhone.status).toBe(200);
      expect(await points(inviter.userID)).toBe(200000);

      // A number that already triggered an invitation never does again.
      const other = await a.registerName('iris', 'secret1', code);
      a.clock.advance(61_000);
      expect((await bindPhone(other.token, US, '1')).status).toBe(200);
      expect(await points(inviter.userID)).toBe(200000);
      expect(await points(other.userID)).toBe(0);
    });

    it('refuses an unknown invite code with a code, and ignores a known one for existing users', async () => {
      const res = await a.http().post('/api/user/login').send({ type: 'username', userName: 'jo', password: 'secret1', inviteCode: 'zzzzzzzz' } satisfies LoginDto);
      expect([res.status, res.body.code]).toEqual([400, ErrorCode.INVITE_CODE_INVALID]);
      expect(await db().collection('users').countDocuments()).toBe(0);
      const inviter = await a.registerName('kim');
      const code = await inviteCode(inviter.token);
      const existing = await a.registerName('lea');
      await a.registerName('lea', 'secret1', code);
      expect((await db().collection('users').findOne({ _id: new Types.ObjectId(existing.userID) }))!.invitedBy).toBeNull();
    });
  });

  describe('reset password', () => {
    it('is only for phone-verified users', async () => {
      const { token } = await a.registerName('mia');
      const send = await a.http().post('/api/user/send-sms').set(a.bearer(token)).send({ type: 'reset_password' } satisfies SendSmsDto);
      expect([send.status, send.body.code]).toEqual([403, ErrorCode.PHONE_NOT_VERIFIED]);
      const reset = await a.http().post('/api/user/reset-password').set(a.bearer(token)).send({ smsCode: '123456', newPassword: 'newpass1' } satisfies ResetPasswordDto);
      expect([reset.status, reset.body.code]).toEqual([403, ErrorCode.PHONE_NOT_VERIFIED]);
    });

    it('sets the new password and invalidates every token issued before it', async () => {
      const { token } = await a.registerName('nora', 'oldpass1');
      await bindPhone(token, CN);
      const second = await a.registerName('nora', 'oldpass1');
      a.clock.advance(61_000);
      const send = await a.http().post('/api/user/send-sms').set(a.bearer(token)).send({ type: 'reset_password' } satisfies SendSmsDto);
      expect(send.status).toBe(200);
      const short = await a.http().post('/api/user/reset-password').set(a.bearer(token)).send({ smsCode: a.outbox.lastCode(`+86${CN}`)!, newPassword: '12345' });
      expect([short.status, short.body.details[0].field]).toEqual([400, 'newPassword']);

      const res = await a
        .http()
        .post('/api/user/reset-password')
        .set(a.bearer(token))
        .send({ smsCode: a.outbox.lastCode(`+86${CN}`)!, newPassword: 'newpass1' } satisfies ResetPasswordDto);
      expect(res.status).toBe(200);
      for (const old of [token, second.token]) {
        const denied = await a.userInfo(old);
        expect([denied.status, denied.body.code]).toEqual([401, ErrorCode.TOKEN_INVALID]);
      }
      expect((await a.userInfo(res.body.data.token)).status).toBe(200);
      const oldPassword = await a.http().post('/api/user/login').send({ type: 'username', userName: 'nora', password: 'oldpass1' } satisfies LoginDto);
      expect(oldPassword.body.code).toBe(ErrorCode.WRONG_PASSWORD);
      const fresh = await a.registerName('nora', 'newpass1');
      expect((await a.userInfo(fresh.token)).status).toBe(200);
    });
  });

  describe('brute force on passwords', () => {
    const attempt = (password: string, userName = 'olga') =>
      a.http().post('/api/user/login').send({ type: 'username', userName, password } satisfies LoginDto);

    it('locks a user name after 5 wrong passwords for 15 minutes, saying until when', async () => {
      await a.registerName('olga', 'rightpass');
      const codes: string[] = [];
      for (let i = 0; i < 5; i++) codes.push((await attempt('wrongpass')).body.code);
      expect(codes).toEqual([...Array(4).fill(ErrorCode.WRONG_PASSWORD), ErrorCode.ACCOUNT_LOCKED]);

      const locked = await attempt('rightpass');
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe(ErrorCode.ACCOUNT_LOCKED);
      expect(locked.body.params).toMatchObject({ minutes: 15, until: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/) });
      expect(locked.body.message).toContain('15');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);

      a.clock.advance(15 * 60_000 + 1000);
      expect((await attempt('rightpass')).status).toBe(200);
      // Success resets the count.
      expect((await attempt('wrongpass')).body.code).toBe(ErrorCode.WRONG_PASSWORD);
    });

    it('forgets old failures, and counts concurrent failures exactly', async () => {
      await a.registerName('pia', 'rightpass');
      for (let i = 0; i < 4; i++) await attempt('wrongpass', 'pia');
      a.clock.advance(16 * 60_000);
      expect((await attempt('wrongpass', 'pia')).body.code).toBe(ErrorCode.WRONG_PASSWORD);
      a.clock.reset();
      await a.t.clean();
      await a.registerName('pia', 'rightpass');
      const burst = await Promise.all(Array.from({ length: 8 }, () => attempt('wrongpass', 'pia')));
      expect(burst.map((r) => r.body.code)).toContain(ErrorCode.ACCOUNT_LOCKED);
      expect((await attempt('rightpass', 'pia')).body.code).toBe(ErrorCode.ACCOUNT_LOCKED);
    });
  });

  describe('analytics events', () => {
    it('records the four login events in a first-party collection, validated and rate-limited', async () => {
      const { token, userID } = await a.registerName('quinn');
      for (const name of ['login_page_view', 'login_button_click', 'invite_code_click'] as const) {
        const res = await a.http().post('/api/analytics/events').send({ name, path: '/login', method: 'phone' } satisfies AnalyticsEventDto);
        expect(res.status).toBe(202);
      }
      await a.http().post('/api/analytics/events').set(a.bearer(token)).send({ name: 'login_success', path: '/login' } satisfies AnalyticsEventDto);
      const events = await db().collection('analyticsEvents').find().sort({ at: 1 }).toArray();
      expect(events.map((e) => e.name)).toEqual(['login_page_view', 'login_button_click', 'invite_code_click', 'login_success']);
      expect(events[3].userID.toHexString()).toBe(userID);
      expect(JSON.stringify(events)).not.toContain('127.0.0.1');

      const bad = await a.http().post('/api/analytics/events').send({ name: 'purchase' });
      expect([bad.status, bad.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
      const injected = await a.http().post('/api/analytics/events').send({ name: { $ne: '' } });
      expect(injected.status).toBe(400);

      // The limit is a fixed one-minute window: start the burst at a window's start, so that it does not
      // straddle two windows (61 events in one window: the last is refused).
      a.clock.advance(60_000 - (a.clock.now().getTime() % 60_000));
      const burst = await Promise.all(
        Array.from({ length: 61 }, () => a.http().post('/api/analytics/events').send({ name: 'login_page_view' } satisfies AnalyticsEventDto)),
      );
      expect(burst.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    });
  });
});
