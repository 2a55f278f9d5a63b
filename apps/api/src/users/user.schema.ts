import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types, type HydratedDocument } from 'mongoose';

export const REGISTERED_BY = ['username', 'phone'] as const;
export type RegisteredBy = (typeof REGISTERED_BY)[number];

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

  // How the account came to be: a user name + password, or a phone login (see the choose-user rule).
  @Prop({ type: String, enum: REGISTERED_BY, default: 'username' })
  registeredBy: RegisteredBy;

  // The verified (or being bound) number in E.164; `phone` keeps the national part for display.
  @Prop({ type: String, default: null, index: true })
  phoneE164: string | null;

  // The user's own stable short invite code, made on first request.
  @Prop({ type: String, default: null, index: { unique: true, partialFilterExpression: { inviteCode: { $type: 'string' } } } })
  inviteCode: string | null;

  // Who invited this user (resolved from the code at registration).
  @Prop({ type: Types.ObjectId, default: null })
  invitedBy: Types.ObjectId | null;

  // Tokens issued before this instant are refused (set when the password changes).
  @Prop({ type: Date, default: null })
  tokensValidAfter: Date | null;

  createdAt?: Date;
  updatedAt?: Date;
}

export type UserDocument = HydratedDocument<User>;
export const UserSchema = SchemaFactory.createForClass(User);
