import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { User, UserDocument } from './user.schema';

/** What registering a user writes besides its key (an upsert decides who registers first). */
type NewUser = Omit<Partial<User>, 'points' | 'powerApplied' | 'powerVoided' | 'powerFence'>;

/** The phone fields a verified binding sets. */
export interface VerifiedPhone {
  phone: string;
  phoneCountryCode: string;
  phoneE164: string;
  phoneVerifiedAt: Date;
}

/** What a token check needs of its user. */
export type TokenUserFields = Pick<User, 'userName' | 'tokensValidAfter'>;

/**
 * The `users` collection: accounts, sign-in and phone fields. The balance fields are the power
 * ledger's (see UserBalances). Every write is a single-document (conditional) update.
 */
@Injectable()
export class UserRepository {
  constructor(@InjectModel(User.name) private readonly users: Model<User>) {}

  byId(id: string | Types.ObjectId): Promise<UserDocument | null> {
    if (!Types.ObjectId.isValid(id)) return Promise.resolve(null);
    return this.users.findById(id).exec();
  }

  byNameKey(userNameKey: string): Promise<UserDocument | null> {
    return this.users.findOne({ userNameKey }).exec();
  }

  /** The account a phone login created for this number. */
  byPhoneAccount(phoneE164: string): Promise<UserDocument | null> {
    return this.users.findOne({ phoneE164, registeredBy: 'phone' }).exec();
  }

  /** The user-name account that verified this number (at most one). */
  byVerifiedPhone(phoneE164: string): Promise<UserDocument | null> {
    return this.users.findOne({ phoneE164, registeredBy: 'username', phoneVerified: true }).exec();
  }

  async nameKeyTaken(userNameKey: string): Promise<boolean> {
    return Boolean(await this.users.exists({ userNameKey }));
  }

  /** Whether a user-name account other than `userId` verified this number. */
  async phoneBoundElsewhere(userId: Types.ObjectId, phoneE164: string): Promise<boolean> {
    return Boolean(await this.users.exists({ _id: { $ne: userId }, phoneE164, phoneVerified: true, registeredBy: 'username' }));
  }

  tokenFields(userID: string): Promise<TokenUserFields | null> {
    return this.users.findById(new Types.ObjectId(userID), { userName: 1, tokensValidAfter: 1 }).lean<TokenUserFields>().exec();
  }

  /** Registers `userNameKey` unless it exists (one atomic upsert); answers the user and whether this call created it. */
  registerByName(userNameKey: string, fields: NewUser): Promise<{ user: UserDocument; created: boolean }> {
    return this.upsert({ userNameKey }, { ...fields, userNameKey, points: 0, registeredBy: 'username' });
  }

  /** Registers the phone account of a number unless it exists (one atomic upsert). */
  registerByPhone(phoneE164: string, fields: NewUser): Promise<{ user: UserDocument; created: boolean }> {
    return this.upsert({ phoneE164, registeredBy: 'phone' }, { ...fields, phoneE164, points: 0, registeredBy: 'phone', phoneVerified: true });
  }

  /** Marks the phone verified on a user that has none verified yet; null when it had one. */
  verifyPhone(userId: Types.ObjectId, phone: VerifiedPhone): Promise<UserDocument | null> {
    return this.users.findOneAndUpdate({ _id: userId, phoneVerified: { $ne: true } }, { $set: { ...phone, phoneVerified: true } }, { new: true }).exec();
  }

  /** A new password; tokens issued before `validAfter` stop working. */
  setPassword(userId: Types.ObjectId, passwordHash: string, validAfter: Date): Promise<UserDocument | null> {
    return this.users.findByIdAndUpdate(userId, { $set: { passwordHash, tokensValidAfter: validAfter } }, { new: true }).exec();
  }

  /** The id of the user whose invite code this is. */
  async idByInviteCode(inviteCode: string): Promise<Types.ObjectId | null> {
    const user = await this.users.findOne({ inviteCode }, { _id: 1 }).lean().exec();
    // Re-made: the offline stand-in's file storage hands ObjectIds back as strings.
    return user ? new Types.ObjectId(String(user._id)) : null;
  }

  /** The user's invite code (null: none yet); undefined when there is no such user. */
  async inviteCodeOf(userId: Types.ObjectId): Promise<string | null | undefined> {
    const user = await this.users.findById(userId, { inviteCode: 1 }).lean().exec();
    return user ? (user.inviteCode ?? null) : undefined;
  }

  async inviteCodeTaken(inviteCode: string): Promise<boolean> {
    return Boolean(await this.users.exists({ inviteCode }));
  }

  /** Gives the user this invite code unless it has one already. */
  async setInviteCodeIfNone(userId: Types.ObjectId, inviteCode: string): Promise<void> {
    await this.users.updateOne({ _id: userId, inviteCode: null }, { $set: { inviteCode } }).exec();
  }

  private async upsert(filter: object, insert: Partial<User>): Promise<{ user: UserDocument; created: boolean }> {
    const result = await this.users.findOneAndUpdate(filter, { $setOnInsert: insert }, { upsert: true, new: true, includeResultMetadata: true }).exec();
    return { user: result.value!, created: result.lastErrorObject?.updatedExisting === false };
  }
}
