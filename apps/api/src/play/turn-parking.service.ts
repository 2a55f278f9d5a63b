import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '@taleloom/contracts';
import { randomUUID } from 'node:crypto';
import type { Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import { playedBranchKey } from '../stories/played-branch';
import type { ParkedFields } from './parked-turn.schema';
import { ParkedTurnRepository } from './parked-turn.repository';
import type { PlayTurn } from './play-turn.schema';
import { TurnContextRepository } from './turn-context.repository';
import { TurnRepairService } from './turn-repair.service';
import { turnBranchOf } from './turn-takes';
import { IDLE_TURN, TurnRepository } from './turn.repository';

/** A story's turn held for a change of branch (see TurnParking.hold). */
export interface HeldTurn {
  storyId: Types.ObjectId;
  userID: string;
  lockId: string;
  /** The turn as it was when held (a dead generation closed first). */
  turn: PlayTurn;
  /** The throttle's time before the hold, given back when it ends. */
  lastSendAt: number;
}

/**
 * The turn's side of a change of branch. The pending turn belongs to the branch it was played on
 * (`branchId` on the turn): leaving a branch parks it (parked_turns), coming back brings it back,
 * takes and all. While a change is under way the turn is held: no send, accept or undo touches it.
 */
@Injectable()
export class TurnParking {
  private readonly logger = new Logger('TurnParking');

  constructor(
    private readonly turns: TurnRepository,
    private readonly parked: ParkedTurnRepository,
    private readonly repair: TurnRepairService,
    private readonly contexts: TurnContextRepository,
  ) {}

  /**
   * Holds the story's turn: GENERATION_IN_PROGRESS while a generation runs, BRANCH_SWITCHING while an
   * accept or another change of branch is under way. A generation whose process died is closed first
   * (its power settled or given back), so the turn held is done or failed, never generating.
   */
  async hold(storyId: Types.ObjectId, userID: string): Promise<HeldTurn> {
    // A story from before turn documents existed gets one (a no-op otherwise).
    await this.turns.create(storyId, userID);
    const lockId = randomUUID();
    const before = await this.turns.hold(storyId, userID, lockId, this.repair.staleMs);
    if (!before) {
      const current = await this.turns.find(storyId, userID);
      if (!current) throw new AppException(ErrorCode.STORY_NOT_FOUND);
      throw new AppException(this.repair.isLive(current, Date.now()) ? ErrorCode.GENERATION_IN_PROGRESS : ErrorCode.BRANCH_SWITCHING);
    }
    let turn: PlayTurn = before;
    if (turn.state === 'generating') {
      await this.repair.closeDead(turn);
      turn = (await this.turns.find(storyId, userID)) ?? turn;
    }
    return { storyId, userID, lockId, turn, lastSendAt: Number(before.lastSendAt ?? 0) };
  }

  /** The branch the held turn belongs to. */
  branchOf(held: HeldTurn): string {
    return turnBranchOf(held.turn, held.storyId);
  }

  /**
   * Parks the held turn with its branch; a branch with nothing pending forgets what it had parked
   * (an older turn). Safe to repeat.
   */
  async park(held: HeldTurn): Promise<void> {
    const story = held.storyId.toHexString();
    const branch = this.branchOf(held);
    const t = held.turn;
    if (t.state === 'idle' || t.state === 'generating' || !t.generationId) {
      await this.parked.remove(story, branch, held.userID);
      return;
    }
    const fields: ParkedFields = {
      state: t.state, generationId: t.generationId, role: t.role ?? '', input: t.input ?? '', userText: t.userText ?? '', aiText: t.aiText ?? '',
      reasoning: t.reasoning ?? '', model: t.model ?? '', errorCode: t.errorCode ?? null, cost: t.cost ?? 0, promptTokens: t.promptTokens ?? 0,
      completionTokens: t.completionTokens ?? 0, finishedAt: t.finishedAt ?? null, finalCost: t.finalCost ?? null, takes: t.takes ?? [],
    };
    await this.parked.park(story, branch, held.userID, fields);
  }

  /**
   * Lets go of the turn. With `toBranch`, the turn then belongs to that branch, with the turn it had
   * parked (or none). False when the hold had been lost (it outlived its time and someone took the turn).
   */
  async letGo(held: HeldTurn, toBranch?: string): Promise<boolean> {
    const throttle = { lastSendAt: held.lastSendAt };
    if (toBranch === undefined) return this.turns.letGo(held.storyId, held.lockId, throttle);
    const story = held.storyId.toHexString();
    const parked = await this.parked.find(story, toBranch, held.userID);
    const pending: Partial<PlayTurn> = parked ? { ...IDLE_TURN, ...parked, holdId: null } : { ...IDLE_TURN };
    const done = await this.turns.letGo(held.storyId, held.lockId, { ...pending, ...throttle, branchId: toBranch });
    if (!done) {
      this.logger.warn(`the hold of story ${story}'s turn for a change of branch was lost before it ended`);
      return false;
    }
    // What came back is the turn's now; the parked copy would only be older next time.
    if (parked) await this.parked.remove(story, toBranch, held.userID).catch(() => undefined);
    return true;
  }

  /** Forgets what a deleted branch had parked, and the prompt of its last send (the context inspector's). */
  async drop(storyId: Types.ObjectId, branchId: string, userID: string): Promise<void> {
    await this.parked.remove(storyId.toHexString(), branchId, userID);
    await this.contexts.remove(playedBranchKey({ _id: storyId, branchId }), userID);
  }

  /**
   * Brings the turn to the branch the story plays, when a change of branch stopped half-way (its
   * process died after the story had changed): the turn of the branch left is parked (again) and the
   * played branch's comes back. Nothing when the turn is busy (generating, held): it is left as it is.
   */
  async follow(storyId: Types.ObjectId, userID: string, playedBranch: string): Promise<void> {
    let held: HeldTurn;
    try {
      held = await this.hold(storyId, userID);
    } catch {
      return;
    }
    try {
      if (this.branchOf(held) === playedBranch) {
        await this.letGo(held);
        return;
      }
      await this.park(held);
      await this.letGo(held, playedBranch);
    } catch (error) {
      await this.letGo(held).catch(() => undefined);
      throw error;
    }
  }
}
