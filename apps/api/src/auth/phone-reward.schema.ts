import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/**
 * A once-ever reward tied to a phone number, e.g. `init_points:+8613800138000`. The document is created
 * unclaimed, then claimed by one conditional update: whoever sets `claimedBy` first owns it for good.
 */
@Schema({ collection: 'phoneRewards', timestamps: true })
export class PhoneReward {
  @Prop({ required: true, unique: true })
  key: string;

  @Prop({ type: Types.ObjectId, default: null })
  claimedBy: Types.ObjectId | null;

  @Prop({ type: Date, default: null })
  claimedAt: Date | null;
}

export const PhoneRewardSchema = SchemaFactory.createForClass(PhoneReward);
