import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2, OnEvent } from '@nestjs/event-emitter';
import {
  charCount,
  ErrorCode,
  SEND_THROTTLE_MS,
  type AcceptTurnData,
  type AcceptTurnDto,
  type Language,
  type PendingTake,
  type PendingTurnData,
  type PromptContextData,
  type SendTurnDto,
} from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { toObjectId } from '../common/object-id';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { Generation } from '../generation/generation-stream';
import { ModelChooser } from '../generation/model-chooser';
import { LoreService } from '../lore/lore.service';
import { PowerService } from '../power/power.service';
import { StoriesService } from '../stories/stories.service';
import { StoryCreated } from '../stories/story.events';
import { playedBranchId, playedBranchKey } from '../stories/played-branch';
import { knownTextOf, StoryRepository, type KnownText } from '../stories/story.repository';
import { RateLimitService } from '../verification/rate-limit.service';
import type { PlayTurn } from './play-turn.schema';
import { TurnAccepted } from './turn.events';
import { TurnRepairService } from './turn-repair.service';
import { TurnParking } from './turn-parking.service';
import { TurnRunner } from './turn.runner';
import { RunningTurns } from './running-turns';
import { takeIds, takeViews, turnBranchOf } from './turn-takes';
import { TurnSend, type TurnSendDeps } from './turn-send';
import { joinParts, userTextOf, type StoryText } from './turn-text';
import { TurnContextRepository } from './turn-context.repository';
import { TurnRepository } from './turn.repository';

/**
 * The turn lifecycle of a story: send (stream a continuation, see TurnSend), accept, discard (undo),
 * and the pending turn a reopened story shows.
 */
@Injectable()
export class PlayService {
  private readonly logger = new Logger('PlayService');
  private readonly sendDeps: TurnSendDeps;

  constructor(
    private readonly turns: TurnRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    power: PowerService,
    private readonly stories: StoryRepository,
    private readonly storiesService: StoriesService,
    runner: TurnRunner,
    private readonly repair: TurnRepairService,
    private readonly parking: TurnParking,
    limits: RateLimitService,
    chooser: ModelChooser,
    private readonly events: EventEmitter2,
    lore: LoreService,
    private readonly contexts: TurnContextRepository,
    private readonly running: RunningTurns,
  ) {
    this.sendDeps = {
      config, logger: this.logger, turns, stories, power, limits, chooser, repair, lore,
      appendAccepted: (userID, storyId, branchId, piece, wait, known) => this.appendAccepted(userID, storyId, branchId, piece, wait, known),
      start: (send) => runner.start(send),
    };
  }

  /**
   * Every new story gets its turn document at once, so its first send is the same single update as
   * every later one (the claim's upsert still creates one for a story made before this existed).
   */
  @OnEvent(StoryCreated.event, { suppressErrors: false })
  async storyCreated(event: StoryCreated): Promise<void> {
    await this.turns.create(toObjectId(event.id), event.userID);
  }

  /**
   * Streams a continuation (TurnSend: claim, hold, start, settle or undo); throws before anything is
   * streamed for an unknown story or model, too-fast or concurrent sends and NOT_ENOUGH_POWER.
   */
  async send(user: AuthUser, id: string, dto: SendTurnDto, language: Language): Promise<Generation> {
    const generation = await new TurnSend(this.sendDeps, user, id, dto, language).begin();
    // A rejoin that lands on this process follows it from memory (TurnFollow).
    this.running.add(generation, user.userID);
    return generation;
  }

  /**
   * Appends the user part and the (possibly edited) AI part of the take shown to the text and clears
   * the pending turn with all its takes.
   */
  async accept(user: AuthUser, id: string, dto: AcceptTurnDto): Promise<AcceptTurnData> {
    const storyId = toObjectId(id);
    const [found, story] = await Promise.all([this.turns.find(storyId, user.userID), this.stories.forPlay(user.userID, id)]);
    const turn = await this.settled(found);
    if (turn && this.repair.isLive(turn, Date.now())) throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
    const branch = playedBranchId(story);
    // A turn of another branch (a change of branch stopped half-way) is not pending here.
    const pending = turn && turn.state !== 'idle' && turnBranchOf(turn, storyId) === branch ? turn : null;
    // A repeated accept of the same turn (a double click, a retry) appends nothing.
    if (dto.turnId && (!pending || !takeIds(pending).includes(dto.turnId))) return this.unchanged(story);
    let fence: number | null = null;
    if (pending) {
      const mine = this.turns.fence();
      // Cleared while no change of branch holds the turn, and one waits until the text is appended.
      if (await this.turns.clear(storyId, pending.generationId, pending.state, mine)) fence = mine;
      else {
        const now = await this.turns.find(storyId, user.userID);
        if (now && this.turns.isHeld(now, Date.now())) throw new AppException(ErrorCode.BRANCH_SWITCHING);
        // Someone else accepted or replaced it in between.
        if (dto.turnId) return this.unchanged(story);
      }
    }
    try {
      const piece = joinParts(dto.userContent, dto.newContent);
      if (!piece) return this.unchanged(story);
      // With the camera on, the passage's picture is asked for before this answers (drawn in the background).
      const { text, appended } = await this.appendAccepted(user.userID, id, branch, piece, true, knownTextOf(story));
      return { charCount: charCount(text), appended };
    } finally {
      if (fence !== null) await this.turns.unfence(storyId, fence).catch(() => undefined);
    }
  }

  /** Undo: drops the pending turn with all its takes and answers it (its role and input go back into the text area). */
  async discard(user: AuthUser, id: string): Promise<PendingTurnData> {
    const story = await this.stories.forPlay(user.userID, id);
    const storyId = toObjectId(id);
    const turn = await this.settled(await this.turns.find(storyId));
    if (!turn || turnBranchOf(turn, storyId) !== playedBranchId(story)) return this.view(null, story);
    if (this.repair.isLive(turn, Date.now())) throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
    if (!(await this.turns.clear(turn._id, turn.generationId)) && turn.state !== 'idle') {
      const now = await this.turns.find(storyId);
      if (now && this.turns.isHeld(now, Date.now())) throw new AppException(ErrorCode.BRANCH_SWITCHING);
    }
    return this.view(turn, story);
  }

  /**
   * The story's pending turn, as the server keeps it (also while it is still being generated). A turn
   * left on another branch by a change of branch that stopped half-way is brought to the played one first.
   */
  async pending(user: AuthUser, id: string): Promise<PendingTurnData> {
    const story = await this.stories.forPlay(user.userID, id);
    const storyId = toObjectId(id);
    let turn = await this.turns.find(storyId);
    const branch = playedBranchId(story);
    if (turn && turnBranchOf(turn, storyId) !== branch) {
      await this.parking.follow(storyId, user.userID, branch);
      turn = await this.turns.find(storyId);
    }
    return this.view(turn && turnBranchOf(turn, storyId) === branch ? turn : null, story);
  }

  /** The prompt of the pending or last turn of the branch the story plays, part by part (null before its first send there). */
  async context(user: AuthUser, id: string): Promise<PromptContextData | null> {
    const story = await this.stories.forPlay(user.userID, id);
    return this.contexts.latest(playedBranchKey(story), user.userID, story.main_text);
  }

  /**
   * An accepted turn: appended to the story (while it plays branch `branchId`) and counted
   * (StoriesService.appendTurn), then announced (TurnAccepted: pictures illustrate it). `wait`: the
   * answer waits for what listeners start.
   */
  private async appendAccepted(userID: string, storyId: string, branchId: string, piece: string, wait: boolean, known?: KnownText | null): Promise<{ text: string; appended: string; stateRev: number }> {
    const result = await this.storiesService.appendTurn(userID, storyId, piece, branchId, known);
    const event = new TurnAccepted(userID, storyId, branchId, result.text, result.appended);
    if (wait) await this.events.emitAsync(TurnAccepted.event, event);
    else this.events.emit(TurnAccepted.event, event);
    return result;
  }

  private unchanged(story: StoryText): AcceptTurnData {
    return { charCount: charCount(story.main_text), appended: '' };
  }

  // A turn left generating by a dead instance gets its power closed first (done or failed), so
  // accepting or dropping it leaves no hold behind.
  private async settled(turn: PlayTurn | null): Promise<PlayTurn | null> {
    if (!turn || turn.state !== 'generating' || this.repair.isLive(turn, Date.now())) return turn;
    const closed = await this.repair.closeDead(turn).catch(() => null);
    return closed ? { ...turn, state: closed.state, cost: closed.cost } : turn;
  }

  private view(turn: PlayTurn | null, story: StoryText): PendingTurnData {
    const now = Date.now();
    if (!turn) {
      return { state: 'idle', role: '', input: '', userText: '', aiText: '', reasoning: '', model: '', errorCode: null, cost: 0, turnId: null, takes: [], retryAfterMs: 0 };
    }
    const dead = turn.state === 'generating' && !this.repair.isLive(turn, now);
    // A dead turn whose whole text was stored is settled by repair: it shows done, at that cost.
    const whole = dead && typeof turn.finalCost === 'number';
    const state = whole ? 'done' : dead ? 'failed' : turn.state;
    const newest: PendingTake | null =
      state === 'idle' || !turn.generationId
        ? null
        : {
            turnId: turn.generationId,
            state,
            aiText: turn.aiText ?? '',
            reasoning: turn.reasoning ?? '',
            model: turn.model ?? '',
            cost: whole ? turn.finalCost! : (turn.cost ?? 0),
            errorCode: whole ? null : dead ? ErrorCode.PROVIDER_ERROR : (turn.errorCode ?? null),
          };
    return {
      state,
      role: turn.role ?? '',
      input: turn.input ?? '',
      userText: userTextOf(turn, story),
      aiText: turn.aiText ?? '',
      reasoning: turn.reasoning ?? '',
      model: turn.model ?? '',
      errorCode: newest?.errorCode ?? (state === 'idle' ? (turn.errorCode ?? null) : null),
      cost: newest?.cost ?? (turn.cost ?? 0),
      turnId: turn.generationId ?? null,
      takes: state === 'idle' ? [] : takeViews(turn, newest),
      // A change of branch holding the turn pushes the throttle's time ahead: that is the wait, too.
      retryAfterMs: Math.max(0, Number(turn.lastSendAt ?? 0) + (this.turns.isHeld(turn, now) ? 0 : SEND_THROTTLE_MS) - now),
    };
  }
}
