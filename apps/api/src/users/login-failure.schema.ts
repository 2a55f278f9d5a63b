import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** Wrong passwords in a row for one user name (lower-cased), and the lock they lead to. */
@Schema({ collection: 'loginFailures' })
export class LoginFailure {
  @Prop({ required: true, unique: true })
  key: string;

  @Prop({ default: 0 })
  failures: number;

  @Prop({ type: Date, default: null })
  lastFailureAt: Date | null;

  @Prop({ type: Date, default: null })
  lockedUntil: Date | null;
}

export const LoginFailureSchema = SchemaFactory.createForClass(LoginFailure);
