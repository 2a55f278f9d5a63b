import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { createHash } from 'node:crypto';
import { Types } from 'mongoose';

/** One fixed-window counter, e.g. `sms:ip:1.2.3.4:<window index>`; shared by every API instance. */
@Schema({ collection: 'rateLimits' })
export class RateLimitCounter {
  // Derived from `key` (counterId): every hit is one upsert by _id, which is unique on every store and
  // found without a scan on the offline stand-in.
  @Prop({ type: Types.ObjectId, required: true })
  _id: Types.ObjectId;

  @Prop({ required: true })
  key: string;

  @Prop({ required: true, default: 0 })
  count: number;

  // Real MongoDB drops old windows by TTL; the stand-in keeps them (harmless).
  @Prop({ type: Date, required: true, expires: 0 })
  expiresAt: Date;
}

export const RateLimitCounterSchema = SchemaFactory.createForClass(RateLimitCounter);

/** The _id of the counter named `key`: the same key always gives the same id. */
export function counterId(key: string): Types.ObjectId {
  return new Types.ObjectId(createHash('sha256').update(`rate-limit:${key}`).digest().subarray(0, 12));
}
