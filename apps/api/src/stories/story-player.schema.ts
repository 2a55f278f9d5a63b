import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** One user counted once as a player of a source story (they cloned it, or a clone of it). */
@Schema({ collection: 'story_players', versionKey: false })
export class StoryPlayer {
  @Prop({ required: true }) storyId: string;
  @Prop({ required: true }) userID: string;
  @Prop({ type: Date, required: true }) at: Date;
}

export const StoryPlayerSchema = SchemaFactory.createForClass(StoryPlayer);
// Protects production; the code does not rely on it (an upsert decides who counts).
StoryPlayerSchema.index({ storyId: 1, userID: 1 }, { unique: true });
