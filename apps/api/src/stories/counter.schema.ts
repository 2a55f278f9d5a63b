import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** Named sequences, advanced with one atomic `$inc` upsert each. */
@Schema({ collection: 'counters', versionKey: false })
export class Counter {
  // A name rather than a string _id: the offline stand-in only accepts ObjectId ids on upsert.
  @Prop({ required: true }) name: string;
  @Prop({ required: true, default: 0 }) seq: number;
}

export const CounterSchema = SchemaFactory.createForClass(Counter);
CounterSchema.index({ name: 1 }, { unique: true });
export const STORY_NO_COUNTER = 'storyNo';
