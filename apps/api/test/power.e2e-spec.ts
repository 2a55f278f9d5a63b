import 'reflect-metadata';
import {
  DAILY_CHECK_IN_POWER,
  ErrorCode,
  PowerReason,
  type CheckInDto,
  type LoginDto,
  type UserPointsQueryDto,
} from '@taleloom/contracts';
import request from 'supertest';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf } from './power-factories';
import { createTestApp, type TestApp } from './test-app';

describe('power endpoints (check-in, check-in-status, user-points)', () => {
  let t: TestApp;
  let power: PowerService;
  const http = () => request(t.app.getHttpServer());
  const signUp = async (userName: string) => {
    const res = await http()
      .post('/api/user/login')
      .send({ type: 'username', userName, password: 'secret1' } satisfies LoginDto);
    return { token: res.body.data.token as string, userID: res.body.data.userInfo.userID as string };
  };
  const points = (token: string, query: UserPointsQueryDto & Record<string, unknown> = {}) =>
    http().get('/api/user/user-points').query(query).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    t = await createTestApp({ CHECKIN_TIME_ZONE: 'Asia/Shanghai' });
    power = t.app.get(PowerService);
  });
  beforeEach(() => t.clean());
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => t.close());

  describe('POST /api/user/check-in', () => {
    it('gives 5000 once a day, says so in check-in-status, and shows it in user-info and the record', async () => {
      const { token, userID } = await signUp('ann');
      const auth = { Authorization: `Bearer ${token}` };
      const before = await http().get('/api/user/check-in-status').set(auth);
      expect(before.status).toBe(200);
      expect(before.body.data).toEqual({ dailyCheckinStatus: false });

      const first = await http().post('/api/user/check-in').set(auth).send({ language: 'en' } satisfies CheckInDto);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ status: 'success', data: { awarded: DAILY_CHECK_IN_POWER, points: 5000 } });

      const again = await http().post('/api/user/check-in').set(auth).send({ language: 'zh-CN' } satisfies CheckInDto);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ status: 'error', code: ErrorCode.ALREADY_CHECKED_IN, message: '今天已经签到过了，明天再来吧。' });

      expect((await http().get('/api/user/check-in-status').set(auth)).body.data).toEqual({ dailyCheckinStatus: true });
      expect((await http().get('/api/user/user-info').set(auth)).body.data.points).toBe(5000);
      const record = await points(token);
      expect(record.body.data.records).toEqual([
        { reason: PowerReason.DAILY_CHECK_IN, points: 5000, operationAt: expect.any(String), storyInfo: { storyName: null } },
      ]);
      expect(await balanceOf(t, userID)).toBe(5000);
    });

    it('50 concurrent check-ins give exactly one reward', async () => {
      const { token, userID } = await signUp('bob');
      const results = await Promise.all(
        Array.from({ length: 50 }, () => http().post('/api/user/check-in').set('Authorization', `Bearer ${token}`).send({})),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(49);
      expect(await balanceOf(t, userID)).toBe(5000);
      expect(await entriesOf(t, userID)).toHaveLength(1);
      expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
    });

    it('counts days in the configured time zone: 23:59 and 00:01 Shanghai time are two days', async () => {
      const { token, userID } = await signUp('cat');
      const auth = { Authorization: `Bearer ${token}` };
      const clock = vi.spyOn(PowerService.prototype, 'now');
      clock.mockReturnValue(new Date('2026-03-01T15:59:00Z')); // 23:59 in Shanghai
      expect((await http().post('/api/user/check-in').set(auth).send({})).status).toBe(200);
      clock.mockReturnValue(new Date('2026-03-01T16:01:00Z')); // 00:01 the next day
      expect((await http().get('/api/user/check-in-status').set(auth)).body.data.dailyCheckinStatus).toBe(false);
      expect((await http().post('/api/user/check-in').set(auth).send({})).status).toBe(200);
      clock.mockReturnValue(new Date('2026-03-02T15:00:00Z')); // 23:00 the same (second) day
      expect((await http().post('/api/user/check-in').set(auth).send({})).status).toBe(409);
      expect(await balanceOf(t, userID)).toBe(10000);
    });

    it('needs a token and refuses unknown body fields', async () => {
      expect((await http().post('/api/user/check-in').send({})).status).toBe(401);
      expect((await http().get('/api/user/check-in-status')).status).toBe(401);
      const { token } = await signUp('dan');
      const res = await http().post('/api/user/check-in').set('Authorization', `Bearer ${token}`).send({ points: 99999 });
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe('points');
    });
  });

  describe('GET /api/user/user-points', () => {
    it('pages income and expense, newest first, with story names', async () => {
      const author = await signUp('author');
      const player = await signUp('player');
      await power.grant(player.userID, 100000, PowerReason.INIT_POINTS, 'bind-phone');
      const royalty = { authorUserID: author.userID, storyID: 's1', storyName: 'The Lighthouse' };
      for (let i = 0; i < 12; i++) {
        const hold = await power.hold(player.userID, 1000, `g${i}`, { reason: PowerReason.STORY, storyName: 'My clone' });
        await power.settle(hold, 100 + i, royalty);
      }
      const expense = await points(player.token, { type: 'expense', page: 1 });
      expect(expense.status).toBe(200);
      expect(expense.body.data.pagination).toEqual({ page: 1, pageSize: 10, total: 12, totalPages: 2 });
      expect(expense.body.data.records).toHaveLength(10);
      expect(expense.body.data.records[0]).toEqual({
        reason: PowerReason.STORY,
        points: -111,
        operationAt: expect.any(String),
        storyInfo: { storyName: 'My clone' },
      });
      const times = expense.body.data.records.map((r: { operationAt: string }) => r.operationAt);
      expect([...times].sort().reverse()).toEqual(times);
      const second = await points(player.token, { type: 'expense', page: 2 });
      expect(second.body.data.records.map((r: { points: number }) => r.points)).toEqual([-101, -100]);

      const income = await points(player.token, { type: 'income' });
      expect(income.body.data.records).toEqual([
        { reason: PowerReason.INIT_POINTS, points: 100000, operationAt: expect.any(String), storyInfo: { storyName: null } },
      ]);
      const authorIncome = await points(author.token, { type: 'income', pageSize: 50 });
      expect(authorIncome.body.data.pagination).toEqual({ page: 1, pageSize: 50, total: 12, totalPages: 1 });
      expect(authorIncome.body.data.records[0]).toMatchObject({ reason: 'story', points: 11, storyInfo: { storyName: 'The Lighthouse' } });
      const all = await points(player.token, { pageSize: 20 });
      expect(all.body.data.pagination.total).toBe(13);
    });

    it('answers an empty page past the end', async () => {
      const { token } = await signUp('empty');
      const res = await points(token, { page: 3 });
      expect(res.body.data).toEqual({ records: [], pagination: { page: 3, pageSize: 10, total: 0, totalPages: 0 } });
    });

    it('validates page, pageSize and type with 400 naming the field', async () => {
      const { token } = await signUp('eve');
      for (const [query, field] of [
        [{ page: 0 }, 'page'],
        [{ page: 'x' }, 'page'],
        [{ pageSize: 51 }, 'pageSize'],
        [{ type: 'all' }, 'type'],
      ] as const) {
        const res = await points(token, query as never);
        expect(res.status).toBe(400);
        expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });

    it("never shows another user's records: there is no way to ask for them", async () => {
      const alice = await signUp('alice');
      const mallory = await signUp('mallory');
      await power.grant(alice.userID, 777, PowerReason.INIT_POINTS, 'bind-phone');
      const own = await points(mallory.token);
      expect(own.body.data.records).toEqual([]);
      const asking = await points(mallory.token, { userID: alice.userID });
      expect(asking.status).toBe(400);
      expect(asking.body.details[0].field).toBe('userID');
      expect((await http().get('/api/user/user-points')).status).toBe(401);
    });
  });

  it('lists the power endpoints in Swagger', async () => {
    const doc = await http().get('/api/docs-json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/user/check-in', '/api/user/check-in-status', '/api/user/user-points']),
    );
    expect(doc.body.components.schemas.UserPointsQueryDto.properties.pageSize.maximum).toBe(50);
  });
});
