import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { TurnState } from '@taleloom/contracts';
import { Types } from 'mongoose';

/**
 * The play state of one story (`_id` is the story's id): its latest, unaccepted turn, the send
 * throttle and how far the previous summary covers the text. One document per story, so claiming a
 * generation is one conditional single-document update, shared by every API instance.
 */
@Schema({ collection: 'play_turns', timestamps: true })
export class PlayTurn {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  @Prop({ required: true }) userID: string;
  @Prop({ type: String, default: 'idle' }) state: TurnState;
  // Which generation owns the turn: every write of a generation matches on it.
  @Prop({ type: String, default: null }) generationId: string | null;
  @Prop({ default: '' }) role: string;
  @Prop({ default: '' }) input: string;
  @Prop({ default: '' }) userText: string;
  @Prop({ default: '' }) aiText: string;
  @Prop({ default: '' }) reasoning: string;
  @Prop({ default: '' }) model: string;
  @Prop({ type: String, default: null }) errorCode: string | null;
  @Prop({ default: 0 }) cost: number;
  @Prop({ default: 0 }) promptTokens: number;
  @Prop({ default: 0 }) completionTokens: number;
  @Prop({ type: String, default: null }) holdId: string | null;
  // The process running the generation (`host|pid|boot`, see common/instance.ts): a restart on the
  // same host knows at once that a generation of its previous run is dead.
  @Prop({ type: String, default: null }) owner: string | null;
  // Set once the stream has ended well and its whole text is stored: the cost being settled. A turn
  // found dead with it is settled by repair (the user has the whole text); without it, released.
  @Prop({ type: Number, default: null }) finalCost: number | null;
  // Times are epoch milliseconds: numbers compare the same on every store (the offline stand-in's
  // file storage hands dates back as strings).
  // The throttle: the time of the last accepted send.
  @Prop({ default: 0 }) lastSendAt: number;
  // A generating turn whose heartbeat is old belongs to an instance that died: it may be replaced.
  @Prop({ default: 0 }) heartbeatAt: number;
  // main_text[0, summarizedChars) is covered by the story's previous_summary.
  @Prop({ default: 0 }) summarizedChars: number;
  @Prop({ type: Number, default: null }) finishedAt: number | null;
}

export const PlayTurnSchema = SchemaFactory.createForClass(PlayTurn);
// Repair looks for generating turns.
PlayTurnSchema.index({ state: 1 });
