import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ARCHIVE_SLOT_MAX, PUBLIC_ARCHIVE_INDEX } from '@taleloom/contracts';
import { StoryState, StoryStateSchema } from './story.schema';

// Archive slots 0..998 are the user's saves; -1 is the public version others see and clone (limits in contracts).
export { ARCHIVE_SLOT_MAX, PUBLIC_ARCHIVE_INDEX };

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

export const StoryArchiveSchema = SchemaFactory.createForClass(StoryArchive);
// One snapshot per slot. Save slots are upserted by an _id derived from (story, slot) (see archive-slot-id.ts),
// so two concurrent saves hit one document even where this index is not enforced; it protects production.
StoryArchiveSchema.index({ story_id: 1, archive_index: 1 }, { unique: true });
// Readers of a public story may read the pictures its public version references.
StoryArchiveSchema.index({ 'state.pictures.id': 1 });
