import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode, type Language } from '@taleloom/contracts';
import { Model } from 'mongoose';
import { AppException } from '../common/app-exception';
import { errorMessage } from '../common/error-messages';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { isDatabaseUnavailable } from '../database/database-errors';
import { ProviderFailure, type ChatMessage, type ProviderTransport } from '../models/chat-provider';
import type { PlatformModel } from '../models/model-config';
import { ModelsService } from '../models/models.service';
import { PowerService } from '../power/power.service';
import { assemblePrompt, storyLanguage } from './context/prompt-builder';
import { foldMessages, SUMMARY_MAX_TOKENS } from './context/summary-prompt';
import { sharedTokenCounter } from './context/token-counter';
import { Generation } from './generation';
import { PlayStories, type PlayStory } from './play-stories';
import { PlayTurn } from './play-turn.schema';
import { TaskStore } from '../tasks/task-store';

// How often a running generation writes its text so far (what a reopened story shows).
const FLUSH_INTERVAL_MS = 1000;
// How often a running generation says it is alive, whatever the provider does (see TurnRepairService).
const HEARTBEAT_MS = 10_000;
// How long shutdown waits for running generations (an unfinished one is reported failed later).
const SHUTDOWN_GRACE_MS = 10_000;
// How long a finished generation keeps trying to store its outcome while the database is away.
const PERSIST_RETRY_MS = 60_000;

/** The model a generation runs on: a platform model, or one of the user's own (its key, its transport). */
export interface ChosenModel {
  model: PlatformModel;
  apiKey: string;
  /** Where its measured status is kept (ModelsService.tracker). */
  statusKey: string;
  custom?: { transport: ProviderTransport };
}

export interface GenerationJob extends ChosenModel {
  generation: Generation;
  story: PlayStory;
  role: string;
  content: string;
  userText: string;
  holdId: string | null;
  summarizedChars: number;
  language: Language;
  /** Fields of the turn document written once the provider request is on its way (off the path to the first token). */
  turnFields?: Partial<PlayTurn>;
  /** Work that waits until the first token has been relayed (writes that would otherwise delay it). */
  afterFirstToken?: () => void;
  /**
   * The power hold, when it is still being taken: the provider request starts at once, but nothing
   * it sends is relayed, stored or charged until the hold stands; if it fails the request is aborted
   * and the generation ends with the hold's error (its caller undoes the claim).
   */
  gate?: Promise<unknown>;
}

/** Power a generation costs: the model's price scaled by the share of the reply budget used (at least 1). */
export function generationCost(model: Pick<PlatformModel, 'points' | 'maxOutput'>, completionTokens: number, text: string): number {
  if (model.points <= 0 || !text) return 0;
  const share = Math.min(1, Math.max(0, completionTokens) / model.maxOutput);
  return Math.min(model.points, Math.max(1, Math.ceil(model.points * share)));
}

/**
 * Runs one generation to the end, whatever happens to the connection that started it: folds old
 * text into the summary when needed, streams from the provider, keeps the text in the turn document,
 * then settles the power (or releases it on failure, keeping the partial text).
 */
@Injectable()
export class GenerationRunner implements OnApplicationShutdown {
  private readonly logger = new Logger('GenerationRunner');
  private readonly running = new Set<Generation>();

  constructor(
    @InjectModel(PlayTurn.name) private readonly turns: Model<PlayTurn>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly models: ModelsService,
    private readonly power: PowerService,
    private readonly stories: PlayStories,
    private readonly tasks: TaskStore,
  ) {}

  /** Generations running on this instance. */
  get active(): number {
    return this.running.size;
  }

  /** Waits for every running generation (tests and shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.running].map((g) => g.done));
  }

  /** On shutdown, running generations get a few seconds to finish and settle before the app closes. */
  async onApplicationShutdown(): Promise<void> {
    if (this.running.size === 0) return;
    this.logger.log(`Waiting for ${this.running.size} running generation(s) to finish`);
    await Promise.race([this.drain(), new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]);
  }

  start(job: GenerationJob): void {
    const g = job.generation;
    this.running.add(g);
    const turnFilter = { _id: job.story._id, generationId: g.id };
    const heartbeat = setInterval(() => {
      void this.turns.updateOne(turnFilter, { $set: { heartbeatAt: Date.now() } }).exec().catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    // Runs at once, up to the provider request; the caller subscribes afterwards and gets the events
    // sent so far (Generation keeps them for the first listener).
    this.run(job)
      .catch((error: unknown) => {
        // Whatever went wrong, the stream ends with a coded error instead of staying open.
        const code = isDatabaseUnavailable(error) ? ErrorCode.DATABASE_UNAVAILABLE : ErrorCode.INTERNAL_ERROR;
        this.logger.error(`generation ${g.id} stopped: ${error instanceof Error ? error.stack : String(error)}`);
        if (!g.isFinished) g.emit({ type: 'error', code, message: errorMessage(code, job.language) });
      })
      .finally(() => {
        clearInterval(heartbeat);
        this.running.delete(g);
      });
  }

  private async run(job: GenerationJob): Promise<void> {
    const { generation: g, model } = job;
    const turnFilter = { _id: job.story._id, generationId: g.id };
    g.emit({ type: 'user', text: job.userText, role: job.role, turnId: g.id });

    const turn = { role: job.role, content: job.content };
    // The task modes steer toward the open targets of the story's current task group.
    if (job.story.play_mode !== 'fly_free') {
      const open = await this.tasks.openTargets(job.story._id).catch(() => []);
      job.story = { ...job.story, open_targets: open.map((t) => ({ title: t.title, type: t.type })) };
    }
    let prompt = assemblePrompt(job.story, turn, model, job.summarizedChars);
    if (prompt.fold) {
      // Folding calls the provider too: not before the power is held.
      if (job.gate && !(await this.passGate(job))) return;
      const story = await this.fold(job, prompt.fold);
      prompt = assemblePrompt(story, turn, model, job.summarizedChars);
    }

    let aiText = '';
    let reasoning = '';
    let completionTokens = 0;
    let promptTokens = prompt.promptTokens;
    let firstTokenAt = 0;
    const startedAt = Date.now();
    let lastFlush = startedAt;
    let flushing: Promise<unknown> = Promise.resolve();
    // The user part is stored with the text (the claim could not: it depends on the story's language).
    const userText = job.userText;
    const flush = () => {
      lastFlush = Date.now();
      // The native driver (with the updatedAt mongoose's timestamps would add): this write runs every
      // second for every open stream, and mongoose's casting and cloning of it cost more than the driver.
      flushing = flushing
        .then(() => this.turns.collection.updateOne(turnFilter, { $set: { userText, aiText, reasoning, heartbeatAt: Date.now(), updatedAt: new Date() } }))
        .catch(() => undefined);
    };
    const abort = new AbortController();
    const stream = this.models.provider.stream({
      model,
      apiKey: job.apiKey,
      custom: job.custom,
      messages: prompt.messages,
      maxTokens: model.maxOutput,
      idleTimeoutMs: this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000,
      signal: abort.signal,
    });
    const chunks = stream[Symbol.asyncIterator]();
    // The request starts now; the turn's other fields are written once it is on its way.
    let next = chunks.next();
    if (job.turnFields) {
      const fields = job.turnFields;
      setImmediate(() => void this.turns.updateOne(turnFilter, { $set: fields }).exec().catch(() => undefined));
    }
    if (job.gate) {
      next.catch(() => undefined);
      if (!(await this.passGate(job, abort))) {
        await next.catch(() => undefined);
        return;
      }
    }
    try {
      for (let item = await next; !item.done; item = await (next = chunks.next())) {
        const chunk = item.value;
        if (chunk.type === 'usage') {
          promptTokens = chunk.promptTokens || promptTokens;
          completionTokens = chunk.completionTokens;
          continue;
        }
        if (chunk.type === 'delta') aiText += chunk.text;
        else reasoning += chunk.text;
        g.emit(chunk);
        if (!firstTokenAt) {
          firstTokenAt = Date.now();
          if (job.afterFirstToken) setImmediate(job.afterFirstToken);
        }
        if (Date.now() - lastFlush >= FLUSH_INTERVAL_MS) flush();
      }
    } catch (error) {
      await flushing;
      await this.fail(job, aiText, reasoning, error);
      return;
    }
    await flushing;
    this.models.tracker.recordSuccess(job.statusKey, (firstTokenAt || Date.now()) - startedAt);
    if (!completionTokens && aiText) completionTokens = sharedTokenCounter.count(aiText);
    const cost = generationCost(model, completionTokens, aiText);
    const stored = { userText, aiText, reasoning, promptTokens, completionTokens, finalCost: cost };
    if (!job.holdId) {
      // No power moves: the text and the end of the turn are one write.
      await this.persist(`storing generation ${g.id}`, () =>
        this.turns
          .updateOne(turnFilter, { $set: { ...stored, state: 'done', cost: 0, finishedAt: Date.now(), heartbeatAt: Date.now() } })
          .exec(),
      );
      g.emit({ type: 'usage', promptTokens, completionTokens, cost: 0 });
      g.emit({ type: 'done', turnId: g.id });
      return;
    }
    // The whole text is stored before any power moves: if this process dies from here on, repair
    // settles `finalCost` and the turn shows the whole text; it never charges for text it lost.
    await this.persist(`storing generation ${g.id}`, () =>
      this.turns.updateOne(turnFilter, { $set: { ...stored, heartbeatAt: Date.now() } }).exec(),
    );
    const holdId = job.holdId;
    let charged = 0;
    try {
      const royalty = await this.persist(`reading the royalty of ${g.id}`, () => this.stories.royaltyRecipient(job.story));
      // A retry takes over at once what the attempt before it left half-done.
      const settle = (retry: boolean) => this.power.settle(holdId, cost, royalty ?? undefined, retry ? Date.now() : undefined, job.story.name);
      charged = (await this.persist(`settling hold ${holdId}`, settle)).charged;
    } catch (error) {
      // The turn is shown done with nothing charged; the ledger's repair releases the hold.
      this.logger.error(`settling hold ${holdId} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    await this.persist(`finishing generation ${g.id}`, () =>
      this.turns
        .updateOne(turnFilter, { $set: { state: 'done', cost: charged, finishedAt: Date.now(), heartbeatAt: Date.now() } })
        .exec(),
    );
    g.emit({ type: 'usage', promptTokens, completionTokens, cost: charged });
    g.emit({ type: 'done', turnId: g.id });
  }

  // Waits for the power hold; when it fails, aborts the provider request and ends the generation with
  // the hold's error (nobody listens yet: the send that started it answers that error itself).
  private async passGate(job: GenerationJob, abort?: AbortController): Promise<boolean> {
    try {
      await job.gate;
      return true;
    } catch (error) {
      abort?.abort();
      const code = error instanceof AppException ? error.code : ErrorCode.INTERNAL_ERROR;
      job.generation.emit({ type: 'error', code, message: errorMessage(code, job.language) });
      return false;
    }
  }

  /**
   * Runs one write of a generation's outcome, again and again while the database is unreachable
   * (up to a minute): a database that drops and comes back loses no finished generation.
   */
  private async persist<T>(what: string, write: (retry: boolean) => Promise<T>): Promise<T> {
    const deadline = Date.now() + PERSIST_RETRY_MS;
    for (let wait = 200, retry = false; ; wait = Math.min(wait * 2, 2000), retry = true) {
      try {
        return await write(retry);
      } catch (error) {
        if (!isDatabaseUnavailable(error) || Date.now() + wait > deadline) throw error;
        this.logger.warn(`${what}: the database is unavailable, trying again in ${wait} ms`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private async fail(job: GenerationJob, aiText: string, reasoning: string, error: unknown): Promise<void> {
    const g = job.generation;
    const code = error instanceof ProviderFailure ? error.code : ErrorCode.PROVIDER_ERROR;
    this.logger.warn(`generation ${g.id} on ${job.model.value} failed: ${error instanceof Error ? error.message : String(error)}`);
    this.models.tracker.recordFailure(job.statusKey);
    const holdId = job.holdId;
    if (holdId) {
      // Left open on failure: repair releases it (the turn has no finalCost).
      await this.persist(`releasing hold ${holdId}`, (retry) => this.power.release(holdId, retry ? Date.now() : undefined)).catch((e: unknown) =>
        this.logger.error(`releasing hold ${holdId} failed: ${String(e)}`),
      );
    }
    await this.persist(`storing failed generation ${g.id}`, () =>
      this.turns
        .updateOne(
          { _id: job.story._id, generationId: g.id },
          { $set: { state: 'failed', userText: job.userText, aiText, reasoning, errorCode: code, cost: 0, finishedAt: Date.now(), heartbeatAt: Date.now() } },
        )
        .exec(),
    ).catch(() => undefined);
    g.emit({ type: 'error', code, message: errorMessage(code, job.language) });
  }

  /**
   * When older text has fallen out of the prompt window and the summary does not cover it yet,
   * the model folds it into previous_summary (visible to the user, who can edit it). A failed fold
   * is logged and skipped: the turn goes on with the summary it had.
   */
  private async fold(job: GenerationJob, range: { from: number; to: number }): Promise<PlayStory> {
    const { story, model } = job;
    const language = storyLanguage(story.main_text);
    const summaryTokens = Math.min(SUMMARY_MAX_TOKENS, Math.floor(model.contextWindow / 10));
    const messages: ChatMessage[] = foldMessages(
      story.previous_summary,
      story.main_text.slice(range.from, range.to),
      language,
      model.contextWindow - summaryTokens - 64,
      summaryTokens,
    );
    try {
      const summary = (
        await this.models.provider.complete({
          model,
          apiKey: job.apiKey,
          custom: job.custom,
          messages,
          maxTokens: summaryTokens,
          idleTimeoutMs: this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000,
        })
      ).trim();
      if (!summary) return story;
      await this.stories.setSummary(story._id.toHexString(), summary);
      await this.turns.updateOne({ _id: story._id }, { $set: { summarizedChars: range.to } }).exec();
      job.summarizedChars = range.to;
      job.generation.emit({ type: 'summary', text: summary });
      return { ...story, previous_summary: summary };
    } catch (error) {
      this.logger.warn(`folding the summary of story ${story._id.toHexString()} failed: ${error instanceof Error ? error.message : String(error)}`);
      return story;
    }
  }
}
