import { ErrorCode, type BindMobileDto, type LoginDto, type ResetPasswordDto, type SendSmsDto } from '@taleloom/contracts';
import { sign } from 'jsonwebtoken';
import { Types } from 'mongoose';
import { createAccountsApp } from './account-helpers';
import { frameworkRoutes, routeInventory, verbOf, type RouteInfo } from './support/route-inventory';
import { TEST_JWT_SECRET } from './test-app';

const PHONE = '13800138111';

/**
 * The routes that read no token ON PURPOSE, each with why and a request that works without one. Every
 * other route must have JwtAuthGuard (or OptionalJwtAuthGuard): a route the router serves without a guard
 * that is not listed here fails this suite by name, so an endpoint that forgets its guard cannot
 * silently drop out of the token checks below.
 */
const PUBLIC_ROUTES: Record<string, { reason: string; body?: object }> = {
  'GET /api/health': { reason: 'liveness and database reachability, for load balancers and the container health check' },
  'POST /api/user/login': {
    reason: 'signing in (or registering) is how a token is obtained',
    body: { type: 'username', userName: 'publicroute', password: 'secret1' } satisfies LoginDto,
  },
  'GET /api/captcha': { reason: 'the captcha a phone sign-in passes before its SMS code is sent, before any token exists' },
  'GET /api/country-codes': { reason: 'the calling codes of the phone sign-in form, before any token exists' },
};

/**
 * The framework's routes, which the route inventory leaves out: the Swagger UI and the API document,
 * public on purpose (they describe the API and hold no user data). A route Nest serves cannot hide
 * here (the inventory fails when Nest knows a route it does not list).
 */
const PUBLIC_FRAMEWORK_ROUTES = [
  'GET /api/docs',
  'GET /api/docs/',
  'GET /api/docs/index.html',
  'GET /api/docs/swagger-ui-init.js',
  'GET /api/docs/docs/swagger-ui-init.js',
  'GET /api/docs/LICENSE',
  'GET /api/docs-json',
  'GET /api/docs-yaml',
];

/**
 * Every endpoint that reads a token (found from the router) refuses every kind of bad token with a
 * coded 401: missing, malformed, forged, `alg: none`, another algorithm, wrong secret, expired, not yet
 * valid, of an unknown or deleted user, with an operator as user id, or issued before a password reset.
 */
describe('tokens: every bad token is a coded 401 on every endpoint that reads one', () => {
  let a: Awaited<ReturnType<typeof createAccountsApp>>;
  let routes: RouteInfo[];
  let unguarded: RouteInfo[];
  let user: { token: string; userID: string };
  const tokens: Record<string, string> = {};

  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  beforeAll(async () => {
    a = await createAccountsApp();
    const all = routeInventory(a.t.app);
    routes = all.filter((r) => r.auth !== 'none');
    unguarded = all.filter((r) => r.auth === 'none');
    user = await a.registerName('tokenuser');
    const [header, , signature] = user.token.split('.');
    const now = Math.floor(Date.now() / 1000);
    const other = new Types.ObjectId().toHexString();

    tokens.forged = `${header}.${b64({ userID: other, userName: 'someone', iat: now })}.${signature}`;
    tokens.algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ userID: user.userID, iat: now })}.`;
    tokens.hs512 = sign({ userID: user.userID }, TEST_JWT_SECRET, { algorithm: 'HS512' });
    tokens.wrongSecret = sign({ userID: user.userID }, 'another-secret-that-is-also-long-enough-0123456789');
    tokens.expired = sign({ userID: user.userID, exp: now - 60 }, TEST_JWT_SECRET);
    tokens.notYetValid = sign({ userID: user.userID, nbf: now + 3600 }, TEST_JWT_SECRET);
    // Signed with the app's secret for a user it knows, but never ending: every token the app signs has `exp`.
    tokens.noExpiry = sign({ userID: user.userID, userName: 'tokenuser', iat: now }, TEST_JWT_SECRET);
    tokens.unknownUser = sign({ userID: other }, TEST_JWT_SECRET);
    tokens.operatorUserId = sign({ userID: { $ne: null } }, TEST_JWT_SECRET);
    tokens.noUserId = sign({ userName: 'tokenuser' }, TEST_JWT_SECRET);
    tokens.malformed = 'not-a-token';
    tokens.malformedParts = 'a.b.c';
    tokens.truncated = user.token.slice(0, -5);

    const ghost = await a.registerName('ghostuser');
    await a.t.connection.db!.collection('users').deleteOne({ _id: new Types.ObjectId(ghost.userID) });
    tokens.deletedUser = ghost.token;

    // A phone-verified user resets the password: the token from before the reset dies.
    const resetter = await a.registerName('resetter', 'oldpass1');
    expect((await a.sendBindCode(resetter.token, PHONE)).status).toBe(200);
    const bound = await a
      .http()
      .post('/api/user/bind-mobile')
      .set(a.bearer(resetter.token))
      .send({ phoneNum: PHONE, countryCode: '86', smsCode: a.outbox.lastCode(`+86${PHONE}`)! } satisfies BindMobileDto);
    expect(bound.status).toBe(200);
    a.clock.advance(61_000);
    const sent = await a.http().post('/api/user/send-sms').set(a.bearer(resetter.token)).send({ type: 'reset_password' } satisfies SendSmsDto);
    expect(sent.status).toBe(200);
    const reset = await a
      .http()
      .post('/api/user/reset-password')
      .set(a.bearer(resetter.token))
      .send({ smsCode: a.outbox.lastCode(`+86${PHONE}`)!, newPassword: 'newpass1' } satisfies ResetPasswordDto);
    expect(reset.status).toBe(200);
    expect((await a.userInfo(reset.body.data.token)).status).toBe(200);
    tokens.beforePasswordReset = resetter.token;
  });
  afterAll(() => a.t.close());

  const urlOf = (route: RouteInfo) => route.path.replace(/:\w+/g, () => new Types.ObjectId().toHexString());

  function send(route: RouteInfo, authorization?: string) {
    const req = a.http()[verbOf(route)](urlOf(route));
    if (authorization !== undefined) req.set('Authorization', authorization);
    return route.method === 'GET' ? req : req.send({});
  }

  it('every route without a token guard is public on purpose (PUBLIC_ROUTES): none is left out of the checks below', () => {
    const undeclared = unguarded.filter((r) => !PUBLIC_ROUTES[r.key]).map((r) => `${r.key} (${r.controller}.${r.handler})`);
    if (undeclared.length) {
      throw new Error(
        `These routes read no token (no JwtAuthGuard or OptionalJwtAuthGuard), and PUBLIC_ROUTES in ` +
          `test/security-tokens.e2e-spec.ts does not say they are public on purpose:\n  ${undeclared.join('\n  ')}\n` +
          'Guard them, or add them to PUBLIC_ROUTES with the reason they need no sign-in.',
      );
    }
    // A listed route that is gone, or now guarded, is taken off the list.
    expect(Object.keys(PUBLIC_ROUTES).filter((key) => !unguarded.some((r) => r.key === key))).toEqual([]);
    // The framework's routes, which the inventory leaves out, are the API documents and nothing else.
    expect(frameworkRoutes(a.t.app).map((r) => `${r.method} ${r.path}`).sort()).toEqual([...PUBLIC_FRAMEWORK_ROUTES].sort());
  });

  it.each(Object.entries(PUBLIC_ROUTES))('%s works without a token, and never reads one that is sent', async (key, { body }) => {
    const route = unguarded.find((r) => r.key === key)!;
    for (const authorization of [undefined, `Bearer ${tokens.forged}`, `Bearer ${tokens.expired}`, 'Bearer not-a-token']) {
      const req = a.http()[verbOf(route)](route.path);
      if (authorization) req.set('Authorization', authorization);
      const res = route.method === 'GET' ? await req : await req.send(body ?? {});
      expect({ key, authorization, status: res.status }).toEqual({ key, authorization, status: 200 });
    }
  });

  it('the API documents need no token', async () => {
    // (GET /api/docs/LICENSE is routed by swagger-ui-express but its file is not shipped: 404.)
    const statuses = await Promise.all(PUBLIC_FRAMEWORK_ROUTES.map(async (key) => [key, (await a.http().get(key.split(' ')[1])).status]));
    expect(statuses).toEqual(PUBLIC_FRAMEWORK_ROUTES.map((key) => [key, key.endsWith('/LICENSE') ? 404 : 200]));
  });

  it('finds the endpoints that read a token from the router', () => {
    expect(routes.length).toBeGreaterThanOrEqual(25);
    expect(routes.filter((r) => r.auth === 'optional').map((r) => r.key).sort()).toEqual([
      'POST /api/analytics/events',
      'POST /api/user/send-sms',
    ]);
  });

  it('a valid token passes the guard everywhere (the refusals below are about the token)', async () => {
    const refused: string[] = [];
    for (const route of routes) {
      const res = await send(route, `Bearer ${user.token}`);
      if (res.status === 401) refused.push(`${route.key}: ${res.body.code}`);
    }
    expect(refused).toEqual([]);
  });

  const cases: [kind: string, code: ErrorCode][] = [
    ['forged', ErrorCode.TOKEN_INVALID],
    ['algNone', ErrorCode.TOKEN_INVALID],
    ['hs512', ErrorCode.TOKEN_INVALID],
    ['wrongSecret', ErrorCode.TOKEN_INVALID],
    ['expired', ErrorCode.TOKEN_EXPIRED],
    ['notYetValid', ErrorCode.TOKEN_INVALID],
    ['noExpiry', ErrorCode.TOKEN_INVALID],
    ['unknownUser', ErrorCode.TOKEN_INVALID],
    ['deletedUser', ErrorCode.TOKEN_INVALID],
    ['operatorUserId', ErrorCode.TOKEN_INVALID],
    ['noUserId', ErrorCode.TOKEN_INVALID],
    ['malformed', ErrorCode.TOKEN_INVALID],
    ['malformedParts', ErrorCode.TOKEN_INVALID],
    ['truncated', ErrorCode.TOKEN_INVALID],
    ['beforePasswordReset', ErrorCode.TOKEN_INVALID],
  ];

  it.each(cases)('%s token: 401 %s on every endpoint, also where a token is optional', async (kind, code) => {
    const wrong: string[] = [];
    for (const route of routes) {
      const res = await send(route, `Bearer ${tokens[kind]}`);
      if (res.status !== 401 || res.body.code !== code || res.body.status !== 'error') {
        wrong.push(`${route.key}: ${res.status} ${res.body.code}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no token, an empty bearer or another scheme: 401 UNAUTHORIZED where a token is required', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => r.auth === 'jwt')) {
      for (const authorization of [undefined, 'Bearer ', `Basic ${Buffer.from('u:p').toString('base64')}`, user.token]) {
        const res = await send(route, authorization);
        if (res.status !== 401 || res.body.code !== ErrorCode.UNAUTHORIZED) wrong.push(`${route.key} [${authorization}]: ${res.status} ${res.body.code}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the messages of the token errors exist in both languages', async () => {
    const route = routes.find((r) => r.key === 'GET /api/user/user-info')!;
    const en = await send(route, `Bearer ${tokens.expired}`).set('Accept-Language', 'en');
    const zh = await send(route, `Bearer ${tokens.expired}`).set('Accept-Language', 'zh-CN');
    expect(en.body.message).toMatch(/expired/i);
    expect(zh.body.message).toMatch(/[\u4e00-\u9fff]/);
  });
});
