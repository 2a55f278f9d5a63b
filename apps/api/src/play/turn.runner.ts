import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type PromptContextData } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { isDatabaseUnavailable } from '../common/database-errors';
import { errorMessage } from '../common/error-messages';
import { storyLanguage } from '../common/story-language';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { generationCost } from '../generation/generation-cost';
import { JobRunner } from '../generation/job-runner';
import type { ChosenModel } from '../generation/model-chooser';
import { sharedTokenCounter } from '../generation/token-counter';
import { ProviderFailure, type ChatMessage, type ProviderChunk } from '../models/chat-provider';
import { ModelsService } from '../models/models.service';
import { playedBranchId, playedBranchKey } from '../stories/played-branch';
import { StoryRepository } from '../stories/story.repository';
import { activateLore } from '../lore/lore-activation';
import { TaskRepository } from '../tasks/task.repository';
import { assemblePrompt } from './context/prompt-builder';
import type { AssembledPrompt } from './context/prompt-types';
import { foldMessages, SUMMARY_MAX_TOKENS } from './context/summary-prompt';
import { FlushClock } from './flush-clock';
import { TurnContextRepository } from './turn-context.repository';
import type { PlayStory, TurnSend } from './turn-send';

/** A provider request on its way: its answer, how to stop it, and where its chunks go once they may leave. */
interface Opened {
  answered: Promise<void>;
  /** Resolves when the first chunk came while none had a place to go yet, or the answer ended. */
  answering: Promise<void>;
  abort: AbortController;
  startedAt: number;
  /** The chunks go to `handle` from now on (those that came before first, in order). */
  attach(handle: (chunk: ProviderChunk) => void): void;
}

/** A target of the story's current task group, as the prompt names it. */
interface OpenTarget {
  title: string;
  type: 'reality' | 'emotion';
}

// How often a running generation writes its text so far (what a reopened story shows).
const FLUSH_INTERVAL_MS = 1000;
// How often a running generation says it is alive, whatever the provider does (see TurnRepairService).
const HEARTBEAT_MS = 10_000;

/**
 * Runs the generation of a turn to the end, whatever happens to the connection that started it:
 * folds old text into the summary when needed, streams from the provider, keeps the text in the turn
 * document as it comes, then hands the outcome to its send (TurnSend.settle or TurnSend.fail).
 */
@Injectable()
export class TurnRunner extends JobRunner {
  private readonly flushClock = new FlushClock(FLUSH_INTERVAL_MS);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly models: ModelsService,
    private readonly stories: StoryRepository,
    private readonly tasks: TaskRepository,
    private readonly contexts: TurnContextRepository,
  ) {
    super('TurnRunner', 'generation(s)');
  }

  /** Runs the generation of `send` (its checks passed). */
  start(send: TurnSend): void {
    const g = send.generation;
    const heartbeat = setInterval(() => void send.write({ heartbeatAt: Date.now() }).catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
    // Runs at once, up to the provider request; the caller subscribes afterwards and gets the events
    // sent so far (Generation keeps them for the first listener).
    const run = this.run(send)
      .catch((error: unknown) => {
        // Whatever went wrong, the stream ends with a coded error instead of staying open.
        const code = isDatabaseUnavailable(error) ? ErrorCode.DATABASE_UNAVAILABLE : ErrorCode.INTERNAL_ERROR;
        this.logger.error(`generation ${g.id} stopped: ${error instanceof Error ? error.stack : String(error)}`);
        if (!g.isFinished) g.emit({ type: 'error', code, message: errorMessage(code, send.language) });
      })
      .finally(() => clearInterval(heartbeat));
    void this.jobs.track(run);
  }

  // The open targets of the story's current task group (what the task play modes steer toward).
  private async openTargets(story: PlayStory): Promise<OpenTarget[]> {
    const key = playedBranchKey(story);
    const open = await this.tasks.openTargets(key).catch(() => []);
    const list = open.map((t) => ({ title: t.title, type: t.type }));
    return list;
  }

  // The provider request of a prompt: what it answers waits (in order) until `attach` says where it goes.
  private open(chosen: ChosenModel, prompt: AssembledPrompt): Opened {
    const { model } = chosen;
    let waiting: ProviderChunk[] | null = [];
    let sink: ((chunk: ProviderChunk) => void) | null = null;
    const abort = new AbortController();
    const startedAt = Date.now();
    let answer!: () => void;
    const answering = new Promise<void>((resolve) => (answer = resolve));
    // The provider hands each chunk over as it is read (see ChatProvider.relay).
    const answered = this.models.relay(
      {
        model,
        apiKey: chosen.apiKey,
        custom: chosen.custom,
        messages: prompt.messages,
        maxTokens: model.maxOutput,
        idleTimeoutMs: this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000,
        signal: abort.signal,
      },
      (chunk) => {
        if (sink) return sink(chunk);
        waiting!.push(chunk);
        answer();
      },
    );
    answered.then(answer, answer);
    return {
      answered,
      answering,
      abort,
      startedAt,
      attach(handle) {
        const early = waiting!;
        waiting = null;
        for (const chunk of early) handle(chunk);
        sink = handle;
      },
    };
  }

  private async run(send: TurnSend): Promise<void> {
    const { generation: g, chosen } = send;
    const { model } = chosen;
    g.emit({ type: 'user', text: send.userText, role: send.role, turnId: g.id, ...(send.accepted ? { appended: send.accepted } : {}) });

    // The story and the prompt are let go of once the request is out (null below): a stream that runs
    // for minutes holds neither the text nor the prompt.
    let story: PlayStory | null;
    let prompt: AssembledPrompt | null;
    let folded: { lore: string[] } | null = null;
    let opened: Opened;
    {
      const turn = { role: send.role, content: send.content };
      // The lore was read beside the claim (TurnSend.begin).
      story = { ...send.story, lore: await send.lore };
      // The task modes steer toward the open targets of the story's current task group.
      if (story.play_mode !== 'fly_free') story = { ...story, open_targets: await this.openTargets(story) };
      prompt = assemblePrompt(story, turn, model, send.summarizedChars);
      if (prompt.fold) {
        // Folding calls the provider too: not before the power is held.
        if (!(await this.passHold(send))) return;
        folded = { lore: [] };
        const before = story;
        story = await this.fold(send, story, prompt.fold, folded.lore);
        // A fold that failed (logged) changed nothing.
        if (story === before) folded = null;
        prompt = assemblePrompt(story, turn, model, send.summarizedChars);
      }
      opened = this.open(chosen, prompt);
    }

    let aiText = '';
    let reasoning = '';
    let completionTokens = 0;
    let promptTokens = prompt.promptTokens;
    let firstTokenAt = 0;
    // Text came since the last flush.
    let unflushed = false;
    let flushing: Promise<unknown> = Promise.resolve();
    // The user part is stored with the text (the claim could not: it depends on the story's language).
    const userText = send.userText;
    const flush = () => {
      if (!unflushed) return;
      unflushed = false;
      flushing = flushing.then(() => send.writeText({ userText, aiText, reasoning, heartbeatAt: Date.now() })).catch(() => undefined);
    };
    const handle = (chunk: ProviderChunk) => {
      if (chunk.type === 'usage') {
        promptTokens = chunk.promptTokens || promptTokens;
        completionTokens = chunk.completionTokens;
        return;
      }
      if (chunk.type === 'delta') aiText += chunk.text;
      else reasoning += chunk.text;
      unflushed = true;
      g.emit(chunk);
      if (!firstTokenAt) {
        firstTokenAt = Date.now();
        send.firstToken();
      }
    };
    // The request is on its way: the turn's other fields are written.
    send.requestSent();
    this.keepContext(send, story, prompt, folded);
    story = null;
    prompt = null;
    send.released();
    // Chunks that come before the hold stands wait: nothing leaves the server until it does.
    if (!(await this.passHold(send, opened.abort))) {
      await opened.answered.catch(() => undefined);
      return;
    }
    // The text so far is stored about every second, with every other running stream's (FlushClock).
    const stopFlushing = this.flushClock.add(flush);
    try {
      opened.attach(handle);
      await opened.answered;
    } catch (error) {
      stopFlushing();
      await flushing;
      const code = error instanceof ProviderFailure ? error.code : ErrorCode.PROVIDER_ERROR;
      this.logger.warn(`generation ${g.id} on ${model.value} failed: ${error instanceof Error ? error.message : String(error)}`);
      this.models.tracker.recordFailure(chosen.statusKey);
      await send.fail(aiText, reasoning, code);
      return;
    }
    stopFlushing();
    await flushing;
    this.models.tracker.recordSuccess(chosen.statusKey, (firstTokenAt || Date.now()) - opened.startedAt);
    if (!completionTokens && aiText) completionTokens = sharedTokenCounter.count(aiText);
    await send.settle({ aiText, reasoning, promptTokens, completionTokens }, generationCost(model, completionTokens, aiText));
  }

  // Waits for the power hold; when it failed, aborts the provider request and ends the generation with
  // the hold's error (nobody listens yet: the send that started it answers that error itself).
  private async passHold(send: TurnSend, abort?: AbortController): Promise<boolean> {
    const refused: AppException | null = await send.held();
    if (!refused) return true;
    abort?.abort();
    send.generation.emit({ type: 'error', code: refused.code, message: errorMessage(refused.code, send.language) });
    return false;
  }

  // The prompt as sent, for the context inspector: stored off the way to the first token.
  private keepContext(send: TurnSend, story: PlayStory, prompt: AssembledPrompt, folded: { lore: string[] } | null): void {
    const { model } = send.chosen;
    const context: PromptContextData = {
      turnId: send.generation.id,
      at: Date.now(),
      model: model.value,
      contextWindow: model.contextWindow,
      maxOutput: model.maxOutput,
      promptTokens: prompt.promptTokens,
      overheadTokens: prompt.overheadTokens,
      messages: prompt.parts,
      lore: prompt.lore,
      textLeftOutChars: prompt.textStart,
      summaryFolded: folded !== null,
      summaryLore: folded?.lore ?? [],
    };
    setImmediate(() => {
      this.contexts.save(playedBranchKey(story), story.userID, context, story.main_text).catch((error: unknown) => {
        this.logger.warn(`keeping the prompt of generation ${send.generation.id}: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
  }

  /**
   * When older text has fallen out of the prompt window and the summary does not cover it yet,
   * the model folds it into previous_summary (visible to the user, who can edit it). A failed fold
   * is logged and skipped: the turn goes on with the summary it had.
   */
  private async fold(send: TurnSend, story: PlayStory, range: { from: number; to: number }, loreTitles: string[]): Promise<PlayStory> {
    const { model, apiKey, custom } = send.chosen;
    const language = storyLanguage(story.main_text);
    const summaryTokens = Math.min(SUMMARY_MAX_TOKENS, Math.floor(model.contextWindow / 10));
    const text = story.main_text.slice(range.from, range.to);
    const inputBudget = model.contextWindow - summaryTokens - 64;
    // The lore the folded text fires goes with it, so the summary keeps names, places and rules exact.
    const lore = story.lore?.entries.length
      ? activateLore(story.lore, { text, line: '', note: '', depth: text.length }, Math.min(story.lore.settings.token_budget, Math.floor(inputBudget / 4)), (c) =>
          sharedTokenCounter.count(c),
          undefined,
          'fold',
        ).fired
      : [];
    loreTitles.push(...lore.map((f) => f.entry.title));
    const messages: ChatMessage[] = foldMessages(
      story.previous_summary,
      text,
      language,
      inputBudget,
      summaryTokens,
      sharedTokenCounter,
      lore.map((f) => f.content),
    );
    try {
      const summary = (
        await this.models.provider.complete({
          model,
          apiKey,
          custom,
          messages,
          maxTokens: summaryTokens,
          idleTimeoutMs: this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000,
        })
      ).trim();
      if (!summary) return story;
      // The summary and how far it covers go with the branch it was folded from (nothing when the story
      // plays another one by now).
      if (!(await this.stories.setSummary(story._id, playedBranchId(story), summary, range.to))) return story;
      send.summarizedChars = range.to;
      send.generation.emit({ type: 'summary', text: summary });
      return { ...story, previous_summary: summary };
    } catch (error) {
      this.logger.warn(`folding the summary of story ${story._id.toHexString()} failed: ${error instanceof Error ? error.message : String(error)}`);
      return story;
    }
  }
}
