import { createHash } from 'node:crypto';

/**
 * The 12 bytes of a ledger entry's id: derived from who, what kind and which key, so the same movement
 * written twice is one entry (LedgerRepository.entryId). Apart, so `verify:ledger` finds an entry by it
 * without loading the app's modules.
 */
export function ledgerEntryIdBytes(userID: { toString(): string } | string, namespace: string, key: string): Buffer {
  return createHash('sha256').update(`${String(userID)}\u0000${namespace}\u0000${key}`).digest().subarray(0, 12);
}
