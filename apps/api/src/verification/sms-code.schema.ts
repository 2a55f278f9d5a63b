import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { SmsType } from '@taleloom/contracts';

/** The one live code of a phone number (E.164); a new send replaces it, at most once per resend interval. */
@Schema({ collection: 'smsCodes' })
export class SmsCode {
  @Prop({ required: true, unique: true })
  phone: string;

  @Prop({ type: String, default: null })
  type: SmsType | null;

  // HMAC of phone + code; null once used (or before the first send).
  @Prop({ type: String, default: null })
  codeHash: string | null;

  // Epoch milliseconds (the offline stand-in's file storage keeps Dates as strings, which do not compare).
  @Prop({ type: Number, default: null })
  sentAtMs: number | null;

  @Prop({ type: Number, default: null })
  expiresAtMs: number | null;

  // Tries let in since the code was sent, counted before the code is compared (a right one uses the
  // code up, so only wrong ones leave it live); at 5 the code is burnt.
  @Prop({ default: 0 })
  wrongTries: number;
}

export const SmsCodeSchema = SchemaFactory.createForClass(SmsCode);
