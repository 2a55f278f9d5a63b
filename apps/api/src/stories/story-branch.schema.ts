import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { StoryPictureRef, StoryPictureRefSchema } from './story-picture-ref.schema';

/**
 * What differs between the branches of a story: its text, the summary of it (and how far it covers),
 * and the pictures of its passages. Everything else (settings, notes, model, character sheet) is the
 * story's, shared by all its branches.
 */
@Schema({ _id: false })
export class BranchState {
  @Prop({ default: '' }) main_text: string;
  @Prop({ default: '' }) previous_summary: string;
  @Prop({ default: 0 }) summarized_chars: number;
  @Prop({ type: [StoryPictureRefSchema], default: [] }) pictures: StoryPictureRef[];
}

export const BranchStateSchema = SchemaFactory.createForClass(BranchState);

/**
 * One line of a story. The story document holds the branch being played (its `branchId`, with the
 * state fields above): every reader of a story reads the played branch without knowing branches
 * exist. The other branches wait here with their state. The story's original line has the story's own
 * id as its id; its document is written the first time the story leaves it.
 *
 * `state` is authoritative only while the branch is not the one played (the story's is, then; the copy
 * here may be older).
 */
@Schema({ collection: 'story_branches' })
export class StoryBranch {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  // The story's and the owner's ids (hex strings, as everywhere).
  @Prop({ required: true }) storyId: string;
  @Prop({ required: true }) userID: string;
  // 1 for the original line, then 2, 3, ... in the order branches were made.
  @Prop({ required: true }) no: number;
  // Empty: the web shows a default name in the reader's language.
  @Prop({ default: '' }) name: string;
  // Where it forks: the branch it was made from, the offset in that branch's text, and the text before it.
  @Prop({ type: String, default: null }) forkedFrom: string | null;
  @Prop({ default: 0 }) forkAt: number;
  @Prop({ default: '' }) forkExcerpt: string;
  // Epoch milliseconds (numbers compare the same on every store).
  @Prop({ default: 0 }) createdAt: number;
  // When the story last left it (null: never played, or played now).
  @Prop({ type: Number, default: null }) lastPlayedAt: number | null;
  @Prop({ type: BranchStateSchema, default: null }) state: BranchState | null;
  // Characters of its stored text (shown in the branch list without loading the text).
  @Prop({ default: 0 }) charCount: number;
}

export const StoryBranchSchema = SchemaFactory.createForClass(StoryBranch);
// A story's branches.
StoryBranchSchema.index({ storyId: 1, userID: 1 });
// Who may read a picture file: the branches that reference it, too.
StoryBranchSchema.index({ 'state.pictures.id': 1 });
