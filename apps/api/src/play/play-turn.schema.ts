import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { TurnState } from '@taleloom/contracts';
import { SchemaTypes, Types } from 'mongoose';

/**
 * A finished take of the pending turn (an alternative the user can flip to): every generation that
 * ends well adds itself, in the same write that marks it done; regenerate adds the next one beside it.
 */
export interface StoredTake {
  turnId: string;
  aiText: string;
  reasoning: string;
  model: string;
  cost: number;
  promptTokens: number;
  completionTokens: number;
  finishedAt: number;
}

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
  // The finished takes of the pending turn, oldest first (at most TAKES_PER_TURN_MAX); cleared with it.
  @Prop({ type: [SchemaTypes.Mixed], default: [] }) takes: StoredTake[];
  // The branch of the story the pending turn belongs to (null: the story's original line). A change
  // of branch parks it (parked_turns) and brings the next branch's back.
  @Prop({ type: String, default: null }) branchId: string | null;
  // A change of branch holds the turn: `lastSendAt` is pushed into the future (no send can claim it
  // meanwhile, and a holder that dies lets go when that time passes) and this names the holder.
  @Prop({ type: String, default: null }) switchLock: string | null;
  // An accept in progress (epoch ms until which it may still append): a change of branch waits for it.
  @Prop({ type: Number, default: null }) acceptFence: number | null;
}

export const PlayTurnSchema = SchemaFactory.createForClass(PlayTurn);
// Repair looks for generating turns.
PlayTurnSchema.index({ state: 1 });
