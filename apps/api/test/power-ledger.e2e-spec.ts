import 'reflect-metadata';
import { ErrorCode, PowerReason } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppException } from '../src/common/app-exception';
import { LedgerRepairService } from '../src/power/ledger-repair.service';
import { LedgerRepository, type FaultStep } from '../src/power/ledger.repository';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf, insertUser, ledgerSum } from './power-factories';
import { ensureBuilt, verifyLedgerCommand } from './support/app-process';
import { createTestApp, type TestApp } from './test-app';

const STORY = { storyID: 'story-1', storyName: 'The Lighthouse' };

describe('the power ledger (PowerService)', () => {
  let t: TestApp;
  let power: PowerService;
  let repair: LedgerRepairService;
  const noDrift = async () => expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
  const repairNow = () => repair.repair({ pendingGraceMs: 0, holdMaxAgeMs: 0 });

  beforeAll(async () => {
    ensureBuilt();
    t = await createTestApp();
    power = t.app.get(PowerService);
    repair = t.app.get(LedgerRepairService);
  });
  beforeEach(async () => {
    power.faults = undefined;
    await t.clean();
  });
  afterAll(() => t.close());

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

  describe('a crash at any step is repaired with no drift', () => {
    const crashAt = (step: FaultStep, kind?: string) => {
      power.faults = (s, entry) => {
        if (s === step && (!kind || entry.kind === kind)) throw new Error(`crash at ${step}`);
      };
    };

    const steps: FaultStep[] = ['entry-created', 'user-updated', 'entry-marked'];

    it.each(steps)('grant, crashing at %s, is finished by repair', async (step) => {
      const user = await insertUser(t, 'g');
      crashAt(step);
      await expect(power.grant(user, 700, PowerReason.INIT_POINTS, 'k')).rejects.toThrow('crash');
      power.faults = undefined;
      await repairNow();
      expect(await balanceOf(t, user)).toBe(700);
      expect((await entriesOf(t, user)).map((e) => e.state)).toEqual(['applied']);
      await power.grant(user, 700, PowerReason.INIT_POINTS, 'k');
      expect(await balanceOf(t, user)).toBe(700);
      await noDrift();
    });

    it.each(steps)('hold, crashing at %s, is given back by repair', async (step) => {
      const user = await insertUser(t, 'h');
      await power.grant(user, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      // A hold answers once the balance has decided and marks its entry in the background: a crash
      // while marking comes after the caller has its hold (the process dies with it; repair gives it back).
      const marked = new Promise<void>((reached) => {
        power.faults = (s, entry) => {
          if (s !== step || entry.kind !== 'hold') return;
          if (s === 'entry-marked') reached();
          throw new Error(`crash at ${step}`);
        };
      });
      if (step === 'entry-marked') {
        await power.hold(user, 400, 'gen');
        await marked;
      } else {
        await expect(power.hold(user, 400, 'gen')).rejects.toThrow('crash');
      }
      power.faults = undefined;
      await repairNow();
      expect(await balanceOf(t, user)).toBe(1000);
      expect(await entriesOf(t, user, { state: 'pending' })).toHaveLength(0);
      await noDrift();
    });

    const settleSteps: Array<[FaultStep, string | undefined]> = [
      ['entry-created', 'settle'],
      ['royalty-created', undefined],
      ['user-updated', 'settle'],
      ['entry-marked', 'settle'],
      ['settle-applied', undefined],
      ['user-updated', 'royalty'],
      ['entry-marked', 'royalty'],
      ['royalty-applied', undefined],
    ];

    it.each(settleSteps)('settle with royalty, crashing at %s (%s), is finished by repair', async (step, kind) => {
      const author = await insertUser(t, 'a');
      const player = await insertUser(t, 'p');
      await power.grant(player, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      const hold = await power.hold(player, 500, 'gen');
      crashAt(step, kind);
      await expect(power.settle(hold, 300, { authorUserID: author, ...STORY })).rejects.toThrow('crash');
      power.faults = undefined;
      await repairNow();
      expect(await balanceOf(t, player)).toBe(700);
      expect(await balanceOf(t, author)).toBe(30);
      // A retry after the repair changes nothing.
      expect(await power.settle(hold, 300, { authorUserID: author, ...STORY })).toEqual({ charged: 300, royalty: 30 });
      expect(await balanceOf(t, player)).toBe(700);
      expect(await balanceOf(t, author)).toBe(30);
      expect(await t.connection.db!.collection('ledger_entries').countDocuments({ state: 'pending' })).toBe(0);
      await noDrift();
    });

    it.each(steps)('release, crashing at %s, is finished by repair', async (step) => {
      const user = await insertUser(t, 'r');
      await power.grant(user, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      const hold = await power.hold(user, 600, 'gen');
      crashAt(step, 'release');
      await expect(power.release(hold)).rejects.toThrow('crash');
      power.faults = undefined;
      await repairNow();
      expect(await balanceOf(t, user)).toBe(1000);
      await noDrift();
    });

    it('a hold never settled (its process died) is released by repair once it is old', async () => {
      const user = await insertUser(t, 'old');
      await power.grant(user, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
      await power.hold(user, 600, 'gen');
      expect(await repair.repair()).toEqual({ finished: 0, voided: 0, released: 0 });
      expect(await balanceOf(t, user)).toBe(400);
      expect((await repairNow()).released).toBe(1);
      expect(await balanceOf(t, user)).toBe(1000);
      await noDrift();
    });

    it('leaves young pending entries alone (their movement may still be running)', async () => {
      const user = await insertUser(t, 'young');
      crashAt('entry-created');
      await expect(power.grant(user, 5, 'x', 'k')).rejects.toThrow('crash');
      power.faults = undefined;
      expect(await repair.repair()).toEqual({ finished: 0, voided: 0, released: 0 });
      expect(await balanceOf(t, user)).toBe(0);
    });
  });

  describe('the bookkeeping on the user document', () => {
    it('stays small over many movements, and old keys still grant nothing', async () => {
      const user = await insertUser(t, 'busy');
      for (let i = 0; i < 50; i++) await power.grant(user, 10, 'x', `k${i}`);
      await Promise.all(Array.from({ length: 150 }, (_, i) => power.grant(user, 10, 'x', `c${i}`)));
      const doc = await t.connection.db!.collection('users').findOne({ _id: new Types.ObjectId(user) });
      expect(doc!.powerApplied).toEqual([]);
      expect(doc!.points).toBe(2000);
      await Promise.all(Array.from({ length: 50 }, (_, i) => power.grant(user, 10, 'x', `k${i}`)));
      expect(await balanceOf(t, user)).toBe(2000);
      await noDrift();
    });

    it('repair drops ids a crash left behind after the entry was marked', async () => {
      const user = await insertUser(t, 'left');
      power.faults = (step) => {
        if (step === 'entry-marked') throw new Error('crash');
      };
      await expect(power.grant(user, 10, 'x', 'k')).rejects.toThrow('crash');
      power.faults = undefined;
      const users = t.connection.db!.collection('users');
      expect((await users.findOne({ _id: new Types.ObjectId(user) }))!.powerApplied).toHaveLength(1);
      await repairNow();
      expect((await users.findOne({ _id: new Types.ObjectId(user) }))!.powerApplied).toEqual([]);
      await noDrift();
    });

    it('a takeover fences out the write its dead claimant had prepared', async () => {
      const user = await insertUser(t, 'fenced');
      // The first call stalls right before its balance update, long enough to be presumed dead.
      let release!: () => void;
      const stalled = new Promise<void>((r) => (release = r));
      const balances = t.app.get(LedgerRepository).balances;
      const decide = balances.decide.bind(balances);
      let stalledOnce = false;
      vi.spyOn(balances, 'decide').mockImplementation((async (...args: Parameters<typeof decide>) => {
        // The balance update that applies points (its filter already holds the fence that was read).
        if (!stalledOnce && args[3] !== 'void' && args[3].apply) {
          stalledOnce = true;
          await stalled;
        }
        return decide(...args);
      }) as never);
      const first = power.grant(user, 10, 'x', 'k');
      await new Promise((r) => setTimeout(r, 50));
      await repairNow();
      expect(await balanceOf(t, user)).toBe(10);
      release();
      await first;
      vi.restoreAllMocks();
      expect(await balanceOf(t, user)).toBe(10);
      await noDrift();
    });
  });

  describe('verifyLedger', () => {
    it('reports a balance moved outside the ledger', async () => {
      const user = await insertUser(t, 'drifter');
      await power.grant(user, 100, PowerReason.DAILY_CHECK_IN, 'seed');
      await insertUser(t, 'clean');
      let report = await verifyLedger(t.connection.db!);
      expect(report).toMatchObject({ usersChecked: 2, entriesApplied: 1, drifts: [] });
      await t.connection.db!.collection('users').updateOne({ _id: new Types.ObjectId(user) }, { $inc: { points: 7 } });
      report = await verifyLedger(t.connection.db!);
      expect(report.drifts).toEqual([{ userID: user, userName: 'drifter', balance: 107, ledger: 100 }]);
    });

    it('as a command: prints the drifting users and exits 1, exits 0 when all is well', async () => {
      const user = await insertUser(t, 'cli');
      await power.grant(user, 100, PowerReason.DAILY_CHECK_IN, 'seed');
      const uri = new URL(process.env.TEST_DATABASE_URI!);
      uri.pathname = `/${t.databaseName}`;
      // The built command (made once: `pnpm test` builds first), run asynchronously: a test run in band
      // hosts the database in this process. Without MONGODB_URI it reads the embedded database in
      // DATA_DIR: here an empty folder.
      const emptyDataDir = mkdtempSync(join(tmpdir(), 'taleloom-no-data-'));
      const run = (mongodbUri: string) => verifyLedgerCommand(mongodbUri ? mongodbUri : { DATA_DIR: emptyDataDir });
      const clean = await run(uri.toString());
      expect(clean.stdout).toContain('No drift');
      expect(clean.status).toBe(0);
      await t.connection.db!.collection('users').updateOne({ _id: new Types.ObjectId(user) }, { $inc: { points: -1 } });
      const drifting = await run(uri.toString());
      expect(drifting.stdout).toContain(`${user}  cli  balance 99  ledger 100  diff -1`);
      expect(drifting.status).toBe(1);
      const missing = await run('');
      expect(missing.stderr).toContain(`No embedded database in ${emptyDataDir}: set MONGODB_URI`);
      expect(missing.status).toBe(2);
    });
  });
});

describe('the power ledger after a restart', () => {
  it('repairs at start-up what a crashed process left half-done', async () => {
    const first = await createTestApp();
    const power = first.app.get(PowerService);
    const user = await insertUser(first, 'phoenix');
    await power.grant(user, 1000, PowerReason.DAILY_CHECK_IN, 'seed');
    const hold = await power.hold(user, 400, 'gen');
    power.faults = (step) => {
      if (step === 'user-updated') throw new Error('killed');
    };
    await expect(power.grant(user, 50, PowerReason.INIT_POINTS, 'bonus')).rejects.toThrow('killed');
    await expect(power.settle(hold, 100)).rejects.toThrow('killed');
    await first.app.close();

    // The next process starts an hour later: its start-up repair finishes both movements.
    const later = new Date(Date.now() + 3600_000);
    const clock = vi.spyOn(PowerService.prototype, 'now').mockReturnValue(later);
    const second = await createTestApp({}, { databaseName: first.databaseName });
    try {
      expect(await balanceOf(second, user)).toBe(1000 + 50 - 100);
      expect(await second.connection.db!.collection('ledger_entries').countDocuments({ state: 'pending' })).toBe(0);
      expect((await verifyLedger(second.connection.db!)).drifts).toEqual([]);
    } finally {
      clock.mockRestore();
      await second.close();
    }
  });
});
