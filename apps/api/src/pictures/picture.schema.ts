import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { PIC_SIZES, PICTURE_STATUSES, type PicSize, type PictureStatus } from '@taleloom/contracts';
import { Types } from 'mongoose';

/**
 * One drawing: its state, prompt and cost. Its `_id` is also the id of its GridFS file (bucket
 * `pictures`). Only the drawing writes it once it runs, so it never competes with writes to the story.
 */
@Schema({ collection: 'story_pictures' })
export class Picture {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  // The story it was drawn for and who paid (hex ids).
  @Prop({ required: true }) storyId: string;
  @Prop({ required: true }) userID: string;
  @Prop({ type: String, enum: PICTURE_STATUSES, default: 'pending' }) status: PictureStatus;
  @Prop({ type: String, enum: PIC_SIZES, default: '512*512' }) size: PicSize;
  @Prop({ default: '' }) prompt: string;
  @Prop({ default: 0 }) width: number;
  @Prop({ default: 0 }) height: number;
  @Prop({ default: '' }) contentType: string;
  @Prop({ default: false }) demo: boolean;
  @Prop({ type: String, default: null }) errorCode: string | null;
  @Prop({ default: 0 }) cost: number;
  // The power held while it is drawn.
  @Prop({ type: String, default: null }) holdId: string | null;
  // Epoch milliseconds (numbers compare the same on every store).
  @Prop({ default: 0 }) createdAt: number;
  @Prop({ default: 0 }) startedAt: number;
  @Prop({ default: 0 }) updatedAt: number;
}

export const PictureSchema = SchemaFactory.createForClass(Picture);
// The drawings running on a story (at most a few at a time).
PictureSchema.index({ storyId: 1, status: 1 });
