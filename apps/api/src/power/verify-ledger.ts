// `pnpm --filter @taleloom/api verify:ledger`: checks every balance against its ledger, that no hold
// is open for an action that does not run, and the square's counters against their records; on
// MONGODB_URI, or (without it) on the embedded database kept in DATA_DIR while the app is stopped.
// It runs the built app's code (dist/) as it is: `pnpm run build` first when the sources changed.
import { config as loadDotenv } from 'dotenv';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MongoClient, ObjectId, type Db } from 'mongodb';
import { databaseSettings, DatabaseSettingError } from '../config/database-settings';
import { DATA_FOLDERS, startDatabase, type DatabaseHandle } from '../database/embedded-database';
import { DataFolderInUseError } from '../database/stand-in-journal';
import { counterDrifts, strayHolds, type CounterDrift, type StrayHold } from './verify-drift';

export interface LedgerDrift {
  userID: string;
  userName: string;
  balance: number;
  ledger: number;
}

export interface LedgerReport {
  usersChecked: number;
  entriesApplied: number;
  drifts: LedgerDrift[];
  /** Open holds whose paid action does not run (see verify-drift.ts). */
  strayHolds: StrayHold[];
  /** Square counters that differ from their records (see verify-drift.ts). */
  counterDrifts: CounterDrift[];
}

interface UserRow {
  _id: ObjectId;
  userName?: string;
  points?: number;
  powerApplied?: string[];
}

/**
 * For every user: balance == sum of the points of their applied ledger entries (plus entries the
 * balance already took but that are not marked yet: a movement in flight). A user who differs is
 * looked at again, alone, so a movement running meanwhile is not reported as drift. Then the holds
 * nothing runs any more and the square's counters against their records (verify-drift.ts).
 */
export async function verifyLedger(db: Db): Promise<LedgerReport> {
  const entries = db.collection('ledger_entries');
  const users = db.collection<UserRow>('users');
  const sums = new Map<string, number>();
  let entriesApplied = 0;
  // Ledger entries name their user by hex string.
  const grouped = entries.aggregate<{ _id: string; total: number; count: number }>([
    { $match: { state: 'applied' } },
    { $group: { _id: '$userID', total: { $sum: '$points' }, count: { $sum: 1 } } },
  ]);
  for await (const row of grouped) {
    sums.set(String(row._id), row.total);
    entriesApplied += row.count;
  }
  const drifts: LedgerDrift[] = [];
  let usersChecked = 0;
  const cursor = users.find({}, { projection: { userName: 1, points: 1, powerApplied: 1 } });
  for await (const user of cursor) {
    usersChecked++;
    const ledger = (sums.get(String(user._id)) ?? 0) + (await inFlight(db, user));
    if (ledger === (user.points ?? 0)) continue;
    const drift = await recheck(db, user._id);
    if (drift) drifts.push(drift);
  }
  const [strays, counters] = await Promise.all([strayHolds(db), counterDrifts(db)]);
  return { usersChecked, entriesApplied, drifts, strayHolds: strays, counterDrifts: counters };
}

/** True when the report found nothing wrong (the command's exit code 0). */
export function isClean(report: LedgerReport): boolean {
  return report.drifts.length + report.strayHolds.length + report.counterDrifts.length === 0;
}

// Entries the balance took whose mark has not been written yet.
async function inFlight(db: Db, user: UserRow): Promise<number> {
  if (!user.powerApplied?.length) return 0;
  const rows = await db
    .collection('ledger_entries')
    .find({ _id: { $in: user.powerApplied.map((id) => new ObjectId(id)) }, state: 'pending' }, { projection: { points: 1 } })
    .toArray();
  return rows.reduce((sum, r) => sum + (r.points as number), 0);
}

// One user, read before and after its entries; a changed balance means a movement ran: try again.
async function recheck(db: Db, userID: ObjectId): Promise<LedgerDrift | null> {
  let last: LedgerDrift | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const projection = { userName: 1, points: 1, powerApplied: 1 };
    const before = await db.collection<UserRow>('users').findOne({ _id: userID }, { projection });
    if (!before) return null;
    const [row] = await db
      .collection('ledger_entries')
      .aggregate<{ total: number }>([
        { $match: { userID: userID.toHexString(), state: 'applied' } },
        { $group: { _id: null, total: { $sum: '$points' } } },
      ])
      .toArray();
    const ledger = (row?.total ?? 0) + (await inFlight(db, before));
    const after = await db.collection<UserRow>('users').findOne({ _id: userID }, { projection });
    if (after?.points !== before.points) continue;
    if (ledger === (before.points ?? 0)) return null;
    last = { userID: userID.toHexString(), userName: before.userName ?? '', balance: before.points ?? 0, ledger };
  }
  return last;
}

/** Prints what drifts: balances, stray holds and counters; exit code 1 if anything does. */
export function formatReport(report: LedgerReport): string {
  const lines = [
    `Checked ${report.usersChecked} users and ${report.entriesApplied} applied ledger entries.`,
    report.drifts.length === 0 ? 'No drift: every balance equals the sum of its ledger.' : `${report.drifts.length} user(s) drift:`,
  ];
  for (const d of report.drifts) {
    lines.push(`  ${d.userID}  ${d.userName}  balance ${d.balance}  ledger ${d.ledger}  diff ${d.balance - d.ledger}`);
  }
  lines.push(report.strayHolds.length === 0 ? 'No stray hold: every open hold belongs to a running action.' : `${report.strayHolds.length} stray hold(s):`);
  for (const h of report.strayHolds) lines.push(`  hold ${h.holdID}  user ${h.userID}  ${h.points} power  ${h.key}  (${h.why})`);
  lines.push(report.counterDrifts.length === 0 ? "No counter drift: the square's counters equal their records." : `${report.counterDrifts.length} counter(s) differ from their records:`);
  for (const c of report.counterDrifts) lines.push(`  story ${c.storyID}  ${c.field}  stored ${c.stored}  records ${c.records}`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  loadDotenv({ path: [resolve(process.cwd(), '.env'), resolve(__dirname, '..', '..', '..', '..', '.env')], quiet: true });
  const database = await openDatabase();
  if (!database) return 2;
  try {
    const client = await new MongoClient(database.uri, { serverSelectionTimeoutMS: 5000 }).connect();
    try {
      const report = await verifyLedger(client.db());
      console.log(formatReport(report));
      return isClean(report) ? 0 : 1;
    } finally {
      await client.close();
    }
  } finally {
    await database.stop();
  }
}

// MONGODB_URI, else the embedded database the app keeps in DATA_DIR (the same bootstrap as `pnpm start`).
async function openDatabase(): Promise<DatabaseHandle | null> {
  const env = databaseSettings(process.env);
  if (env.MONGODB_URI) return startDatabase({ uri: env.MONGODB_URI });
  const dataDir = resolve(process.cwd(), env.DATA_DIR);
  if (!existsSync(join(dataDir, DATA_FOLDERS.standIn)) && !existsSync(join(dataDir, DATA_FOLDERS.mongod))) {
    console.error(`No embedded database in ${dataDir}: set MONGODB_URI, or DATA_DIR to the folder the app keeps its data in.`);
    return null;
  }
  return startDatabase({ mode: env.EMBEDDED_DATABASE, dataDir, log: (m) => console.log(m) });
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof DataFolderInUseError || error instanceof DatabaseSettingError ? error.message : error);
      process.exit(2);
    },
  );
}
