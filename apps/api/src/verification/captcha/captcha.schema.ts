import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** An issued image captcha; deleted when answered (right or wrong). */
@Schema({ collection: 'captchas' })
export class CaptchaRecord {
  @Prop({ required: true })
  answerHash: string;

  @Prop({ type: Date, required: true, expires: 0 })
  expiresAt: Date;
}

export const CaptchaRecordSchema = SchemaFactory.createForClass(CaptchaRecord);
