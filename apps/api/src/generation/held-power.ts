import type { Logger } from '@nestjs/common';
import type { PowerService, RoyaltyRecipient } from '../power/power.service';

/**
 * The end of a paid job's power hold. A job that did its work settles the real cost (with the royalty
 * of the story it ran on); a failed one releases the hold. When that write fails, the hold stays open
 * and the ledger's repair closes it: the job's result is kept and nothing is charged twice.
 */
export class HeldPower {
  constructor(
    private readonly power: PowerService,
    private readonly logger: Logger,
  ) {}

  /** Settles `holdId` at `cost`; answers what was charged (0 when the settle failed). */
  async settle(holdId: string, cost: number, royalty: () => Promise<RoyaltyRecipient | null>, settle?: (royalty: RoyaltyRecipient | undefined) => Promise<{ charged: number }>): Promise<number> {
    try {
      const recipient = (await royalty()) ?? undefined;
      return (await (settle ? settle(recipient) : this.power.settle(holdId, cost, recipient))).charged;
    } catch (error) {
      this.logger.error(`settling hold ${holdId} failed: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  }

  /** Gives the hold back; a failure is logged (the ledger's repair releases it later). */
  async release(holdId: string, release?: () => Promise<unknown>): Promise<void> {
    await (release ? release() : this.power.release(holdId)).catch((e: unknown) => this.logger.error(`releasing hold ${holdId} failed: ${String(e)}`));
  }
}
