import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { PIC_SIZES, type PicSize } from '@taleloom/contracts';

/**
 * A picture of a story as the story record references it: which picture (the `story_pictures`
 * document and GridFS file of the same id) and the passage it shows. Archives, the public version
 * and clones copy these references and share the pictures.
 */
@Schema({ _id: false })
export class StoryPictureRef {
  @Prop({ required: true }) id: string;
  // The passage shown, as offsets into main_text, and its last characters to find it again after edits.
  @Prop({ default: 0 }) from: number;
  @Prop({ default: 0 }) to: number;
  @Prop({ default: '' }) excerpt: string;
  @Prop({ type: String, enum: PIC_SIZES, default: '512*512' }) size: PicSize;
}

export const StoryPictureRefSchema = SchemaFactory.createForClass(StoryPictureRef);
