import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** An issued image captcha; deleted when answered (right or wrong). */
@Schema({ collection: 'captchas' })
export class CaptchaRecord {
  @Prop({ required: true })
  answerHash: string;

  // For MongoDB's TTL clean-up only.
  @Prop({ type: Date, required: true, expires: 0 })
  expiresAt: Date;

  // Comparisons use epoch milliseconds: the offline stand-in's file storage keeps Dates as strings.
  @Prop({ required: true })
  expiresAtMs: number;
}

export const CaptchaRecordSchema = SchemaFactory.createForClass(CaptchaRecord);
