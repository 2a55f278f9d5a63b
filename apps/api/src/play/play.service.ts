import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
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
import { isDuplicateKey } from '../common/database-errors';
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
export class PlayService implements OnModuleInit {
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

  /**
   * Every new story gets its turn document at once, so its first send is the same single update as
   * every later one (the claim's upsert still creates one for a story made before this existed).
   */
  onModuleInit(): void {
    this.storiesService.onCreated(async ({ id, userID }) => {
      try {
        await this.turns.create({ _id: toObjectId(id), userID });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    });
  }

  private get staleMs(): number {
    return this.repair.staleMs;
  }

  /**
   * Checks and claims everything, then starts the generation; throws (before anything is streamed)
   * for an unknown story or model, too-fast or concurrent sends and NOT_ENOUGH_POWER. Every round
   * trip here is added to the time to first token, so the work is overlapped:
   *  1. at once: the story read (with the per-user limit), the claim of the story's turn (made with
   *     the story; an upsert for a story older than that) and, for a paid model, the balance and the
   *     hold's ledger entry;
   *  2. a paid model with too little power is refused here, before the provider is called; otherwise
   *     the provider request starts while the hold is taken, and nothing it sends leaves the server
   *     until the hold stands. If the hold fails after all (the balance was spent meanwhile), the
   *     request is aborted, the claim undone and NOT_ENOUGH_POWER answered; nothing is charged.
   * A custom model costs no power (the user's own key pays the provider) but keeps the throttle and
   * the one-at-a-time rule.
   */
  async send(user: AuthUser, id: string, dto: SendTurnDto, language: Language): Promise<Generation> {
    const storyId = toObjectId(id);
    const named = await this.chooser.named(user.userID, dto);
    const now = Date.now();
    const generationId = randomUUID();
    const holdKey = `generation:${generationId}`;
    // The model is known to be paid, or may be (the story's own choice).
    const mayPay = !named || named.model.points > 0;
    const holdIdIfPaid = mayPay ? this.power.holdIdOf(user.userID, holdKey) : '';
    const role = (dto.role ?? '').trim();
    const content = dto.content ?? '';
    // The hold's id is on the turn from the claim on (when the model is known to be paid), so that
    // repair finds it if this process dies at any point after.
    const claim: Partial<PlayTurn> = {
      state: 'generating', generationId, role, input: content, userText: '', aiText: '', reasoning: '',
      errorCode: null, cost: 0, promptTokens: 0, completionTokens: 0, model: named?.model.value ?? '',
      holdId: named && named.model.points > 0 ? holdIdIfPaid : null,
      lastSendAt: now, heartbeatAt: now, finishedAt: null, owner: INSTANCE_TAG, finalCost: null,
    };

    // A model known to be paid: its hold's entry is written alongside the balance read and decided
    // when the balance is known (PowerService.hold), so the hold needs one round trip after this one.
    const paidKnown = named !== null && named.model.points > 0;
    const balanceRead = mayPay ? this.power.balance(user.userID) : Promise.resolve(null);
    let hold: Promise<string> | null = paidKnown
      ? this.power.hold(user.userID, named.model.points, holdKey, { reason: PowerReason.STORY, storyID: id }, { balance: balanceRead })
      : null;
    // Observed below (gate, undo); never an unhandled rejection.
    hold?.catch(() => undefined);
    const [read, taken, balance] = await Promise.allSettled([
      Promise.all([
        this.limits.hit(`generation:user:${user.userID}`, this.config.env.GENERATION_USER_PER_MINUTE, 60, ErrorCode.GENERATION_RATE_LIMITED),
        this.stories.own(user.userID, id),
      ]).then(([, story]) => story),
      this.claim(storyId, user.userID, now, claim),
      balanceRead,
    ]);
    // Everything this send did, undone: the hold given back, the turn as it was.
    const undo = async () => {
      if (hold) await hold.then((h) => this.power.release(h), () => undefined).catch(() => undefined);
      if (taken.status === 'fulfilled' && taken.value) await this.restore(storyId, taken.value.before, generationId);
    };
    let story: PlayStory;
    let chosen: ChosenModel;
    let holdId: string | null = null;
    let claimed: PlayTurn;
    try {
      if (read.status === 'rejected') throw read.reason;
      if (taken.status === 'rejected') throw taken.reason;
      if (!taken.value) await this.refuse(storyId);
      story = read.value;
      chosen = named ?? (await this.chooser.ofStory(user.userID, story));
      if (chosen.model.points > 0) {
        if (balance.status === 'rejected') throw balance.reason;
        // Too little power is answered here, before the provider is called (a started hold voids itself).
        if (!balance.value) throw new AppException(ErrorCode.USER_NOT_FOUND);
        if (balance.value.points < chosen.model.points) throw new AppException(ErrorCode.NOT_ENOUGH_POWER);
        holdId = holdIdIfPaid;
        hold ??= this.power.hold(user.userID, chosen.model.points, holdKey, { reason: PowerReason.STORY, storyID: id, storyName: story.name }, { balance: balance.value });
        hold.catch(() => undefined);
      }
      claimed = taken.value!.before ?? newTurn();
      // The turn replaced a generation whose instance died: its power is settled (whole text stored)
      // or given back, and a whole text counts as a done turn below.
      if (claimed.state === 'generating') {
        const dead = claimed;
        const closed = await this.repair.closeDead(dead).catch(() => ({ state: 'failed' as const }));
        claimed = { ...dead, state: closed.state };
      }
      // Sending while an unaccepted AI part exists accepts it first (a regenerate replaces it instead).
      const earlierUserText = userTextOf(claimed, story);
      if (!dto.regenerate && claimed.state === 'done' && (earlierUserText || claimed.aiText)) {
        const piece = [earlierUserText.trim(), claimed.aiText.trim()].filter(Boolean).join('\n');
        const { text, appended } = await this.stories.append(user.userID, id, piece);
        story.main_text = text;
        await this.storiesService.recordTurn(id, [...appended].length);
        // The accepted passage gets its picture in the background; the new turn does not wait for it.
        void this.pictures.illustrateAccepted(user.userID, id, text, appended);
      }
    } catch (error) {
      await undo();
      throw error;
    }
    const model = chosen.model;

    const userText = formatUserPart(role, content, storyLanguage(story.main_text || story.prologue_and_characters));
    const generation = new Generation(generationId, id);
    this.runner.start({
      ...chosen, generation, story, role, content, userText, holdId, language,
      summarizedChars: claimed.summarizedChars ?? 0,
      // The story's model was not known at the claim: its fields are written once the request is out.
      turnFields: named ? undefined : { model: model.value, holdId },
      // A hold taken before the story was read gets its name (what a settle by repair shows).
      afterFirstToken: hold && paidKnown ? () => void this.power.nameHold(holdIdIfPaid, story.name).catch(() => undefined) : undefined,
      gate: hold ?? undefined,
    });
    if (hold) {
      try {
        await hold;
      } catch (error) {
        // The runner has seen the gate fail and aborted its request: nothing was sent or charged.
        await generation.done;
        await undo();
        throw error;
      }
    }
    return generation;
  }

  // Claims the story's turn for a new generation when the throttle and the one-at-a-time rule allow.
  // An upsert: the first send on a story creates the document. Answers the turn as it was before (null
  // when it was created), or null when the claim is not allowed now (or the turn is someone else's).
  private async claim(storyId: Types.ObjectId, userID: string, now: number, set: Partial<PlayTurn>): Promise<{ before: PlayTurn | null } | null> {
    try {
      // The native driver: this update is on the way to every generation's first token.
      const before = await this.turns.collection.findOneAndUpdate(
        {
          _id: storyId,
          userID,
          lastSendAt: { $lte: now - SEND_THROTTLE_MS },
          $or: [{ state: { $ne: 'generating' } }, { heartbeatAt: { $lt: now - this.staleMs } }],
        },
        { $set: { ...set, updatedAt: new Date(now) }, $setOnInsert: { summarizedChars: 0, createdAt: new Date(now) } },
        { upsert: true, returnDocument: 'before' },
      );
      return { before: before as PlayTurn | null };
    } catch (error) {
      // The document exists but may not be claimed now: the upsert's insert met its _id.
      if (isDuplicateKey(error)) return null;
      throw error;
    }
  }

  // A claim that did not happen: says why (generating, or too soon).
  private async refuse(storyId: Types.ObjectId): Promise<never> {
    const current = await this.turns.findById(storyId).lean().exec();
    if (current) this.assertCanSend(current, Date.now());
    throw new AppException(ErrorCode.SEND_TOO_FAST);
  }

  // Puts a turn back as it was before a claim that must not stand (a turn the claim created goes away).
  private async restore(storyId: Types.ObjectId, before: PlayTurn | null, generationId: string): Promise<void> {
    if (!before) {
      await this.turns.deleteOne({ _id: storyId, generationId }).exec();
      return;
    }
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
    const story = await this.stories.own(user.userID, id);
    const turn = await this.settled(await this.turns.findOne({ _id: toObjectId(id) }).lean().exec());
    if (!turn) return this.view(null, story);
    if (this.isGenerating(turn, Date.now())) throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
    await this.turns.updateOne({ _id: turn._id, generationId: turn.generationId }, { $set: idleTurn() }).exec();
    return this.view(turn, story);
  }

  /** The story's pending turn, as the server keeps it (also while it is still being generated). */
  async pending(user: AuthUser, id: string): Promise<PendingTurnData> {
    const story = await this.stories.own(user.userID, id);
    return this.view(await this.turns.findOne({ _id: toObjectId(id) }).lean().exec(), story);
  }

  // A turn left generating by a dead instance gets its power closed first (done or failed), so
  // accepting or dropping it leaves no hold behind.
  private async settled(turn: PlayTurn | null): Promise<PlayTurn | null> {
    if (!turn || turn.state !== 'generating' || this.isGenerating(turn, Date.now())) return turn;
    const closed = await this.repair.closeDead(turn).catch(() => null);
    return closed ? { ...turn, state: closed.state, cost: closed.cost } : turn;
  }

  private view(turn: PlayTurn | null, story: StoryText): PendingTurnData {
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
      userText: userTextOf(turn, story),
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

type StoryText = Pick<PlayStory, 'main_text' | 'prologue_and_characters'>;

// The user part of a turn: stored with its text, or (a generation whose text was not stored yet, or
// died first) made again from its role and input, as the send that started it made it.
function userTextOf(turn: Pick<PlayTurn, 'state' | 'userText' | 'role' | 'input'>, story: StoryText): string {
  if (turn.userText || turn.state === 'idle') return turn.userText ?? '';
  return formatUserPart(turn.role ?? '', turn.input ?? '', storyLanguage(story.main_text || story.prologue_and_characters));
}

// What a turn the first send created was before: idle, never sent.
function newTurn(): PlayTurn {
  return { state: 'idle', userText: '', aiText: '', summarizedChars: 0, lastSendAt: 0, heartbeatAt: 0 } as PlayTurn;
}

function idleTurn() {
  return { state: 'idle', userText: '', aiText: '', reasoning: '', input: '', errorCode: null, holdId: null };
}
