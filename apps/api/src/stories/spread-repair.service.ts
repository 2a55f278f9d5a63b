import { Injectable, Logger } from '@nestjs/common';
import pLimit from 'p-limit';
import { ownerIsGone } from '../common/instance';
import { PeriodicPass } from '../common/periodic-pass';
import { StoryCredits } from './story-credits.repository';
import { StorySpreadService } from './story-spread.service';

const REPAIR_EVERY_MS = 60_000;
// Clones and credits looked at per pass; the next pass takes the rest.
const BATCH = 1000;
// A clone's or credit's steps take milliseconds: left this long by a process not known to be gone, they are taken over.
const TAKEOVER_AFTER_MS = 5 * 60_000;
// Clones and credits finished at once (the start-up pass waits on them before the API serves). Each step
// is repeatable and conditional, as when players clone one story at the same moment.
const FINISHING_AT_ONCE = 16;

export interface SpreadRepairReport {
  players: number;
  credits: number;
  trimmed: number;
}

/**
 * Finishes what a dead process left of a clone or of a turn's credit (StorySpreadService): the
 * clone's player counted on its sources, the turn counted on its sources; then drops credit ids
 * sources keep for credits their clone no longer owes. At start-up (before the API serves), then
 * every minute. Work of a process known to be gone is taken over at once; other work once it is old.
 */
@Injectable()
export class SpreadRepairService extends PeriodicPass<SpreadRepairReport> {
  protected readonly logger = new Logger('SpreadRepair');

  constructor(
    private readonly credits: StoryCredits,
    private readonly spread: StorySpreadService,
  ) {
    super(REPAIR_EVERY_MS);
  }

  protected describe(report: SpreadRepairReport): string | null {
    return report.players + report.credits + report.trimmed > 0 ? `finished the square's counters ${JSON.stringify(report)}` : null;
  }

  protected async pass(): Promise<SpreadRepairReport> {
    const report: SpreadRepairReport = { players: 0, credits: 0, trimmed: 0 };
    const due = await this.credits.spreadDue(BATCH);
    const old = Date.now() - TAKEOVER_AFTER_MS;
    const limit = pLimit(FINISHING_AT_ONCE);
    const work: Promise<void>[] = [];
    for (const clone of due.players) {
      if (!ownerIsGone(clone.playerDue) && new Date(clone.createdAt ?? 0).getTime() > old) continue;
      work.push(
        limit(() =>
          this.run(`the player of clone ${clone._id.toHexString()}`, async () => {
            await this.spread.countPlayer(clone._id, clone.lineage ?? [], clone.userID);
            report.players++;
          }),
        ),
      );
    }
    for (const clone of due.credits) {
      for (const credit of clone.creditsDue ?? []) {
        if (!ownerIsGone(credit.owner) && credit.at > old) continue;
        work.push(
          limit(() =>
            this.run(`credit ${credit.id}`, async () => {
              await this.spread.creditTurn({ storyId: clone._id, userID: clone.userID, lineage: clone.lineage ?? [], due: credit });
              report.credits++;
            }),
          ),
        );
      }
    }
    await Promise.all(work);
    const kept = due.leftovers.flatMap((s) => s.creditsApplied);
    if (kept.length > 0) {
      const owed = await this.credits.stillDue(kept);
      for (const source of due.leftovers) {
        for (const id of source.creditsApplied.filter((c) => !owed.has(c))) {
          await this.run(`credit id ${id}`, async () => {
            await this.credits.forgetCredit([source._id.toHexString()], id);
            report.trimmed++;
          });
        }
      }
    }
    return report;
  }

  // One clone that fails must not stop the others; the next pass tries it again.
  private async run(what: string, step: () => Promise<void>): Promise<void> {
    await step().catch((error: unknown) => this.logger.error(`could not finish ${what}: ${error instanceof Error ? error.message : String(error)}`));
  }
}
