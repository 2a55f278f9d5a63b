import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ErrorCode,
  PowerReason,
  SEND_THROTTLE_MS,
  type AcceptTurnData,
  type AcceptTurnDto,
  type Language,
  type PendingTurnData,
  type SendTurnDto,
} from '@taleloom/contracts';
import { randomUUID } from 'node:crypto';
import { Model, Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { INSTANCE_TAG } from '../common/instance';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PicturesService } from '../pictures/pictures.service';
import { PowerService } from '../power/power.service';
import { StoriesService } from '../stories/stories.service';
import { RateLimitService } from '../verification/rate-limit.service';
import { formatUserPart, storyLanguage } from './context/prompt-builder';
import { Generation } from './generation';
import { GenerationRunner, type ChosenModel } from './generation-runner';
import { ModelChooser } from './model-chooser';
import { PlayStories, toObjectId, type PlayStory } from './play-stories';
import { PlayTurn } from './play-turn.schema';
import { TurnRepairService } from './turn-repair.service';

/**
 * The turn lifecycle of a story: send (stream a continuation), accept, discard (undo), and the
 * pending turn a reopened story shows. Every rule that must hold across API instances (one
 * generation at a time, one send per second) is a conditional update of the story's turn document.
 */
@Injectable()
export class PlayService {
  constructor(
    @InjectModel(PlayTurn.name) private readonly turns: Model<PlayTurn>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly power: PowerService,
    private readonly stories: PlayStories,
    private readonly storiesService: StoriesService,
    private readonly runner: GenerationRunner,
    private readonly repair: TurnRepairService,
    private readonly limits: RateLimitService,
    private readonly pictures: PicturesService,
    private readonly chooser: ModelChooser,
  ) {}

  private get staleMs(): number {
    return this.repair.staleMs;
  }

  /**
   * Checks and claims everything, then starts the generation; throws (before anything is streamed)
   * for an unknown story or model, too-fast or concurrent sends and NOT_ENOUGH_POWER — the provider
   * is not called in those cases. The hot path is short, since every round trip here is added to the
   * time to first token: a free model reads the story and claims the turn at once; a paid one reads
   * the story, the turn and the balance at once, then holds the power and claims the turn at once.
   * A custom model costs no power (the user's own key pays the provider) but keeps the throttle and
   * the one-at-a-time rule.
   */
  async send(user: AuthUser, id: string, dto: SendTurnDto, language: Language): Promise<Generation> {
    const storyId = toObjectId(id);
    const named = await this.chooser.named(user.userID, dto);
    const now = Date.now();
    const generationId = randomUUID();
    const role = (dto.role ?? '').trim();
    const content = dto.content ?? '';
    const claim: Partial<PlayTurn> = {
      state: 'generating', generationId, role, input: content, userText: '', aiText: '', reasoning: '',
      errorCode: null, cost: 0, promptTokens: 0, completionTokens: 0, holdId: null,
      lastSendAt: now, heartbeatAt: now, finishedAt: null, owner: INSTANCE_TAG, finalCost: null,
    };

    let story: PlayStory;
    let chosen: ChosenModel;
    let previous: PlayTurn | null;
    let holdId: string | null = null;
    // The per-user limit is counted alongside the story read, so it adds no round trip.
    const readStory = () =>
      Promise.all([
        this.limits.hit(`generation:user:${user.userID}`, this.config.env.GENERATION_USER_PER_MINUTE, 60, ErrorCode.GENERATION_RATE_LIMITED),
        this.stories.own(user.userID, id),
      ]).then(([, read]) => read);
    if (named && named.model.points === 0) {
      chosen = named;
      const model = chosen.model;
      const [read, claimed] = await Promise.allSettled([
        readStory(),
        this.claim(storyId, user.userID, now, { ...claim, model: model.value }),
      ]);
      if (read.status === 'rejected') {
        if (claimed.status === 'fulfilled' && claimed.value) await this.restore(claimed.value, generationId);
        throw read.reason;
      }
      if (claimed.status === 'rejected') throw claimed.reason;
      story = read.value;
      previous = claimed.value ?? (await this.firstClaim(storyId, user.userID, { ...claim, model: model.value }));
    } else {
      // A model known to be paid: its balance is read alongside (the hold's first step).
      const [read, turn, balance] = await Promise.all([
        readStory(),
        this.turns.findById(storyId).lean().exec(),
        named ? this.power.balance(user.userID) : undefined,
      ]);
      story = read;
      chosen = named ?? (await this.chooser.ofStory(user.userID, story));
      const model = chosen.model;
      if (turn) this.assertCanSend(turn, now);
      const takeTurn = (set: Partial<PlayTurn>) =>
        turn ? this.claim(storyId, user.userID, now, set) : this.firstClaim(storyId, user.userID, set);
      if (model.points > 0) {
        const key = `generation:${generationId}`;
        holdId = this.power.holdIdOf(user.userID, key);
        const spend = { reason: PowerReason.STORY, storyID: id, storyName: story.name };
        // The hold and the claim at once: each is undone when the other fails.
        const [held, taken] = await Promise.allSettled([
          this.power.hold(user.userID, model.points, key, spend, { balance }),
          takeTurn({ ...claim, model: model.value, holdId }),
        ]);
        if (held.status === 'rejected') {
          if (taken.status === 'fulfilled' && taken.value) await this.restore(taken.value, generationId);
          throw held.reason;
        }
        if (taken.status === 'rejected' || !taken.value) {
          await this.power.release(holdId);
          if (taken.status === 'rejected') throw taken.reason;
          return this.refuse(storyId);
        }
        previous = taken.value;
      } else {
        previous = await takeTurn({ ...claim, model: model.value });
        if (!previous) await this.refuse(storyId);
      }
    }
    let claimed = previous!;
    // The turn replaced a generation whose instance died: its power is settled (whole text stored)
    // or given back, and a whole text counts as a done turn below.
    if (claimed.state === 'generating') {
      const dead = claimed;
      const closed = await this.repair.closeDead(dead).catch(() => ({ state: 'failed' as const }));
      claimed = { ...dead, state: closed.state };
    }

    // Sending while an unaccepted AI part exists accepts it first (a regenerate replaces it instead).
    if (!dto.regenerate && claimed.state === 'done' && (claimed.userText || claimed.aiText)) {
      const piece = [claimed.userText.trim(), claimed.aiText.trim()].filter(Boolean).join('\n');
      const { text, appended } = await this.stories.append(user.userID, id, piece);
      story.main_text = text;
      await this.storiesService.recordTurn(id, [...appended].length);
      // The accepted passage gets its picture in the background; the new turn does not wait for it.
      void this.pictures.illustrateAccepted(user.userID, id, text, appended);
    }

    const userText = formatUserPart(role, content, storyLanguage(story.main_text || story.prologue_and_characters));
    // Not awaited: nothing below waits for it, and later writes of the turn touch other fields.
    void this.turns.updateOne({ _id: storyId, generationId }, { $set: { userText } }).exec().catch(() => undefined);
    const generation = new Generation(generationId, id);
    this.runner.start({
      ...chosen, generation, story, role, content, userText, holdId, language,
      summarizedChars: claimed.summarizedChars ?? 0,
    });
    return generation;
  }

  // Claims the story's turn for a new generation when the throttle and the one-at-a-time rule allow;
  // answers the turn as it was before (null: no turn document yet, or not allowed now).
  private claim(storyId: Types.ObjectId, userID: string, now: number, set: Partial<PlayTurn>): Promise<PlayTurn | null> {
    return this.turns
      .findOneAndUpdate(
        {
          _id: storyId,
          userID,
          lastSendAt: { $lte: now - SEND_THROTTLE_MS },
          $or: [{ state: { $ne: 'generating' } }, { heartbeatAt: { $lt: now - this.staleMs } }],
        },
        { $set: set },
        { new: false },
      )
      .lean()
      .exec();
  }

  // The first send on a story creates its turn document already claimed. The insert of a taken _id
  // fails on every store; the offline stand-in's file storage can drop one of many concurrent inserts,
  // so the insert is read back and retried.
  private async firstClaim(storyId: Types.ObjectId, userID: string, set: Partial<PlayTurn>): Promise<PlayTurn> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await this.turns.findById(storyId).lean().exec();
      if (existing) {
        // As if the turn had been idle (what a restore after a failed hold puts back).
        if (existing.generationId === set.generationId) {
          return { ...existing, state: 'idle', userText: '', aiText: '', summarizedChars: 0, lastSendAt: 0, heartbeatAt: 0 };
        }
        return this.refuse(storyId);
      }
      try {
        await this.turns.create({ ...set, _id: storyId, userID });
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
      }
    }
    throw new AppException(ErrorCode.DATABASE_UNAVAILABLE);
  }

  // A claim that did not happen: says why (generating, or too soon).
  private async refuse(storyId: Types.ObjectId): Promise<never> {
    const current = await this.turns.findById(storyId).lean().exec();
    if (current) this.assertCanSend(current, Date.now());
    throw new AppException(ErrorCode.SEND_TOO_FAST);
  }

  // Puts a turn back as it was before a claim that must not stand.
  private async restore(before: PlayTurn, generationId: string): Promise<void> {
    const { _id, ...fields } = before as PlayTurn & { createdAt?: unknown; updatedAt?: unknown };
    delete (fields as { createdAt?: unknown }).createdAt;
    delete (fields as { updatedAt?: unknown }).updatedAt;
    await this.turns.updateOne({ _id, generationId }, { $set: fields }).exec();
  }

  /** Appends the user part and the (possibly edited) AI part to the text and clears the pending turn. */
  async accept(user: AuthUser, id: string, dto: AcceptTurnDto): Promise<AcceptTurnData> {
    const storyId = toObjectId(id);
    const turn = await this.settled(await this.turns.findOne({ _id: storyId, userID: user.userID }).lean().exec());
    if (turn && this.isGenerating(turn, Date.now())) throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
    // A repeated accept of the same turn (a double click, a retry) appends nothing.
    if (dto.turnId && (!turn || turn.generationId !== dto.turnId || turn.state === 'idle')) {
      const story = await this.stories.own(user.userID, id);
      return { charCount: [...story.main_text].length, appended: '' };
    }
    if (turn && turn.state !== 'idle') {
      const cleared = await this.turns
        .updateOne({ _id: storyId, generationId: turn.generationId, state: turn.state }, { $set: idleTurn() })
        .exec();
      // Someone else accepted or replaced it in between.
      if (dto.turnId && cleared.modifiedCount === 0) {
        const story = await this.stories.own(user.userID, id);
        return { charCount: [...story.main_text].length, appended: '' };
      }
    }
    const piece = [dto.userContent.trim(), dto.newContent.trim()].filter(Boolean).join('\n');
    if (!piece) {
      const story = await this.stories.own(user.userID, id);
      return { charCount: [...story.main_text].length, appended: '' };
    }
    const { text, appended } = await this.stories.append(user.userID, id, piece);
    await this.storiesService.recordTurn(id, [...appended].length);
    // With the camera on, the passage's picture is asked for now and drawn in the background.
    await this.pictures.illustrateAccepted(user.userID, id, text, appended);
    return { charCount: [...text].length, appended };
  }

  /** Undo: drops the pending turn and answers it (its role and input go back into the text area). */
  async discard(user: AuthUser, id: string): Promise<PendingTurnData> {
    await this.stories.own(user.userID, id);
    const turn = await this.settled(await this.turns.findOne({ _id: toObjectId(id) }).lean().exec());
    if (!turn) return this.view(null);
    if (this.isGenerating(turn, Date.now())) throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
    await this.turns.updateOne({ _id: turn._id, generationId: turn.generationId }, { $set: idleTurn() }).exec();
    return this.view(turn);
  }

  /** The story's pending turn, as the server keeps it (also while it is still being generated). */
  async pending(user: AuthUser, id: string): Promise<PendingTurnData> {
    await this.stories.own(user.userID, id);
    return this.view(await this.turns.findOne({ _id: toObjectId(id) }).lean().exec());
  }

  // A turn left generating by a dead instance gets its power closed first (done or failed), so
  // accepting or dropping it leaves no hold behind.
  private async settled(turn: PlayTurn | null): Promise<PlayTurn | null> {
    if (!turn || turn.state !== 'generating' || this.isGenerating(turn, Date.now())) return turn;
    const closed = await this.repair.closeDead(turn).catch(() => null);
    return closed ? { ...turn, state: closed.state, cost: closed.cost } : turn;
  }

  private view(turn: PlayTurn | null): PendingTurnData {
    const now = Date.now();
    if (!turn) {
      return { state: 'idle', role: '', input: '', userText: '', aiText: '', reasoning: '', model: '', errorCode: null, cost: 0, turnId: null, retryAfterMs: 0 };
    }
    const dead = turn.state === 'generating' && !this.isGenerating(turn, now);
    // A dead turn whose whole text was stored is settled by repair: it shows done, at that cost.
    const whole = dead && typeof turn.finalCost === 'number';
    return {
      state: whole ? 'done' : dead ? 'failed' : turn.state,
      role: turn.role ?? '',
      input: turn.input ?? '',
      userText: turn.userText ?? '',
      aiText: turn.aiText ?? '',
      reasoning: turn.reasoning ?? '',
      model: turn.model ?? '',
      errorCode: whole ? null : dead ? ErrorCode.PROVIDER_ERROR : (turn.errorCode ?? null),
      cost: whole ? turn.finalCost! : (turn.cost ?? 0),
      turnId: turn.generationId ?? null,
      retryAfterMs: Math.max(0, Number(turn.lastSendAt ?? 0) + SEND_THROTTLE_MS - now),
    };
  }

  private isGenerating(turn: Pick<PlayTurn, 'state' | 'heartbeatAt'>, now: number): boolean {
    return this.repair.isLive(turn, now);
  }

  private assertCanSend(turn: Pick<PlayTurn, 'state' | 'heartbeatAt' | 'lastSendAt'>, now: number): void {
    if (this.isGenerating(turn, now)) throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
    if (Number(turn.lastSendAt ?? 0) > now - SEND_THROTTLE_MS) throw new AppException(ErrorCode.SEND_TOO_FAST);
  }

}

function idleTurn() {
  return { state: 'idle', userText: '', aiText: '', reasoning: '', input: '', errorCode: null, holdId: null };
}
