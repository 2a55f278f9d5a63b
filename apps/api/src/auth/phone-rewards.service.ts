import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { FIRST_PHONE_BIND_POWER, INVITE_REWARD_POWER } from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { Clock } from '../verification/clock';
import { PhoneReward } from './phone-reward.schema';
import { REWARD_REASONS, RewardsPort } from './rewards.port';
import { isDuplicateKey } from '../common/database-errors';

/**
 * The two phone rewards. First binding: 100000 to the user, once per user and once per phone number.
 * Invitation: 100000 to the inviter when the invitee verifies a phone, once per invitee and once per
 * phone number ever. "Once per phone" is a claim document per (reward, number); "once per user" is the
 * ledger's idempotency key. No transactions: a crash after the claim is healed by calling again, since
 * the claim remembers its owner and the grant is idempotent.
 */
@Injectable()
export class PhoneRewardsService {
  private readonly logger = new Logger('PhoneRewards');

  constructor(
    @InjectModel(PhoneReward.name) private readonly claims: Model<PhoneReward>,
    private readonly rewards: RewardsPort,
    private readonly clock: Clock,
  ) {}

  /** Called after a phone became verified on `userID`. */
  async onPhoneVerified(userID: Types.ObjectId, phoneE164: string, invitedBy: Types.ObjectId | null): Promise<void> {
    const id = userID.toHexString();
    if (await this.claim(`${REWARD_REASONS.bindPhone}:${phoneE164}`, userID)) {
      await this.rewards.grant(id, FIRST_PHONE_BIND_POWER, REWARD_REASONS.bindPhone, `${REWARD_REASONS.bindPhone}:${id}`);
    }
    if (invitedBy && String(invitedBy) !== id) {
      if (await this.claim(`${REWARD_REASONS.invite}:${phoneE164}`, userID)) {
        await this.rewards.grant(
          String(invitedBy),
          INVITE_REWARD_POWER,
          REWARD_REASONS.invite,
          `${REWARD_REASONS.invite}:${id}`,
        );
      } else {
        this.logger.log(`invite reward for ${id} not granted: the number already triggered one`);
      }
    }
  }

  /** True when `userID` owns the claim `key` (it just took it, or took it before). */
  async claim(key: string, userID: Types.ObjectId): Promise<boolean> {
    try {
      await this.claims.updateOne({ key }, { $setOnInsert: { key, claimedBy: null } }, { upsert: true }).exec();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const taken = await this.claims
      .findOneAndUpdate({ key, claimedBy: null }, { $set: { claimedBy: userID, claimedAt: this.clock.now() } }, { new: true })
      .lean()
      .exec();
    if (taken) return true;
    const current = await this.claims.findOne({ key }, { claimedBy: 1 }).lean().exec();
    // Compared as text: the offline stand-in's file storage hands ObjectIds back as strings.
    return current?.claimedBy != null && String(current.claimedBy) === userID.toHexString();
  }
}
