import 'reflect-metadata';
import { ErrorCode, PowerReason } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { AppException } from '../src/common/app-exception';
import { PowerService } from '../src/power/power.service';
import { balanceOf, entriesOf, insertUser, ledgerSum } from './power-factories';
import type { TestApp } from './test-app';
import { ledgerSuite, STORY } from './support/ledger-suite';

describe('the power ledger (PowerService): grant, hold, settle, release, royalties', () => {
  const suite = ledgerSuite();
  const { noDrift } = suite;
  let t: TestApp, power: PowerService;
  beforeEach(() => void ({ t, power } = suite));

  describe('grant', () => {
    it('credits once per key, however often and concurrently it is called', async () => {
      const user = await insertUser(t, 'ann');
      const results = await Promise.all(
        Array.from({ length: 20 }, () => power.grant(user, 100000, PowerReason.INIT_POINTS, 'bind-phone')),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
      expect(await balanceOf(t, user)).toBe(100000);
      expect(await entriesOf(t, user)).toHaveLength(1);
      await noDrift();
    });

    it('grants asked for together, repeats among them, credit each key once (their steps share bulk writes)', async () => {
      const [ann, bob] = [await insertUser(t, 'ann'), await insertUser(t, 'bob')];
      const asked = [
        [ann, 100, 'k1'], [ann, 100, 'k1'], [ann, 20, 'k2'], [bob, 3, 'k1'], [bob, 3, 'k1'], [bob, 3, 'k1'], [bob, 40, 'k2'], [ann, 7, 'k3'],
      ] as const;
      const results = await Promise.all(asked.map(([user, amount, key]) => power.grant(user, amount, PowerReason.INIT_POINTS, key)));
      expect(results.map((r) => r.created).filter(Boolean)).toHaveLength(5);
      expect(await balanceOf(t, ann)).toBe(127);
      expect(await balanceOf(t, bob)).toBe(43);
      expect(await entriesOf(t, ann)).toHaveLength(3);
      expect(await entriesOf(t, bob)).toHaveLength(2);
      await noDrift();
    });

    it('refuses negative or fractional amounts and unknown users', async () => {
      const user = await insertUser(t, 'bob');
      await expect(power.grant(user, -5, 'x', 'k')).rejects.toThrow(RangeError);
      await expect(power.grant(user, 1.5, 'x', 'k')).rejects.toThrow(RangeError);
      await expect(power.grant(new Types.ObjectId().toHexString(), 5, 'x', 'k')).rejects.toMatchObject({
        code: ErrorCode.USER_NOT_FOUND,
      });
    });
  });

  describe('hold, settle, release', () => {
    it('holds the maximum, settles the real cost and gives the rest back', async () => {
      const user = await insertUser(t, 'cat');
      await power.grant(user, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      const holdId = await power.hold(user, 300, 'gen-1', { storyName: 'Mine' });
      expect(await balanceOf(t, user)).toBe(700);
      expect(await power.settle(holdId, 120)).toEqual({ charged: 120, royalty: 0 });
      expect(await balanceOf(t, user)).toBe(880);
      await noDrift();
    });

    it('answers NOT_ENOUGH_POWER when the balance is short, and leaves it untouched', async () => {
      const user = await insertUser(t, 'dan');
      await power.grant(user, 50, PowerReason.DAILY_CHECK_IN, 'seed');
      await expect(power.hold(user, 51, 'gen-1')).rejects.toMatchObject({ code: ErrorCode.NOT_ENOUGH_POWER });
      expect(await balanceOf(t, user)).toBe(50);
      await noDrift();
    });

    it('a retried hold with the same key reserves once', async () => {
      const user = await insertUser(t, 'eve');
      await power.grant(user, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      const ids = await Promise.all(Array.from({ length: 10 }, () => power.hold(user, 400, 'gen-1')));
      expect(new Set(ids).size).toBe(1);
      expect(await balanceOf(t, user)).toBe(600);
    });

    it('release gives the whole hold back; a settle after it charges nothing, and vice versa', async () => {
      const user = await insertUser(t, 'fay');
      await power.grant(user, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      const a = await power.hold(user, 400, 'a');
      await power.release(a);
      await power.release(a);
      expect(await power.settle(a, 100)).toEqual({ charged: 0, royalty: 0 });
      expect(await balanceOf(t, user)).toBe(1000);
      const b = await power.hold(user, 400, 'b');
      await power.settle(b, 250);
      await power.release(b);
      expect(await balanceOf(t, user)).toBe(750);
      await noDrift();
    });

    it('never charges more than was held', async () => {
      const user = await insertUser(t, 'gus');
      await power.grant(user, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      const h = await power.hold(user, 100, 'gen');
      expect((await power.settle(h, 5000)).charged).toBe(100);
      expect(await balanceOf(t, user)).toBe(900);
    });

    it('a settle retried 5 times (one after another, then at once) charges once', async () => {
      const user = await insertUser(t, 'hal');
      await power.grant(user, 10000, PowerReason.DAILY_CHECK_IN, 'seed');
      const first = await power.hold(user, 1000, 'first');
      for (let i = 0; i < 5; i++) expect((await power.settle(first, 600)).charged).toBe(600);
      expect(await balanceOf(t, user)).toBe(9400);
      const second = await power.hold(user, 1000, 'second');
      const results = await Promise.all(Array.from({ length: 5 }, () => power.settle(second, 700)));
      expect(results.map((r) => r.charged)).toEqual([700, 700, 700, 700, 700]);
      expect(await balanceOf(t, user)).toBe(8700);
      expect(await entriesOf(t, user, { kind: 'settle' })).toHaveLength(2);
      await noDrift();
    });

    it("holds and settles of many users at once (a burst's streams, then their ends) move each balance exactly once", async () => {
      const users = [await insertUser(t, 'jo'), await insertUser(t, 'kit'), await insertUser(t, 'lea')];
      await Promise.all(users.map((u) => power.grant(u, 100, PowerReason.DAILY_CHECK_IN, 'seed')));
      // 12 holds of 10 on each balance of 100, all in one turn: 10 stand, 2 are refused, on each.
      const asked = users.flatMap((u) => Array.from({ length: 12 }, (_, i) => ({ u, key: `turn-${i}` })));
      const held = await Promise.allSettled(asked.map(({ u, key }) => power.hold(u, 10, key)));
      const ids = held.flatMap((h, i) => (h.status === 'fulfilled' ? [{ u: asked[i].u, id: h.value }] : []));
      expect(ids).toHaveLength(30);
      for (const h of held) if (h.status === 'rejected') expect((h.reason as AppException).code).toBe(ErrorCode.NOT_ENOUGH_POWER);
      // Every hold settled at 3 together, twice over (a retry among them): 30 charged once each, the rest given back.
      const settled = await Promise.all([...ids, ...ids].map(({ id }) => power.settle(id, 3)));
      expect(settled.map((r) => r.charged)).toEqual(Array(60).fill(3));
      for (const u of users) {
        expect(await balanceOf(t, u)).toBe(70);
        expect(await ledgerSum(t, u)).toBe(70);
        expect(await entriesOf(t, u, { kind: 'settle' })).toHaveLength(10);
      }
      await noDrift();
    });

    it('1000 concurrent holds of random sizes on one balance never go below zero', async () => {
      const user = await insertUser(t, 'ivy');
      await power.grant(user, 50_000, PowerReason.DAILY_CHECK_IN, 'seed');
      const sizes = Array.from({ length: 1000 }, () => 1 + Math.floor(Math.random() * 200));
      let lowest = Infinity;
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          lowest = Math.min(lowest, await balanceOf(t, user));
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const outcomes = await Promise.allSettled(sizes.map((size, i) => power.hold(user, size, `h${i}`)));
      watching = false;
      await watcher;
      const held = sizes.filter((_, i) => outcomes[i].status === 'fulfilled').reduce((a, b) => a + b, 0);
      const refused = outcomes.filter((o) => o.status === 'rejected');
      for (const r of refused) expect(((r as PromiseRejectedResult).reason as AppException).code).toBe(ErrorCode.NOT_ENOUGH_POWER);
      expect(held).toBeLessThanOrEqual(50_000);
      expect(refused.length).toBeGreaterThan(0);
      const balance = await balanceOf(t, user);
      expect(balance).toBe(50_000 - held);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(lowest).toBeGreaterThanOrEqual(0);
      expect(await ledgerSum(t, user)).toBe(balance);
      await noDrift();
      // A correctness test under heavy concurrency, not a timing one: on a busy 2-core machine it takes long.
    }, 120_000);
  });

  describe('royalties', () => {
    it('credit 10% (rounded down) of a clone player spending to the source author, once per settlement', async () => {
      const author = await insertUser(t, 'author');
      const player = await insertUser(t, 'player');
      await power.grant(player, 10000, PowerReason.DAILY_CHECK_IN, 'seed');
      const royalty = { authorUserID: author, ...STORY };
      const h1 = await power.hold(player, 1000, 'g1', { reason: PowerReason.STORY, ...STORY });
      const results = await Promise.all(Array.from({ length: 5 }, () => power.settle(h1, 999, royalty)));
      expect(results.every((r) => r.royalty === 99)).toBe(true);
      const h2 = await power.hold(player, 1000, 'g2');
      await power.settle(h2, 500, royalty);
      await power.settle(h2, 500, royalty);
      expect(await balanceOf(t, author)).toBe(99 + 50);
      const credits = await entriesOf(t, author);
      expect(credits).toHaveLength(2);
      expect(credits.every((c) => c.reason === PowerReason.STORY && c.storyInfo.storyName === STORY.storyName)).toBe(true);
      expect(await balanceOf(t, player)).toBe(10000 - 999 - 500);
      await noDrift();
    });

    it('are not paid to an author for their own spending, nor when nothing was charged', async () => {
      const author = await insertUser(t, 'solo');
      await power.grant(author, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      const own = await power.hold(author, 500, 'own');
      expect((await power.settle(own, 500, { authorUserID: author, ...STORY })).royalty).toBe(0);
      const other = await insertUser(t, 'other');
      await power.grant(other, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      const free = await power.hold(other, 500, 'free');
      expect((await power.settle(free, 5, { authorUserID: author, ...STORY })).royalty).toBe(0);
      expect(await balanceOf(t, author)).toBe(500);
      await noDrift();
    });
  });
});
