import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SchemaTypes, Types } from 'mongoose';
import type { PlayTurn } from './play-turn.schema';

/** The fields of a pending turn that wait with its branch. */
export type ParkedFields = Pick<
  PlayTurn,
  'state' | 'generationId' | 'role' | 'input' | 'userText' | 'aiText' | 'reasoning' | 'model' | 'errorCode' | 'cost' | 'promptTokens' | 'completionTokens' | 'finishedAt' | 'finalCost' | 'takes'
>;

/**
 * The pending (unaccepted) turn of a branch that is not being played, with all its takes: it comes
 * back when the story plays that branch again. One document per (story, branch), its `_id` derived
 * from both, written by one upsert.
 */
@Schema({ collection: 'parked_turns' })
export class ParkedTurn {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  @Prop({ required: true }) storyId: string;
  @Prop({ required: true }) branchId: string;
  @Prop({ required: true }) userID: string;
  @Prop({ type: SchemaTypes.Mixed, required: true }) turn: ParkedFields;
  @Prop({ default: 0 }) parkedAt: number;
}

export const ParkedTurnSchema = SchemaFactory.createForClass(ParkedTurn);
