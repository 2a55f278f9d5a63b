import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';

@Schema({ collection: 'users', timestamps: true })
export class User {
  @Prop({ required: true })
  userName: string;

  // Lower-cased name: names are unique without regard to case.
  @Prop({ required: true, unique: true })
  userNameKey: string;

  @Prop()
  passwordHash?: string;

  // The balance of power; only the power ledger moves it.
  @Prop({ required: true, default: 0, min: 0 })
  points: number;

  // Ledger bookkeeping beside the balance (see power/power.service.ts): ids of ledger entries decided
  // on this balance but not yet marked, and a fence bumped when one movement is taken over by another.
  @Prop({ type: [String], default: undefined, select: false })
  powerApplied?: string[];

  @Prop({ type: [String], default: undefined, select: false })
  powerVoided?: string[];

  @Prop({ type: Number, default: undefined, select: false })
  powerFence?: number;

  @Prop({ type: String, default: null })
  phone: string | null;

  @Prop({ type: String, default: null })
  phoneCountryCode: string | null;

  @Prop({ default: false })
  phoneVerified: boolean;

  @Prop({ type: Date, default: null })
  phoneVerifiedAt: Date | null;

  @Prop({ type: String, default: null })
  invitedByCode: string | null;

  // Tokens issued before this instant are refused (set when the password changes).
  @Prop({ type: Date, default: null })
  tokensValidAfter: Date | null;

  createdAt?: Date;
  updatedAt?: Date;
}

export type UserDocument = HydratedDocument<User>;
export const UserSchema = SchemaFactory.createForClass(User);
