import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import {
  DEFAULT_PLAY_MODE,
  DEFAULT_STORY_SETTINGS,
  PIC_SIZES,
  PLAY_MODES,
  PROMPT_SWITCHES,
  type PicSize,
  type PlayMode,
  type PromptSwitch,
  type StoryPermission,
} from '@taleloom/contracts';
import { SchemaTypes, type HydratedDocument } from 'mongoose';
import { StoryPictureRef, StoryPictureRefSchema } from './story-picture-ref.schema';

/** The content of a story: what an archive snapshots and a clone copies. */
@Schema({ _id: false })
export class StoryState {
  // Empty means untitled; the web shows a translated "Untitled".
  @Prop({ default: '' }) name: string;
  @Prop({ default: '' }) main_text: string;
  @Prop({ default: '' }) goal: string;
  @Prop({ default: '' }) role: string;
  @Prop({ default: '' }) user: string;
  @Prop({ default: '' }) hidden_settings: string;
  // The original author's user name (kept through clones); writer is the current owner's.
  @Prop({ default: '' }) author: string;
  @Prop({ default: '' }) writer: string;
  @Prop({ type: [SchemaTypes.Mixed], default: [] }) history_table: unknown[];
  @Prop({ type: [SchemaTypes.Mixed], default: [] }) note_table: unknown[];
  @Prop({ default: '' }) prologue_and_characters: string;
  @Prop({ type: String, enum: PLAY_MODES, default: DEFAULT_PLAY_MODE }) play_mode: PlayMode;
  @Prop({ default: false }) recovery_point: boolean;
  @Prop({ type: String, default: null }) recovery_point_id: string | null;
  @Prop({ default: '' }) author_remark: string;
  @Prop({ default: '' }) previous_summary: string;
  // main_text[0, summarized_chars) is covered by previous_summary (the two move together: a fold, a
  // branch, an archive). Stories from before it was kept here have it on their play turn instead.
  @Prop({ default: 0 }) summarized_chars: number;
  @Prop({ default: '' }) model_name: string;
  @Prop({ default: '' }) model_type: string;
  @Prop({ type: String, default: null }) activity: string | null;
  @Prop({ type: Number, default: null }) activity_story_index: number | null;

  @Prop({ type: String, enum: PROMPT_SWITCHES, default: DEFAULT_STORY_SETTINGS.settings_system_prompt_switch })
  settings_system_prompt_switch: PromptSwitch;
  @Prop({ default: '' }) settings_system_prompt_text: string;
  @Prop({ type: String, enum: PROMPT_SWITCHES, default: DEFAULT_STORY_SETTINGS.settings_user_prompt_switch })
  settings_user_prompt_switch: PromptSwitch;
  @Prop({ default: '' }) settings_user_prompt_text: string;
  @Prop({ default: DEFAULT_STORY_SETTINGS.settings_camera_switch }) settings_camera_switch: boolean;
  @Prop({ default: DEFAULT_STORY_SETTINGS.settings_camera_consistency_switch })
  settings_camera_consistency_switch: boolean;
  @Prop({ type: String, enum: PROMPT_SWITCHES, default: DEFAULT_STORY_SETTINGS.settings_camera_style_switch })
  settings_camera_style_switch: PromptSwitch;
  @Prop({ default: '' }) settings_camera_style_prompt_text: string;
  @Prop({ type: String, enum: PIC_SIZES, default: DEFAULT_STORY_SETTINGS.settings_pic_size })
  settings_pic_size: PicSize;

  // The story's pictures (see pictures/); with consistency on, the character sheet every prompt reuses.
  @Prop({ type: [StoryPictureRefSchema], default: [] }) pictures: StoryPictureRef[];
  @Prop({ default: '' }) picture_character_sheet: string;
}

export const StoryStateSchema = SchemaFactory.createForClass(StoryState);

/** Every field of the story state, in one list: archives copy exactly these. */
export const STORY_STATE_FIELDS = [
  'name', 'main_text', 'goal', 'role', 'user', 'hidden_settings', 'author', 'writer', 'history_table',
  'note_table', 'prologue_and_characters', 'play_mode', 'recovery_point', 'recovery_point_id',
  'author_remark', 'previous_summary', 'summarized_chars', 'model_name', 'model_type', 'activity', 'activity_story_index',
  'settings_system_prompt_switch', 'settings_system_prompt_text', 'settings_user_prompt_switch',
  'settings_user_prompt_text', 'settings_camera_switch', 'settings_camera_consistency_switch',
  'settings_camera_style_switch', 'settings_camera_style_prompt_text', 'settings_pic_size', 'pictures',
  'picture_character_sheet',
] as const satisfies readonly (keyof StoryState)[];

/**
 * A story. The text lives here; lists read only the snippet and counter fields (see LIST_PROJECTION).
 * Square counters are kept on the document and moved with atomic `$inc`, never aggregated per request.
 */
@Schema({ collection: 'stories', timestamps: true })
export class Story extends StoryState {
  // A short readable number from the `counters` document; clones point at it in clonedFrom.
  @Prop({ required: true, index: true }) storyNo: number;
  // The owner's id as the hex string the API speaks (matching strings is also far cheaper on the stand-in).
  @Prop({ required: true }) userID: string;

  @Prop({ type: String, enum: ['0', '1'], default: '0' }) permission: StoryPermission;
  @Prop({ default: false }) pinToTop: boolean;
  @Prop({ default: 0 }) level: number;
  @Prop({ type: Number, default: null }) clonedFrom: number | null;
  // References to other stories are hex id strings: the stand-in's file storage keeps only _id as an ObjectId.
  @Prop({ type: String, default: null }) sourceStoryId: string | null;
  @Prop({ type: String, default: null }) rootStoryId: string | null;
  // The sources of this story, nearest first (capped): whom a clone or a turn credits.
  @Prop({ type: [String], default: [] }) lineage: string[];

  // The branch being played (see story-branch.schema.ts): the state above is its. Null: the story's
  // original line (whose id is the story's own).
  @Prop({ type: String, default: null }) branchId: string | null;
  // Bumped by every write of the played branch's content (text, summary, picture references): a
  // switch of branch writes the story only if nothing changed since it read it.
  @Prop({ default: 0 }) stateRev: number;

  // Last change shown in lists and used for "newest first".
  @Prop({ type: Date, required: true }) time: Date;

  // Snippets of the text, kept in step with main_text so lists never load it.
  @Prop({ default: '' }) firstLine: string;
  @Prop({ default: '' }) lastLine: string;
  @Prop({ default: 0 }) charCount: number;
  // Snippets of the public version (archive slot -1), shown in the square.
  @Prop({ default: '' }) publicFirstLine: string;
  @Prop({ default: '' }) publicLastLine: string;
  @Prop({ type: Date, default: null }) publishedAt: Date | null;

  // This story's own play: accepted turns and characters added by them.
  @Prop({ default: 0 }) rounds: number;
  @Prop({ default: 0 }) addedChars: number;
  // Square counters, from the clones of this story (directly or through their clones).
  @Prop({ default: 0 }) unique_user_count: number;
  @Prop({ default: 0 }) penetration_story_total_rounds: number;
  @Prop({ default: 0 }) additional_story_count: number;
  // Credits this story still owes its sources (an accepted turn of a clone, written with its text):
  // taken off once every source counted it (story-spread.service.ts; finished at start-up after a crash).
  @Prop({ type: [Object], default: undefined }) creditsDue?: TurnCredit[];
  // The credits (ids) this story, as a source, counted and whose clone still owes them: what makes counting one again a no-op.
  @Prop({ type: [String], default: undefined }) creditsApplied?: string[];
  // A clone whose player is not counted yet on its sources: the process that made it (see story-spread.service.ts).
  @Prop({ type: String, default: undefined }) playerDue?: string;

  createdAt?: Date;
  updatedAt?: Date;
}

/** One accepted turn of a clone, owed to the square counters of its sources. */
export interface TurnCredit {
  /** `<story id>:<random>`: the key that makes counting it on a source happen once. */
  id: string;
  chars: number;
  /** The process that wrote it (common/instance.ts): repair finishes it once that process is gone. */
  owner: string;
  /** Epoch ms. */
  at: number;
}

export type StoryDocument = HydratedDocument<Story>;
export const StorySchema = SchemaFactory.createForClass(Story);
// My stories and the square: pinned first, then newest.
StorySchema.index({ userID: 1, pinToTop: -1, time: -1, _id: -1 });
StorySchema.index({ permission: 1, pinToTop: -1, time: -1, _id: -1 });
// Who may read a picture file: the stories that reference it.
StorySchema.index({ 'pictures.id': 1 });

/** The only fields a list reads. */
export const LIST_PROJECTION = {
  name: 1, level: 1, clonedFrom: 1, storyNo: 1, time: 1, userID: 1, permission: 1, pinToTop: 1,
  recovery_point: 1, firstLine: 1, lastLine: 1, publicFirstLine: 1, publicLastLine: 1,
  unique_user_count: 1, penetration_story_total_rounds: 1, additional_story_count: 1,
} as const;
