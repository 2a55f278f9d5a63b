/**
 * What this feature needs from the power ledger: an idempotent credit (a repeated key grants nothing more).
 * Bound to PowerService in users.module.ts.
 */
export abstract class RewardsPort {
  abstract grant(userID: string, amount: number, reason: string, idempotencyKey: string): Promise<unknown>;
}

export const REWARD_REASONS = {
  bindPhone: 'init_points',
  invite: 'invite_user_register',
} as const;
