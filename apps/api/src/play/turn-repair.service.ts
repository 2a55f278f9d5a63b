import { Inject, Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '@taleloom/contracts';
import { Types } from 'mongoose';
import pLimit from 'p-limit';
import { AppException } from '../common/app-exception';
import { ownerIsGone } from '../common/instance';
import { PeriodicPass } from '../common/periodic-pass';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PowerService } from '../power/power.service';
import { StoryRepository } from '../stories/story.repository';
import type { PlayTurn } from './play-turn.schema';
import { takeOf } from './turn-takes';
import { TurnRepository } from './turn.repository';

const REPAIR_EVERY_MS = 15_000;
/** The key prefix of a send's hold: `generation:<generation id>` (TurnSend.begin). */
export const GENERATION_HOLD = 'generation:';
// Generating turns looked at per pass (there are as many as generations running at once).
const BATCH = 1000;
// Turns and holds closed at once. Each close is a few round trips to the database, one after the
// other; after a crash under load (hundreds of streams) the start-up pass waits on them before the API
// serves, so they overlap. Closes of different turns (even one user's) are safe together, as
// concurrent sends are: every step is a conditional single-document update.
const CLOSING_AT_ONCE = 16;

export type DeadTurn = Pick<PlayTurn, '_id' | 'userID' | 'generationId' | 'holdId' | 'finalCost' | 'state'>;

/**
 * Generations whose process died (a crash, a kill, a lost machine) leave a turn in `generating` with
 * its power held. This finds them — at once after a restart on the same host (the turn names its
 * process), else when their heartbeat is old — and closes them: a turn whose whole text was stored
 * (`finalCost` set) is settled and shown done; any other is released (nothing charged) and shown
 * failed with the text it had. At start-up, then every 15 seconds.
 */
@Injectable()
export class TurnRepairService extends PeriodicPass<number> {
  protected readonly logger = new Logger('TurnRepair');

  constructor(
    private readonly turns: TurnRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly power: PowerService,
    private readonly stories: StoryRepository,
  ) {
    super(REPAIR_EVERY_MS);
  }

  /** A generating turn with no heartbeat for this long is taken to be dead (its instance stopped). */
  get staleMs(): number {
    return this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000 + 30_000;
  }

  /** Generating and alive as far as anyone can tell from its heartbeat. */
  isLive(turn: Pick<PlayTurn, 'state' | 'heartbeatAt'>, now: number): boolean {
    return turn.state === 'generating' && Number(turn.heartbeatAt ?? 0) >= now - this.staleMs;
  }

  protected describe(closed: number): string | null {
    return closed > 0 ? `closed ${closed} generation(s) or hold(s) whose process had died` : null;
  }

  /** One pass: answers how many turns it closed. */
  protected async pass(): Promise<number> {
    const now = Date.now();
    const generating = await this.turns.generating(BATCH);
    const limit = pLimit(CLOSING_AT_ONCE);
    const closes = generating
      .filter((turn) => !this.isLive(turn, now) || ownerIsGone(turn.owner))
      .map((turn) =>
        limit(async () => {
          try {
            await this.closeDead(turn);
            return 1;
          } catch (error) {
            // The next pass tries again.
            this.logger.error(`could not close dead turn ${turn._id.toHexString()}: ${error instanceof Error ? error.message : String(error)}`);
            return 0;
          }
        }),
      );
    const closed = (await Promise.all(closes)).reduce((sum: number, n) => sum + n, 0);
    return closed + (await this.releaseStray(now, limit));
  }

  /**
   * Holds of generations that no turn runs: taken beside a claim that never landed, or left by an
   * undo, a failed settle or a release its process did not live to write. Each names its generation
   * (its key) and its story; one whose turn does not run that generation is released once its taker
   * is known to be gone, or when it is older than a generation may go without a heartbeat.
   */
  private async releaseStray(now: number, limit: ReturnType<typeof pLimit>): Promise<number> {
    const holds = (await this.power.openHolds(BATCH)).filter(
      (hold) => hold.key.startsWith(GENERATION_HOLD) && (ownerIsGone(hold.owner) || Number(hold.claimedAt ?? 0) <= now - this.staleMs),
    );
    const released = await Promise.all(
      holds.map((hold) =>
        limit(async () => {
          const storyId = hold.storyInfo?.storyID;
          const turn = storyId && Types.ObjectId.isValid(storyId) ? await this.turns.find(new Types.ObjectId(storyId)) : null;
          if (turn?.state === 'generating' && `${GENERATION_HOLD}${turn.generationId}` === hold.key) return 0;
          try {
            await this.power.closeStray(hold, Date.now());
            return 1;
          } catch (error) {
            this.logger.error(`could not release stray hold ${hold._id.toHexString()}: ${error instanceof Error ? error.message : String(error)}`);
            return 0;
          }
        }),
      ),
    );
    return released.reduce((sum: number, n) => sum + n, 0);
  }

  /**
   * Closes the money of a dead generation and records the outcome on its turn (only if the turn still
   * belongs to that generation). Safe to repeat: a hold is closed once, by a settle or a release.
   */
  async closeDead(turn: DeadTurn): Promise<{ state: 'done' | 'failed'; cost: number }> {
    const complete = typeof turn.finalCost === 'number';
    // That process is dead: whatever it left half-done in the ledger is taken over now.
    const takeoverBefore = Date.now();
    let cost = 0;
    try {
      if (turn.holdId && complete) {
        const story = await this.stories.forPlay(turn.userID, turn._id.toHexString()).catch(() => null);
        const royalty = story ? await this.stories.royaltyRecipient(story) : null;
        cost = (await this.power.settle(turn.holdId, turn.finalCost!, royalty ?? undefined, takeoverBefore)).charged;
      } else if (turn.holdId) {
        await this.power.release(turn.holdId, takeoverBefore);
      }
    } catch (error) {
      // A hold that never took (its process died while taking it) has nothing to settle or give back.
      if (!(error instanceof AppException && error.code === ErrorCode.NOT_FOUND)) throw error;
    }
    const now = Date.now();
    // A whole text becomes one of the turn's takes, as a generation that ends well adds itself.
    const stored = complete ? await this.turns.find(turn._id) : null;
    const take = stored && stored.generationId === turn.generationId ? takeOf({ ...stored, finishedAt: now }, cost) : null;
    await this.turns.closeGenerating(
      turn._id,
      turn.generationId,
      complete ? { state: 'done', cost, finishedAt: now } : { state: 'failed', errorCode: ErrorCode.PROVIDER_ERROR, cost: 0, finishedAt: now },
      take,
    );
    return { state: complete ? 'done' : 'failed', cost };
  }
}
