import { LedgerRepairService } from '../../src/power/ledger-repair.service';
import { PowerService } from '../../src/power/power.service';
import { verifyLedger } from '../../src/power/verify-ledger';
import { createTestApp, type TestApp } from '../test-app';
import { ensureBuilt } from './app-process';

export const STORY = { storyID: 'story-1', storyName: 'The Lighthouse' };

export interface LedgerSuite {
  t: TestApp;
  power: PowerService;
  repair: LedgerRepairService;
}

/**
 * The hooks and helpers of the power ledger suites: one app for the file, per test a clean database
 * and no faults. `built`: the suite runs the built verify:ledger command.
 */
export function ledgerSuite(options: { built?: boolean } = {}) {
  const s = {} as LedgerSuite;
  beforeAll(async () => {
    if (options.built) ensureBuilt();
    s.t = await createTestApp();
    s.power = s.t.app.get(PowerService);
    s.repair = s.t.app.get(LedgerRepairService);
  });
  beforeEach(async () => {
    s.power.faults = undefined;
    await s.t.clean();
  });
  afterAll(() => s.t.close());
  const noDrift = async () => expect((await verifyLedger(s.t.connection.db!)).drifts).toEqual([]);
  const repairNow = () => s.repair.repair({ pendingGraceMs: 0, holdMaxAgeMs: 0 });
  return Object.assign(s, { noDrift, repairNow });
}
