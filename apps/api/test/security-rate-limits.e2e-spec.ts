import { ErrorCode, type LoginDto, type SendSmsDto } from '@taleloom/contracts';
import { Types } from 'mongoose';
import request from 'supertest';
import { Clock } from '../src/verification/clock';
import { createAccountsApp, FIXED_CAPTCHA } from './account-helpers';
import { as, createStory, signUp } from './story-factories';
import { createTestApp, type TestApp } from './test-app';

/**
 * The rate limits on sign-in, SMS sending and generation: each answers a coded 429 with the seconds to
 * wait (in both languages, and as Retry-After), and each is a counter in MongoDB, so two API
 * instances on one database share it. (The per-name password lockout, the per-number resend interval
 * and the per-number/per-IP hourly SMS limits on one instance are proven in account and phone-login.)
 */
/**
 * Limits count in fixed windows: moves the instances' clocks (equally) to the start of the next window,
 * so that a test's requests never straddle two windows.
 */
function atWindowStart(apps: TestApp[], windowSeconds: number): void {
  const clocks = apps.map((app) => app.app.get(Clock));
  const windowMs = windowSeconds * 1000;
  const delta = windowMs - (clocks[0].now().getTime() % windowMs);
  for (const clock of clocks) clock.advance(delta);
}

describe('rate limits: sign-in, SMS and generation, shared across instances', () => {
  /** A second API instance on the same database as `t` (like a second replica behind a load balancer). */
  const secondInstance = (t: TestApp, overrides: Record<string, string>) => createTestApp(overrides, { databaseName: t.databaseName });

  describe('sign-in attempts per client IP', () => {
    const LIMITS = { LOGIN_IP_PER_MINUTE: '4' };
    let a: Awaited<ReturnType<typeof createAccountsApp>>;
    let b: TestApp;
    beforeAll(async () => {
      a = await createAccountsApp(LIMITS);
      b = await secondInstance(a.t, { ...LIMITS, SMS_PROVIDER: 'outbox', CAPTCHA_PROVIDER: 'fixed' });
    });
    afterAll(async () => {
      await b.app.close();
      await a.t.close();
    });

    // The app trusts X-Forwarded-For from a proxy on loopback: that is how it sees client addresses.
    const attempt = (app: TestApp, ip: string, body: LoginDto, lang = 'en') =>
      request(app.app.getHttpServer()).post('/api/user/login').set('X-Forwarded-For', ip).set('Accept-Language', lang).send(body);
    const wrong = (userName: string): LoginDto => ({ type: 'username', userName, password: 'wrong-password' });

    it('counts attempts of every kind from one address over both instances, then answers 429 LOGIN_RATE_LIMITED', async () => {
      await a.registerName('sprayed1', 'rightpass');
      atWindowStart([a.t, b], 60);
      const ip = '203.0.113.7';
      // Password spraying: one wrong password each for many names never trips the per-name lockout...
      expect((await attempt(a.t, ip, wrong('sprayed1'))).body.code).toBe(ErrorCode.WRONG_PASSWORD);
      expect((await attempt(b, ip, wrong('sprayed2'))).status).toBe(200); // registers a name
      expect((await attempt(a.t, ip, { type: 'phone', phoneNum: '13800138000', countryCode: '86', verifyCode: '123456' })).body.code).toBe(
        ErrorCode.SMS_CODE_WRONG,
      );
      expect((await attempt(b, ip, wrong('sprayed1'))).body.code).toBe(ErrorCode.WRONG_PASSWORD);
      // ...but the address's fifth attempt within the minute is refused, on either instance, even with the right password.
      for (const app of [a.t, b]) {
        const limited = await attempt(app, ip, { type: 'username', userName: 'sprayed1', password: 'rightpass' });
        expect([limited.status, limited.body.code]).toEqual([429, ErrorCode.LOGIN_RATE_LIMITED]);
        expect(limited.body.params.seconds).toBeGreaterThan(0);
        expect(limited.body.params.seconds).toBeLessThanOrEqual(60);
        expect(limited.headers['retry-after']).toBe(String(limited.body.params.seconds));
        expect(limited.body.message).toContain(String(limited.body.params.seconds));
      }
      const zh = await attempt(a.t, ip, wrong('sprayed1'), 'zh-CN');
      expect(zh.body.code).toBe(ErrorCode.LOGIN_RATE_LIMITED);
      expect(zh.body.message).toMatch(/[\u4e00-\u9fff].*\d+ 秒/);

      // Another address is not affected; the next minute the first one may try again.
      expect((await attempt(a.t, '198.51.100.9', { type: 'username', userName: 'sprayed1', password: 'rightpass' })).status).toBe(200);
      atWindowStart([a.t, b], 60);
      expect((await attempt(b, ip, { type: 'username', userName: 'sprayed1', password: 'rightpass' })).status).toBe(200);
    });
  });

  it('an untrusted client cannot dodge the per-IP limit with X-Forwarded-For (TRUST_PROXY)', async () => {
    // Here only 10.0.0.0/8 is a trusted proxy, so the test's loopback connection is a client itself.
    const t = await createTestApp({ LOGIN_IP_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8' });
    try {
      atWindowStart([t], 60);
      const codes: number[] = [];
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        const res = await request(t.app.getHttpServer())
          .post('/api/user/login')
          .set('X-Forwarded-For', ip)
          .send({ type: 'username', userName: 'spoofer', password: 'wrong-one' } satisfies LoginDto);
        codes.push(res.status);
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await t.close();
    }
  });

  describe('SMS codes', () => {
    it('the hourly per-number limit holds over two instances', async () => {
      const a = await createAccountsApp({ SMS_PHONE_HOURLY_LIMIT: '2', SMS_RESEND_SECONDS: '1' });
      const b = await secondInstance(a.t, { SMS_PHONE_HOURLY_LIMIT: '2', SMS_RESEND_SECONDS: '1', SMS_PROVIDER: 'outbox', CAPTCHA_PROVIDER: 'fixed' });
      try {
        const send = async (app: TestApp) => {
          const http = () => request(app.app.getHttpServer());
          const captcha = await http().get('/api/captcha');
          return http()
            .post('/api/user/send-sms')
            .send({ type: 'login', phoneNum: '13800138001', countryCode: '86', verifyCode: FIXED_CAPTCHA, captchaId: captcha.body.data.id } satisfies SendSmsDto);
        };
        atWindowStart([a.t, b], 3600);
        // Past the resend interval each time, on both instances' clocks.
        const later = () => [a.clock, b.app.get(Clock)].forEach((clock) => clock.advance(2000));
        expect((await send(a.t)).status).toBe(200);
        later();
        expect((await send(b)).status).toBe(200);
        later();
        const third = await send(a.t);
        expect([third.status, third.body.code]).toEqual([429, ErrorCode.TOO_MANY_REQUESTS]);
        expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        await b.app.close();
        await a.t.close();
      }
    });
  });

  describe('generations per user', () => {
    const LIMITS = { GENERATION_USER_PER_MINUTE: '3', DEMO_MODEL_CHUNK_DELAY_MS: '0' };
    let t: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      t = await createTestApp(LIMITS);
      b = await secondInstance(t, LIMITS);
    });
    afterAll(async () => {
      await b.app.close();
      await t.close();
    });

    const send = (app: TestApp, token: string, story: string) =>
      request(app.app.getHttpServer()).post(`/api/llm/${story}`).set('Authorization', `Bearer ${token}`).send({ content: 'Go on.' });

    it('counts sends over all stories and both instances; the next is 429 GENERATION_RATE_LIMITED and starts nothing', async () => {
      const user = await signUp(t, 'prolific');
      const other = await signUp(t, 'patient');
      const stories = await Promise.all([1, 2, 3, 4].map(() => createStory(t, user)));
      atWindowStart([t, b], 60);
      const instances = [t, b, t];
      for (let i = 0; i < 3; i++) {
        const res = await send(instances[i], user.token, stories[i]);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toContain('text/event-stream');
      }
      for (const app of [t, b]) {
        const limited = await send(app, user.token, stories[3]);
        expect([limited.status, limited.body.code]).toEqual([429, ErrorCode.GENERATION_RATE_LIMITED]);
        expect(limited.headers['retry-after']).toBe(String(limited.body.params.seconds));
      }
      // Nothing started on the refused story.
      const pending = await as(t, user).get(`/api/llm/${stories[3]}/pending`);
      expect(pending.body.data.state).toBe('idle');
      // Another user is not limited by it.
      expect((await send(b, other.token, await createStory(t, other))).status).toBe(200);
    });

    it('a send refused with 409 (its story is generating) does not count toward the limit', async () => {
      const user = await signUp(t, 'refused');
      const stories = await Promise.all([1, 2, 3, 4].map(() => createStory(t, user)));
      const turns = t.connection.db!.collection('play_turns');
      const busy = { _id: new Types.ObjectId(stories[0]) };
      // Another generation runs on the first story (alive: its heartbeat is fresh).
      await turns.updateOne(busy, { $set: { state: 'generating', generationId: 'elsewhere', heartbeatAt: Date.now(), lastSendAt: 0 } });
      atWindowStart([t, b], 60);
      for (let i = 0; i < 5; i++) {
        const refused = await send(i % 2 ? b : t, user.token, stories[0]);
        expect([refused.status, refused.body.code]).toEqual([409, ErrorCode.GENERATION_IN_PROGRESS]);
      }
      // The limit is whole: three sends start, the fourth is the first one over it.
      for (let i = 1; i < 4; i++) expect((await send(t, user.token, stories[i])).status).toBe(200);
      await turns.updateOne(busy, { $set: { state: 'idle', lastSendAt: 0 } });
      expect((await send(b, user.token, stories[0])).body.code).toBe(ErrorCode.GENERATION_RATE_LIMITED);
    });

    it('counts sends opened at the same moment exactly: as many as the limit start, the others are 429', async () => {
      const user = await signUp(t, 'eager');
      const stories = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => createStory(t, user)));
      atWindowStart([t, b], 60);
      // Sent together (one instance gets most; hits arriving in one turn of its event loop share one update).
      const answers = await Promise.all(stories.map((story, i) => send(i === 6 ? b : t, user.token, story)));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429]);
      for (const res of answers.filter((r) => r.status === 429)) expect(res.body.code).toBe(ErrorCode.GENERATION_RATE_LIMITED);
    });
  });
});
