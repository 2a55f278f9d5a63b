import { PowerReason } from '@taleloom/contracts';

/**
 * What this feature needs from the power ledger: an idempotent credit (a repeated key grants nothing more).
 * Bound to PowerService (power/power.service.ts) in users.module.ts; tests of this feature can swap it.
 */
export abstract class RewardsPort {
  abstract grant(userID: string, amount: number, reason: string, idempotencyKey: string): Promise<unknown>;
}

export const REWARD_REASONS = {
  bindPhone: PowerReason.INIT_POINTS,
  invite: PowerReason.INVITE_USER_REGISTER,
} as const;
