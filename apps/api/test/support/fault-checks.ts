// What every fault test asserts after the fault: the money is exact and nothing is left half-done.
import type { mongo } from 'mongoose';
import { verifyLedger } from '../../src/power/verify-ledger';

/**
 * Balance == ledger for every user, no stray hold and no counter off its records (the checks
 * `verify:ledger` runs), no movement left pending and no hold left open.
 */
export async function expectLedgerExact(db: mongo.Db): Promise<void> {
  const report = await verifyLedger(db);
  expect(report.drifts).toEqual([]);
  expect(report.strayHolds).toEqual([]);
  expect(report.counterDrifts).toEqual([]);
  const entries = db.collection('ledger_entries');
  expect(await entries.countDocuments({ state: 'pending' })).toBe(0);
  expect(await entries.countDocuments({ kind: 'hold', state: 'applied', closed: { $ne: true } })).toBe(0);
}

/** The closing entries (settle or release) of a user's holds, oldest first. */
export function closesOf(db: mongo.Db, userID: string) {
  return db
    .collection('ledger_entries')
    .find({ userID, kind: { $in: ['settle', 'release'] } })
    .sort({ createdAt: 1 })
    .toArray();
}

/** Power a user was charged in all (sum of settled costs). */
export async function chargedOf(db: mongo.Db, userID: string): Promise<number> {
  const closes = await closesOf(db, userID);
  return closes.filter((c) => c.kind === 'settle' && c.state === 'applied').reduce((sum, c) => sum - (c.shownPoints as number), 0);
}
