import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** Wrong passwords in a row for one user name (lower-cased), and the lock they lead to. */
@Schema({ collection: 'loginFailures' })
export class LoginFailure {
  @Prop({ required: true, unique: true })
  key: string;

  @Prop({ default: 0 })
  failures: number;

  // Epoch milliseconds (the offline stand-in's file storage keeps Dates as strings, which do not compare).
  @Prop({ type: Number, default: null })
  lastFailureAtMs: number | null;

  @Prop({ type: Number, default: null })
  lockedUntilMs: number | null;
}

export const LoginFailureSchema = SchemaFactory.createForClass(LoginFailure);
