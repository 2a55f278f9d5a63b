import { ErrorCode, type LoginDto } from '@taleloom/contracts';
import { sign } from 'jsonwebtoken';
import request from 'supertest';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './test-app';

describe('username sign-in (POST /api/user/login, GET /api/user/user-info)', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());
  const login = (body: object) => http().post('/api/user/login').send(body);

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.clean());
  afterAll(() => t.close());

  it('registers a new user name and answers a three-part token carrying userID', async () => {
    const res = await login({ type: 'username', userName: 'Alice', password: 'secret1' } satisfies LoginDto);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    const { token, userInfo } = res.body.data;
    expect(token.split('.')).toHaveLength(3);
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(payload.userID).toBe(userInfo.userID);
    expect(payload.exp).toBeGreaterThan(payload.iat);
    expect(userInfo).toEqual({
      userID: expect.any(String),
      userName: 'Alice',
      points: 0,
      phone: null,
      phoneCountryCode: null,
      phoneVerified: false,
      phoneVerifiedAt: null,
    });
    const stored = await t.connection.db!.collection('users').findOne({ userNameKey: 'alice' });
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(res.body)).not.toContain('secret1');
  });

  it('signs an existing user in, without regard to the case of the name', async () => {
    const first = await login({ type: 'username', userName: 'Alice', password: 'secret1' });
    const second = await login({ type: 'username', userName: 'alice', password: 'secret1' });
    expect(second.status).toBe(200);
    expect(second.body.data.userInfo.userID).toBe(first.body.data.userInfo.userID);
    expect(await t.connection.db!.collection('users').countDocuments()).toBe(1);
  });

  it('answers 401 WRONG_PASSWORD, localised, for a bad password', async () => {
    await login({ type: 'username', userName: 'bob', password: 'secret1' });
    const en = await login({ type: 'username', userName: 'bob', password: 'secret2' });
    expect(en.status).toBe(401);
    expect(en.body).toEqual({ status: 'error', code: ErrorCode.WRONG_PASSWORD, message: 'Wrong user name or password.' });
    const zh = await login({ type: 'username', userName: 'bob', password: 'secret2', language: 'zh-CN' });
    expect(zh.body.message).toBe('用户名或密码错误。');
  });

  it('answers 400 naming the field for a too-short password', async () => {
    const res = await login({ type: 'username', userName: 'carol', password: '12345' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['password']);
    expect(res.body.message).toContain('password');
    expect(await t.connection.db!.collection('users').countDocuments()).toBe(0);
  });

  it('rejects unknown fields, operator objects and unknown login types with 400', async () => {
    const extra = await login({ type: 'username', userName: 'dave', password: 'secret1', isAdmin: true });
    expect(extra.status).toBe(400);
    expect(extra.body.details[0].field).toBe('isAdmin');
    const injected = await login({ type: 'username', userName: { $ne: '' }, password: 'secret1' });
    expect(injected.status).toBe(400);
    expect(injected.body.details[0].field).toBe('userName');
    const badType = await login({ type: 'email', userName: 'dave', password: 'secret1' });
    expect(badType.status).toBe(400);
  });

  it('refuses a phone login without a code that was sent, with a code', async () => {
    const res = await login({ type: 'phone', phoneNum: '13800000000', verifyCode: '123456', countryCode: '86' } satisfies LoginDto);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.SMS_CODE_WRONG);
  });

  it('registers a name once under 10 concurrent first logins', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => login({ type: 'username', userName: 'erin', password: 'secret1' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.data.userInfo.userID)).size).toBe(1);
    expect(await t.connection.db!.collection('users').countDocuments({ userNameKey: 'erin' })).toBe(1);
  });

  describe('user-info', () => {
    let token: string;
    let userID: string;
    beforeEach(async () => {
      const res = await login({ type: 'username', userName: 'frank', password: 'secret1' });
      token = res.body.data.token;
      userID = res.body.data.userInfo.userID;
    });

    it('answers the user for a valid token', async () => {
      const res = await http().get('/api/user/user-info').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ userID, userName: 'frank', points: 0 });
    });

    it('answers 401 UNAUTHORIZED without a token', async () => {
      const res = await http().get('/api/user/user-info');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(ErrorCode.UNAUTHORIZED);
    });

    it('answers 401 TOKEN_INVALID for a tampered token', async () => {
      const [h, , s] = token.split('.');
      const forged = Buffer.from(JSON.stringify({ userID: '0'.repeat(24), userName: 'x' })).toString('base64url');
      const res = await http().get('/api/user/user-info').set('Authorization', `Bearer ${h}.${forged}.${s}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(ErrorCode.TOKEN_INVALID);
    });

    it('answers 401 TOKEN_INVALID for an unsigned alg:none token and a token signed with another key', async () => {
      const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
        JSON.stringify({ userID }),
      ).toString('base64url')}.`;
      const other = sign({ userID }, 'another-secret-that-is-also-long-enough-0123456789');
      for (const bad of [none, other]) {
        const res = await http().get('/api/user/user-info').set('Authorization', `Bearer ${bad}`);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe(ErrorCode.TOKEN_INVALID);
      }
    });

    it('answers 401 TOKEN_EXPIRED for an expired token', async () => {
      const expired = sign({ userID, userName: 'frank', exp: Math.floor(Date.now() / 1000) - 60 }, TEST_JWT_SECRET);
      const res = await http().get('/api/user/user-info').set('Authorization', `Bearer ${expired}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(ErrorCode.TOKEN_EXPIRED);
    });

    it('answers 401 for a well-signed token of a user that no longer exists', async () => {
      await t.connection.db!.collection('users').deleteMany({});
      const res = await http().get('/api/user/user-info').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
    });
  });
});
