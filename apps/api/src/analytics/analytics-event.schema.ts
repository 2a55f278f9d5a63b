import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** One first-party analytics event (no third party sees it). */
@Schema({ collection: 'analyticsEvents' })
export class AnalyticsEvent {
  @Prop({ required: true, index: true })
  name: string;

  @Prop({ type: Date, required: true, index: true })
  at: Date;

  @Prop({ type: Types.ObjectId, default: null })
  userID: Types.ObjectId | null;

  @Prop({ type: String, default: null })
  path: string | null;

  @Prop({ type: String, default: null })
  method: string | null;

  @Prop({ type: String, default: null })
  language: string | null;

  // A salted hash, so visits can be told apart without storing addresses.
  @Prop({ type: String, default: null })
  visitor: string | null;
}

export const AnalyticsEventSchema = SchemaFactory.createForClass(AnalyticsEvent);
