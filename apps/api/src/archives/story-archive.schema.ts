import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';
import { StoryState, StoryStateSchema } from '../stories/story.schema';

/** Archive slots 0..998 are the user's saves; -1 is the public version others see and clone. */
export const PUBLIC_ARCHIVE_INDEX = -1;
export const ARCHIVE_SLOT_MAX = 998;

/** A saved snapshot of a story's whole state in one slot (spec section 3 "Archive"). */
@Schema({ collection: 'story_archives', timestamps: true })
export class StoryArchive {
  // The story's hex id (the stand-in's file storage keeps only _id as an ObjectId).
  @Prop({ required: true }) story_id: string;
  @Prop({ required: true, min: PUBLIC_ARCHIVE_INDEX, max: ARCHIVE_SLOT_MAX }) archive_index: number;
  // Seconds since the epoch.
  @Prop({ required: true }) time: number;
  @Prop({ default: 0 }) current_word_count: number;
  @Prop({ default: '' }) story_ending: string;
  @Prop({ type: StoryStateSchema, required: true }) state: StoryState;
}

export type StoryArchiveDocument = HydratedDocument<StoryArchive>;
export const StoryArchiveSchema = SchemaFactory.createForClass(StoryArchive);
// One snapshot per slot; writes go through an upsert on this pair, the index protects production.
StoryArchiveSchema.index({ story_id: 1, archive_index: 1 }, { unique: true });
