import type { Logger } from '@nestjs/common';
import { ErrorCode, PowerReason, TAKES_PER_TURN_MAX, type Language, type SendTurnDto } from '@taleloom/contracts';
import { randomUUID } from 'node:crypto';
import type { Types } from 'mongoose';
import { AppException, httpStatusOf } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { errorMessage } from '../common/error-messages';
import { INSTANCE_TAG } from '../common/instance';
import { toObjectId } from '../common/object-id';
import { storyLanguage } from '../common/story-language';
import type { AppConfig } from '../config/app-config';
import { Generation } from '../generation/generation-stream';
import { HeldPower } from '../generation/held-power';
import type { ChosenModel, ModelChooser } from '../generation/model-chooser';
import { persist } from '../generation/persist';
import type { CompiledLore } from '../lore/lore-activation';
import type { LoreService } from '../lore/lore.service';
import type { PowerService } from '../power/power.service';
import { playedBranchId } from '../stories/played-branch';
import { knownTextOf, type KnownText, type StoryForPlay, type StoryRepository } from '../stories/story.repository';
import type { CountedHit, RateLimitService } from '../verification/rate-limit.service';
import { formatUserPart } from './context/prompt-builder';
import type { PlayTurn } from './play-turn.schema';
import { joinParts, userTextOf } from './turn-text';
import { newestNotKept, takeIds, takeOf, turnBranchOf } from './turn-takes';
import { GENERATION_HOLD, type TurnRepairService } from './turn-repair.service';
import type { TurnRepository } from './turn.repository';

/** What play reads of a story for a turn: the stored fields, the open targets the task modes steer toward, and its lore. */
export type PlayStory = StoryForPlay & { open_targets?: { title: string; type: 'reality' | 'emotion' }[]; lore?: CompiledLore | null };

/** What a finished stream produced. */
export interface TurnOutput {
  aiText: string;
  reasoning: string;
  promptTokens: number;
  completionTokens: number;
}

/** What a send needs around it (given by PlayService, the factory of sends). */
export interface TurnSendDeps {
  config: AppConfig;
  logger: Logger;
  turns: TurnRepository;
  stories: StoryRepository;
  power: PowerService;
  limits: RateLimitService;
  chooser: ModelChooser;
  repair: TurnRepairService;
  lore: LoreService;
  /** Appends an accepted turn to branch `branchId` of the story and announces it (see PlayService.appendAccepted). */
  appendAccepted(userID: string, storyId: string, branchId: string, piece: string, wait: boolean, known?: KnownText | null): Promise<{ text: string; appended: string; stateRev: number }>;
  /** Runs the generation in the background (TurnRunner.start). */
  start(send: TurnSend): void;
}

/**
 * One send of a turn, from the claim of the story's turn to its settlement or undo:
 *   claim -> hold -> start -> settle (the whole text stored first) | fail (the hold released) | undo.
 * Every round trip before the provider call is added to the time to first token, so `begin` overlaps
 * them: at once, the story read (with the per-user limit), the claim of the story's turn (made with the
 * story; an upsert for a story older than that) and, for a paid model, the balance and the hold's ledger
 * entry. No provider request goes out before every check passed, the hold included: a paid model with
 * too little power, or whose hold fails (the balance was spent meanwhile), is refused, the claim undone
 * and nothing charged, and its provider never asked. A custom model costs no power (the user's own key
 * pays the provider) but keeps the throttle and the one-at-a-time rule.
 */
export class TurnSend {
  readonly generation: Generation;
  readonly storyId: Types.ObjectId;
  readonly role: string;
  readonly content: string;
  chosen!: ChosenModel;
  /** The user part as it goes into the text (formatted in the story's language). */
  userText = '';
  /** The power held for this turn (null: a free model). */
  holdId: string | null = null;
  summarizedChars = 0;
  /** What this send accepted into the story before its turn (the `user` event tells the client). */
  accepted = '';
  /** The story's lore, read beside the claim (null: none, or it could not be read: the turn goes on without). */
  lore: Promise<CompiledLore | null> = Promise.resolve(null);
  private hold: Promise<string> | null = null;
  // A take from before takes were kept, being kept (see begin).
  private keeping: Promise<void> = Promise.resolve();
  private holdName: (() => void) | null = null;
  private turnFields: Partial<PlayTurn> | null = null;
  private readonly held$: HeldPower;
  // The story as read for the prompt, until the request is out (released); then only whom a settle
  // credits and the name it shows: an open stream holds no story text.
  private playStory: PlayStory | null = null;
  private credit: Pick<PlayStory, 'userID' | 'lineage' | 'name'> | null = null;

  constructor(
    private readonly deps: TurnSendDeps,
    private readonly user: AuthUser,
    private readonly id: string,
    private readonly dto: SendTurnDto,
    readonly language: Language,
  ) {
    this.storyId = toObjectId(id);
    // A turn's events carry their position: a client that lost the connection rejoins from it (TurnFollow).
    this.generation = new Generation(randomUUID(), id, true);
    ({ role: this.role, content: this.content } = turnOf(dto));
    this.held$ = new HeldPower(deps.power, deps.logger);
  }

  /** Checks and claims everything, then starts the generation; throws (before anything is streamed) on a refusal. */
  async begin(): Promise<Generation> {
    const { deps, user, id, dto, storyId } = this;
    const generationId = this.generation.id;
    const named = await deps.chooser.named(user.userID, dto);
    const now = Date.now();
    const holdKey = `${GENERATION_HOLD}${generationId}`;
    // The model is known to be paid, or may be (the story's own choice).
    const mayPay = !named || named.model.points > 0;
    const holdIdIfPaid = mayPay ? deps.power.holdIdOf(user.userID, holdKey) : '';
    const paidKnown = named !== null && named.model.points > 0;
    // The hold's id (derived from the generation's id) is on the turn from the claim on, whenever the
    // model may be paid: a process that dies at any point after the claim leaves a turn that names its
    // hold, and repair gives it back (a hold never taken: nothing to do). A hold whose claim never
    // landed (taken beside it, or the claim refused and undone) names its generation and its process:
    // repair releases it once that process is gone (TurnRepairService.releaseStray).
    const claim: Partial<PlayTurn> = {
      state: 'generating', generationId, role: this.role, input: this.content, userText: '', aiText: '', reasoning: '',
      errorCode: null, cost: 0, promptTokens: 0, completionTokens: 0, model: named?.model.value ?? '',
      holdId: mayPay ? holdIdIfPaid : null,
      lastSendAt: now, heartbeatAt: now, finishedAt: null, owner: INSTANCE_TAG, finalCost: null,
      // A regenerate adds a take beside the turn's earlier ones; any other send starts a new turn.
      ...(dto.regenerate ? {} : { takes: [] }),
    };

    // A model known to be paid: its hold's entry is written alongside the balance read and decided
    // when the balance is known (PowerService.hold), so the hold needs one round trip after this one.
    const balanceRead = mayPay ? deps.power.balance(user.userID) : Promise.resolve(null);
    if (paidKnown) this.takeHold(named.model.points, holdKey, { balance: balanceRead });
    // The per-minute generation limit counts generations: a send refused (402, 409) gives its hit back.
    let counted: CountedHit | null = null;
    const batch = Promise.allSettled([
      Promise.all([
        deps.limits.hit(`generation:user:${user.userID}`, deps.config.env.GENERATION_USER_PER_MINUTE, 60, ErrorCode.GENERATION_RATE_LIMITED).then((hit) => (counted = hit)),
        deps.stories.forPlay(user.userID, id),
      ]).then(([, story]) => story),
      deps.turns.claim(storyId, user.userID, now, deps.repair.staleMs, claim, Boolean(dto.regenerate)),
      balanceRead,
    ]);
    // The lore is read beside these, after them (a cached lore costs one small read); it is used only once
    // the story is known to be the user's, and a failure leaves the turn without lore.
    this.lore = deps.lore.forPrompt(storyId).catch((error: unknown) => {
      deps.logger.warn(`reading the lore of story ${id}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    });
    const [read, taken, balance] = await batch;
    const before = taken.status === 'fulfilled' && taken.value ? taken.value : null;
    let claimed: PlayTurn;
    try {
      if (read.status === 'rejected') throw read.reason;
      if (taken.status === 'rejected') throw taken.reason;
      if (!taken.value) await this.refuse();
      this.playStory = read.value;
      // The turn belongs to another branch than the one the story plays: a change of branch stopped
      // half-way (its process died). Reading the pending turn (GET /pending) brings it to this branch.
      if (turnBranchOf(taken.value?.before ?? { branchId: null }, storyId) !== playedBranchId(this.story)) throw new AppException(ErrorCode.BRANCH_SWITCHING);
      this.chosen = named ?? (await deps.chooser.ofStory(user.userID, this.story));
      if (this.chosen.model.points > 0) {
        if (balance.status === 'rejected') throw balance.reason;
        // Too little power is answered here, before the provider is called (a started hold voids itself).
        if (!balance.value) throw new AppException(ErrorCode.USER_NOT_FOUND);
        if (balance.value.points < this.chosen.model.points) throw new AppException(ErrorCode.NOT_ENOUGH_POWER);
        this.holdId = holdIdIfPaid;
        if (!this.hold) this.takeHold(this.chosen.model.points, holdKey, { balance: balance.value }, this.story.name);
      }
      claimed = before!.before ?? newTurn();
      // The turn replaced a generation whose instance died: its power is settled (whole text stored)
      // or given back, and a whole text counts as a done turn below.
      if (claimed.state === 'generating') {
        const dead = claimed;
        const closed = await deps.repair.closeDead(dead).catch(() => ({ state: 'failed' as const }));
        claimed = { ...dead, state: closed.state };
      }
      await this.acceptPending(claimed);
      // The hold is a check too: the provider is asked only once it stands.
      if (this.hold) await this.hold;
    } catch (error) {
      await this.undo(before);
      await giveBackIfRefused(counted, error);
      throw error;
    }
    // Where the summary's coverage ends moved to the story (it goes with the branch); older stories have it on the turn.
    this.summarizedChars = this.story.summarized_chars ?? claimed.summarizedChars ?? 0;
    // A turn from before takes were kept: its newest take is kept now, before this one joins it.
    // Off the way to the first token; the turn's last write waits for it (the earlier take stays first).
    if (this.dto.regenerate && newestNotKept(claimed)) {
      const earlier = takeOf(claimed);
      this.keeping = new Promise<void>((kept) => setImmediate(kept)).then(() => deps.turns.keepTake(storyId, generationId, earlier)).catch(() => undefined);
    }
    this.userText = formatUserPart(this.role, this.content, storyLanguage(this.story.main_text || this.story.prologue_and_characters));
    // The story's model was not known at the claim: its fields are written once the request is out.
    if (!named) this.turnFields = { model: this.chosen.model.value, holdId: this.holdId };
    // A hold taken before the story was read gets its name (what a settle by repair shows).
    if (this.hold && paidKnown) {
      const name = this.story.name;
      this.holdName = () => void deps.power.nameHold(holdIdIfPaid, name).catch(() => undefined);
    }
    deps.start(this);
    return this.generation;
  }

  /** The story as read for this send (its texts: only until the request is out, see `released`). */
  get story(): PlayStory {
    if (!this.playStory) throw new Error(`the story of generation ${this.generation.id} was let go of once its request was out`);
    return this.playStory;
  }

  /** The prompt was made and sent: the story's texts are let go of (settle needs only whom it credits). */
  released(): void {
    const { userID, lineage, name } = this.story;
    this.credit = { userID, lineage, name };
    this.playStory = null;
  }

  /**
   * Resolves once the power hold stands (at once for a free model); when it failed, answers the error
   * to end the generation with. The runner waits for it before anything the provider sent leaves the
   * server (before a summary fold, and before relaying the stream).
   */
  async held(): Promise<AppException | null> {
    if (!this.hold) return null;
    try {
      await this.hold;
      return null;
    } catch (error) {
      return error instanceof AppException ? error : new AppException(ErrorCode.INTERNAL_ERROR);
    }
  }

  /** The provider request is on its way: writes what the claim could not know yet (off the path to the first token). */
  requestSent(): void {
    const fields = this.turnFields;
    if (fields) setImmediate(() => void this.write(fields).catch(() => undefined));
  }

  /** The first token was relayed: work that would otherwise have delayed it. */
  firstToken(): void {
    if (this.holdName) setImmediate(this.holdName);
  }

  /** The generation's writes on its turn (matched on its id: a turn another send took over is left alone). */
  write(set: Partial<PlayTurn>): Promise<void> {
    return this.deps.turns.write(this.storyId, this.generation.id, set);
  }

  /** The text so far (the runner's per-second flush; see TurnRepository.writeText). */
  writeText(text: Pick<PlayTurn, 'userText' | 'aiText' | 'reasoning' | 'heartbeatAt'>): Promise<void> {
    return this.deps.turns.writeText(this.storyId, this.generation.id, text);
  }

  /**
   * The stream ended well: the whole text is stored before any power moves (if this process dies from
   * here on, repair settles `finalCost` and the turn shows the whole text; it never charges for text it
   * lost), then the real cost is settled once, with the royalty; then the turn is done.
   */
  async settle(output: TurnOutput, cost: number): Promise<void> {
    const { deps, generation: g } = this;
    const stored = { userText: this.userText, ...output, finalCost: cost };
    const log = deps.logger;
    if (!this.holdId) {
      // No power moves: the text, the end of the turn and its take are one write.
      const finishedAt = Date.now();
      await persist(log, `storing generation ${g.id}`, () =>
        this.finish({ ...stored, state: 'done', cost: 0, finishedAt, heartbeatAt: finishedAt }, this.take(output, 0, finishedAt)),
      );
      this.end(output, 0);
      return;
    }
    await persist(log, `storing generation ${g.id}`, () => this.write({ ...stored, heartbeatAt: Date.now() }));
    const holdId = this.holdId;
    const story = this.credit ?? this.story;
    // A failed settle leaves the turn done with nothing charged; the ledger's repair releases the hold.
    const charged = await this.held$.settle(
      holdId,
      cost,
      () => persist(log, `reading the royalty of ${g.id}`, () => deps.stories.royaltyRecipient(story)),
      // A retry takes over at once what the attempt before it left half-done.
      (royalty) => persist(log, `settling hold ${holdId}`, (retry) => deps.power.settle(holdId, cost, royalty, retry ? Date.now() : undefined, story.name)),
    );
    const finishedAt = Date.now();
    await persist(log, `finishing generation ${g.id}`, () =>
      this.finish({ state: 'done', cost: charged, finishedAt, heartbeatAt: finishedAt }, this.take(output, charged, finishedAt)),
    );
    this.end(output, charged);
  }

  /** The stream failed: the hold is given back, the partial text kept, and the error event says why. */
  async fail(aiText: string, reasoning: string, code: ErrorCode): Promise<void> {
    const { deps, generation: g } = this;
    const holdId = this.holdId;
    // Left open when this fails too: repair releases it (the turn has no finalCost).
    if (holdId) await this.held$.release(holdId, () => persist(deps.logger, `releasing hold ${holdId}`, (retry) => deps.power.release(holdId, retry ? Date.now() : undefined)));
    await persist(deps.logger, `storing failed generation ${g.id}`, () =>
      this.finish({ state: 'failed', userText: this.userText, aiText, reasoning, errorCode: code, cost: 0, finishedAt: Date.now(), heartbeatAt: Date.now() }, null),
    ).catch(() => undefined);
    g.emit({ type: 'error', code, message: errorMessage(code, this.language) });
  }

  // The last write: the outcome, and a done take joins the turn's takes (once: only while generating).
  private async finish(set: Partial<PlayTurn>, take: ReturnType<typeof takeOf> | null): Promise<void> {
    await this.keeping;
    return this.deps.turns.finish(this.storyId, this.generation.id, set, take);
  }

  private take(output: TurnOutput, cost: number, finishedAt: number): ReturnType<typeof takeOf> {
    return takeOf({ generationId: this.generation.id, ...output, model: this.chosen.model.value, cost, finishedAt });
  }

  // The turn is done and stored: the client is told.
  private end(output: TurnOutput, cost: number): void {
    this.generation.emit({ type: 'usage', promptTokens: output.promptTokens, completionTokens: output.completionTokens, cost });
    this.generation.emit({ type: 'done', turnId: this.generation.id });
  }

  // Starts the hold (PowerService.hold decides it when the balance is known); observed by `held` and `undo`.
  private takeHold(points: number, key: string, options: Parameters<PowerService['hold']>[4], storyName?: string): void {
    const spend = { reason: PowerReason.STORY, storyID: this.id, ...(storyName === undefined ? {} : { storyName }) };
    this.hold = this.deps.power.hold(this.user.userID, points, key, spend, options);
    // Observed in `held` and `undo`; never an unhandled rejection.
    this.hold.catch(() => undefined);
  }

  /**
   * Sending while an unaccepted turn exists accepts it first (a regenerate adds a take to it instead):
   * the take the user chose as they left it (`dto.accept`, the edited AI part) when it names one of
   * its takes; else, a done turn's newest take as stored (what a client that did not see it, or sent no
   * `accept`, gets: the same as POST /accept naming an older turn, then a send).
   */
  private async acceptPending(claimed: PlayTurn): Promise<void> {
    if (this.dto.regenerate || claimed.state === 'idle') return;
    const edited = this.dto.accept;
    let piece: string;
    if (edited && takeIds(claimed).includes(edited.turnId)) {
      piece = joinParts(edited.userContent, edited.newContent);
      if (!piece) return;
    } else {
      const earlierUserText = userTextOf(claimed, this.story);
      if (claimed.state !== 'done' || !(earlierUserText || claimed.aiText)) return;
      piece = joinParts(earlierUserText, claimed.aiText);
    }
    const written = await this.deps.appendAccepted(this.user.userID, this.id, playedBranchId(this.story), piece, false, knownTextOf(this.story));
    // The story's text and revision now.
    this.story.main_text = written.text;
    this.story.stateRev = written.stateRev;
    this.accepted = written.appended;
  }

  // A claim that did not happen: says why (generating, a change of branch, no room for a take, or too soon).
  private async refuse(): Promise<never> {
    const current = await this.deps.turns.find(this.storyId);
    if (current) {
      const now = Date.now();
      if (this.deps.repair.isLive(current, now)) throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
      if (this.deps.turns.isHeld(current, now)) throw new AppException(ErrorCode.BRANCH_SWITCHING);
      if (this.dto.regenerate && (current.takes?.length ?? 0) >= TAKES_PER_TURN_MAX) {
        throw new AppException(ErrorCode.TAKES_LIMIT, undefined, { max: TAKES_PER_TURN_MAX });
      }
    }
    throw new AppException(ErrorCode.SEND_TOO_FAST);
  }

  // Everything this send did, undone: the hold given back, the turn as it was.
  private async undo(taken: { before: PlayTurn | null } | null): Promise<void> {
    const { deps } = this;
    if (this.hold) await this.hold.then((h) => deps.power.release(h), () => undefined).catch(() => undefined);
    if (taken) await deps.turns.restore(this.storyId, taken.before, this.generation.id);
  }
}

// A send refused for too little power (402) or a conflict with the story's state (409) generated
// nothing: its hit on the generation limit is given back (a failure to give it back costs the user one hit).
async function giveBackIfRefused(counted: CountedHit | null, error: unknown): Promise<void> {
  const status = error instanceof AppException ? httpStatusOf(error.code) : 0;
  if (counted && (status === 402 || status === 409)) await counted.giveBack().catch(() => undefined);
}

/** The role (trimmed) and the line a send's body plays its turn with. */
export function turnOf(body: Pick<SendTurnDto, 'role' | 'content'>): { role: string; content: string } {
  return { role: (body.role ?? '').trim(), content: body.content ?? '' };
}

// What a turn the first send created was before: idle, never sent.
function newTurn(): PlayTurn {
  return { state: 'idle', userText: '', aiText: '', summarizedChars: 0, lastSendAt: 0, heartbeatAt: 0 } as PlayTurn;
}
