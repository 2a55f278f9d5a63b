import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { CustomModelType } from '@taleloom/contracts';
import { Types } from 'mongoose';

/** One custom model. The key is only ever stored encrypted; its masked tail is kept for display. */
@Schema({ _id: false })
export class CustomModelEntry {
  @Prop({ required: true }) model_name: string;
  // The name compared without regard to case (customModelNameKey).
  @Prop({ required: true }) name_key: string;
  @Prop({ required: true }) base_url: string;
  @Prop({ type: String, required: true }) model_type: CustomModelType;
  @Prop({ default: false }) enable_reasoning: boolean;
  // AES-256-GCM, `v1.<iv>.<tag>.<ciphertext>`, with the owner's id as authenticated data (key-cipher.ts).
  @Prop({ required: true }) api_key_cipher: string;
  @Prop({ required: true }) api_key_masked: string;
  // Epoch milliseconds.
  @Prop({ required: true }) created_at: number;
  @Prop({ required: true }) updated_at: number;
}

export const CustomModelEntrySchema = SchemaFactory.createForClass(CustomModelEntry);

/**
 * All custom models of one user in one document (`_id` is the user's id as an ObjectId). The limit of three and
 * the unique names are rules over the whole list, so every change is one conditional update of this
 * document on its `version` (optimistic concurrency): no unique index or transaction is relied on.
 */
@Schema({ collection: 'custom_models' })
export class CustomModelSet {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  @Prop({ default: 0 }) version: number;
  @Prop({ type: [CustomModelEntrySchema], default: [] }) models: CustomModelEntry[];
  // A token of the last write: tells which of two racing first inserts stood.
  @Prop({ type: String, default: null }) op: string | null;
}

export const CustomModelSetSchema = SchemaFactory.createForClass(CustomModelSet);
