import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SchemaTypes, Types } from 'mongoose';

/**
 * The prompt of the latest send on a line of a story, part by part (`_id` is the branch's key: the story's id for its original line): what the context
 * inspector shows for the pending or last turn. The story-text part keeps only its range and a few
 * characters at each end (the text itself is the story's); everything else is kept as sent.
 */
@Schema({ collection: 'turn_contexts', timestamps: true })
export class TurnContext {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  @Prop({ required: true }) userID: string;
  @Prop({ required: true }) turnId: string;
  // A PromptContextData whose text part carries `head`/`tail` instead of the window (see TurnContextRepository).
  @Prop({ type: SchemaTypes.Mixed, required: true }) context: Record<string, unknown>;
}

export const TurnContextSchema = SchemaFactory.createForClass(TurnContext);
