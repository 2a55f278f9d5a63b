import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { DEFAULT_LORE_SETTINGS, type LoreEntry, type LoreSettings } from '@taleloom/contracts';
import { SchemaTypes, Types } from 'mongoose';

/**
 * A story's lore (`_id` is the story's id): its settings and entries in one document, changed by
 * conditional updates on `version` (read, change, write if nobody wrote in between), so limits hold
 * across API instances without positional updates (the offline stand-in has none). Shared by all the
 * story's branches.
 */
@Schema({ collection: 'story_lore', timestamps: true })
export class StoryLore {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  @Prop({ required: true }) userID: string;
  @Prop({ default: 0 }) version: number;
  @Prop({ type: SchemaTypes.Mixed, default: () => ({ ...DEFAULT_LORE_SETTINGS }) }) settings: LoreSettings;
  @Prop({ type: [SchemaTypes.Mixed], default: [] }) entries: LoreEntry[];
}

export const StoryLoreSchema = SchemaFactory.createForClass(StoryLore);

/**
 * The lore as a save slot or the public version (slot -1) holds it: `_id` is the slot's archive id
 * (derived from story and slot, see stories/archive-slot-id.ts), so a save rewrites one document.
 */
@Schema({ collection: 'story_lore_archives', timestamps: true })
export class StoryLoreArchive {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  @Prop({ required: true }) story_id: string;
  @Prop({ required: true }) archive_index: number;
  @Prop({ type: SchemaTypes.Mixed, default: () => ({ ...DEFAULT_LORE_SETTINGS }) }) settings: LoreSettings;
  @Prop({ type: [SchemaTypes.Mixed], default: [] }) entries: LoreEntry[];
}

export const StoryLoreArchiveSchema = SchemaFactory.createForClass(StoryLoreArchive);
