import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { User } from './user.schema';
import { RewardsPort } from './rewards.port';
import { SerialWrites } from '../verification/serial-writes';

/**
 * Stand-in for the power ledger's grant until it lands: one conditional update that adds the points
 * and remembers the key, so a key credits at most once.
 */
@Injectable()
export class InterimRewards extends RewardsPort {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly serial: SerialWrites,
  ) {
    super();
  }

  async grant(userID: string, amount: number, _reason: string, idempotencyKey: string): Promise<void> {
    await this.serial.run(() =>
      this.users
      .updateOne(
        { _id: new Types.ObjectId(userID), grantKeys: { $ne: idempotencyKey } },
        { $inc: { points: amount }, $push: { grantKeys: idempotencyKey } },
        { strict: false },
      )
      .exec(),
    );
  }
}
