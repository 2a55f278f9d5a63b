import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

export const LEDGER_ENTRY_KINDS = ['grant', 'hold', 'settle', 'release', 'royalty'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

export const LEDGER_ENTRY_STATES = ['pending', 'applied', 'voided'] as const;
export type LedgerEntryState = (typeof LEDGER_ENTRY_STATES)[number];

/** A story named by a movement: what the points record shows, and who the royalty is for. */
export interface LedgerStoryInfo {
  storyID: string | null;
  storyName: string | null;
}

/** Written on a settle entry so that repair can still credit the royalty after a crash. */
export interface LedgerRoyalty {
  authorUserID: string;
  points: number;
  storyID: string | null;
  storyName: string | null;
}

// References are hex strings and the claim time is epoch ms: the embedded stand-in, when it keeps
// data on disk, matches neither ObjectIds outside _id nor Dates in queries.

/**
 * One movement of one balance. `_id` is derived from (user, namespace, idempotency key), so a
 * retried movement finds its own entry instead of writing a second one.
 */
@Schema({ collection: 'ledger_entries', versionKey: false })
export class LedgerEntry {
  _id: Types.ObjectId;

  @Prop({ type: String, required: true })
  userID: string;

  // The caller's idempotency key (for settle, release and royalty: the hold id).
  @Prop({ required: true })
  key: string;

  @Prop({ type: String, required: true, enum: LEDGER_ENTRY_KINDS })
  kind: LedgerEntryKind;

  // Signed change of the balance once applied; the balance equals the sum over applied entries.
  @Prop({ required: true })
  points: number;

  // What the points record shows (a settle shows the charge, not the release of the rest).
  @Prop({ required: true })
  shown: boolean;

  @Prop({ required: true })
  shownPoints: number;

  @Prop({ required: true })
  reason: string;

  @Prop({ type: Object, default: null })
  storyInfo: LedgerStoryInfo | null;

  @Prop({ type: String, required: true, enum: LEDGER_ENTRY_STATES })
  state: LedgerEntryState;

  // settle, release, royalty: the hold they close or come from.
  @Prop({ type: String, default: null })
  holdID: string | null;

  // hold: set once its settle or release is applied (a hint for repair, not money).
  @Prop({ default: false })
  closed: boolean;

  // settle: the royalty it owes the source story's author.
  @Prop({ type: Object, default: null })
  royalty: LedgerRoyalty | null;

  // hold: the process that took it (common/instance.ts), so that repair knows when its taker is gone.
  @Prop({ type: String, default: null })
  owner?: string | null;

  // Who is deciding this entry now (a random token per call) and since when (epoch ms); see ledger.repository.ts.
  @Prop({ type: String, default: null })
  claim?: string | null;

  @Prop({ type: Number, default: null })
  claimedAt?: number;

  @Prop({ type: Date, required: true })
  operationAt: Date;

  // Breaks ties between entries of the same millisecond: the hex of a fresh (time-ordered) ObjectId.
  @Prop({ type: String, required: true })
  seq: string;

  @Prop({ type: Date, required: true })
  createdAt: Date;

  @Prop({ type: Date, default: null })
  resolvedAt: Date | null;
}

export const LedgerEntrySchema = SchemaFactory.createForClass(LedgerEntry);
// The points record of one user, newest first.
LedgerEntrySchema.index({ userID: 1, shown: 1, state: 1, operationAt: -1, seq: -1 });
// Repair: pending entries, and holds never closed.
LedgerEntrySchema.index({ state: 1, claimedAt: 1 });
LedgerEntrySchema.index({ kind: 1, state: 1, closed: 1, claimedAt: 1 });
