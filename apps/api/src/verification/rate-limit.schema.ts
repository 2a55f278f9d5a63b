import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** One fixed-window counter, e.g. `sms:ip:1.2.3.4:<window index>`; shared by every API instance. */
@Schema({ collection: 'rateLimits' })
export class RateLimitCounter {
  @Prop({ required: true, unique: true })
  key: string;

  @Prop({ required: true, default: 0 })
  count: number;

  // Real MongoDB drops old windows by TTL; the stand-in keeps them (harmless).
  @Prop({ type: Date, required: true, expires: 0 })
  expiresAt: Date;
}

export const RateLimitCounterSchema = SchemaFactory.createForClass(RateLimitCounter);
