import { Injectable, Logger } from '@nestjs/common';
import { PeriodicPass } from '../common/periodic-pass';
import type { LedgerEntry } from './ledger-entry.schema';
import { LedgerRepository } from './ledger.repository';
import { PowerService } from './power.service';

export interface RepairOptions {
  /** Leave entries younger than this alone: their movement may still be running. */
  pendingGraceMs?: number;
  /** Release holds older than this that were never settled (their generation died with its process). */
  holdMaxAgeMs?: number;
}

export interface RepairReport {
  finished: number;
  voided: number;
  released: number;
}

const PENDING_GRACE_MS = 30_000;
// Longer than any generation may run.
const HOLD_MAX_AGE_MS = 15 * 60_000;
const REPAIR_EVERY_MS = 60_000;
// Entries per pass; the next pass takes the rest.
const BATCH = 5000;

/** Finishes or voids movements left half-done by a crash: at start-up, then every minute. */
@Injectable()
export class LedgerRepairService extends PeriodicPass<RepairReport, RepairOptions> {
  protected readonly logger = new Logger('LedgerRepair');

  constructor(
    private readonly store: LedgerRepository,
    private readonly power: PowerService,
  ) {
    super(REPAIR_EVERY_MS);
  }

  protected describe(report: RepairReport): string | null {
    return report.finished + report.voided + report.released > 0 ? `repaired ${JSON.stringify(report)}` : null;
  }

  protected async pass(options: RepairOptions = {}): Promise<RepairReport> {
    const now = this.power.now().getTime();
    const report: RepairReport = { finished: 0, voided: 0, released: 0 };
    const pendingBefore = now - (options.pendingGraceMs ?? PENDING_GRACE_MS);
    const pending = await this.store.entries
      .find({ state: 'pending', claimedAt: { $lte: pendingBefore } })
      .limit(BATCH)
      .toArray();
    for (const entry of pending) {
      const outcome = await this.finish(entry, pendingBefore).catch((error: unknown) => this.failed(entry, error));
      if (outcome) report[outcome === 'voided' ? 'voided' : 'finished']++;
    }
    // A hold's age counts from its last claim (its creation, unless this pass just took it over).
    const holdsBefore = this.power.now().getTime() - (options.holdMaxAgeMs ?? HOLD_MAX_AGE_MS);
    const open = await this.store.entries
      .find({ kind: 'hold', state: 'applied', closed: { $ne: true }, claimedAt: { $lte: holdsBefore } })
      .limit(BATCH)
      .toArray();
    for (const hold of open) {
      try {
        const close = await this.store.find(LedgerRepository.entryId(hold.userID, 'close', hold._id.toHexString()));
        if (close) await this.power.finishClose(close, null, pendingBefore);
        else {
          await this.power.release(hold._id.toHexString(), pendingBefore);
          report.released++;
        }
      } catch (error) {
        this.failed(hold, error);
      }
    }
    await this.trimLeftovers();
    return report;
  }

  // Ids a crash left on balance documents after their entries were marked.
  private async trimLeftovers(): Promise<void> {
    const users = await this.store.balances.withLeftovers(BATCH);
    for (const user of users) await this.store.trim(user).catch((e: unknown) => this.logger.error(String(e)));
  }

  // One bad entry must not stop the others; the next pass tries it again.
  private failed(entry: LedgerEntry, error: unknown): null {
    this.logger.error(`could not repair ledger entry ${entry._id.toHexString()}: ${String(error)}`);
    return null;
  }

  private async finish(entry: LedgerEntry, takeoverBefore: number): Promise<'applied' | 'voided'> {
    switch (entry.kind) {
      case 'hold':
        // Its caller is gone: keep it only if the balance already moved (then it is released later).
        return this.store.settleEntry(entry, null, { voidIfUnresolved: true, takeoverBefore });
      case 'settle':
      case 'release':
        await this.power.finishClose(entry, null, takeoverBefore);
        return 'applied';
      case 'grant':
      case 'royalty':
        return this.store.settleEntry(entry, null, { takeoverBefore });
    }
  }
}
