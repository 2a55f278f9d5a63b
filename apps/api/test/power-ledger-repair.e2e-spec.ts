import 'reflect-metadata';
import { PowerReason } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerRepairService } from '../src/power/ledger-repair.service';
import { LedgerRepository, type FaultStep } from '../src/power/ledger.repository';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf, insertUser } from './power-factories';
import { verifyLedgerCommand } from './support/app-process';
import { createTestApp, type TestApp } from './test-app';
import { ledgerSuite, STORY } from './support/ledger-suite';

describe('the power ledger (PowerService): repair after a crash, bookkeeping, verifyLedger', () => {
  const suite = ledgerSuite({ built: true });
  const { noDrift, repairNow } = suite;
  let t: TestApp, power: PowerService, repair: LedgerRepairService;
  beforeEach(() => void ({ t, power, repair } = suite));

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
