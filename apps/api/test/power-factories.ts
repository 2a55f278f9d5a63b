import { Types } from 'mongoose';
import type { TestApp } from './test-app';

/** A user straight in the database (no password hashing): for ledger tests that need many of them. */
export async function insertUser(t: TestApp, userName: string, points = 0): Promise<string> {
  const _id = new Types.ObjectId();
  await t.connection.db!.collection('users').insertOne({
    _id,
    userName,
    userNameKey: userName.toLowerCase(),
    points,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  return _id.toHexString();
}

export async function balanceOf(t: TestApp, userID: string): Promise<number> {
  const user = await t.connection.db!.collection('users').findOne({ _id: new Types.ObjectId(userID) });
  return user?.points as number;
}

/** Sum of the points of a user's applied entries. */
export async function ledgerSum(t: TestApp, userID: string): Promise<number> {
  const rows = await t.connection
    .db!.collection('ledger_entries')
    .find({ userID, state: 'applied' })
    .toArray();
  return rows.reduce((sum, r) => sum + (r.points as number), 0);
}

export function entriesOf(t: TestApp, userID: string, filter: Record<string, unknown> = {}) {
  return t.connection
    .db!.collection('ledger_entries')
    .find({ userID, ...filter })
    .toArray();
}
