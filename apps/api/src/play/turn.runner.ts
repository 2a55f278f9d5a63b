import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { isDatabaseUnavailable } from '../common/database-errors';
import { errorMessage } from '../common/error-messages';
import { storyLanguage } from '../common/story-language';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { generationCost } from '../generation/generation-cost';
import { JobRunner } from '../generation/job-runner';
import { sharedTokenCounter } from '../generation/token-counter';
import { ProviderFailure, type ChatMessage } from '../models/chat-provider';
import { ModelsService } from '../models/models.service';
import { playedBranchId, playedBranchKey } from '../stories/played-branch';
import { StoryRepository } from '../stories/story.repository';
import { TaskRepository } from '../tasks/task.repository';
import { assemblePrompt } from './context/prompt-builder';
import { foldMessages, SUMMARY_MAX_TOKENS } from './context/summary-prompt';
import type { PlayStory, TurnSend } from './turn-send';

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
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly models: ModelsService,
    private readonly stories: StoryRepository,
    private readonly tasks: TaskRepository,
  ) {
    super('TurnRunner', 'generation(s)');
  }

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

  private async run(send: TurnSend): Promise<void> {
    const { generation: g, chosen } = send;
    const { model } = chosen;
    g.emit({ type: 'user', text: send.userText, role: send.role, turnId: g.id, ...(send.accepted ? { appended: send.accepted } : {}) });

    const turn = { role: send.role, content: send.content };
    let story: PlayStory = send.story;
    // The task modes steer toward the open targets of the story's current task group.
    if (story.play_mode !== 'fly_free') {
      const open = await this.tasks.openTargets(playedBranchKey(story)).catch(() => []);
      story = { ...story, open_targets: open.map((t) => ({ title: t.title, type: t.type })) };
    }
    let prompt = assemblePrompt(story, turn, model, send.summarizedChars);
    if (prompt.fold) {
      // Folding calls the provider too: not before the power is held.
      if (!(await this.passHold(send))) return;
      story = await this.fold(send, story, prompt.fold);
      prompt = assemblePrompt(story, turn, model, send.summarizedChars);
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
    const userText = send.userText;
    const flush = () => {
      lastFlush = Date.now();
      flushing = flushing.then(() => send.write({ userText, aiText, reasoning, heartbeatAt: Date.now() })).catch(() => undefined);
    };
    const abort = new AbortController();
    const stream = this.models.provider.stream({
      model,
      apiKey: chosen.apiKey,
      custom: chosen.custom,
      messages: prompt.messages,
      maxTokens: model.maxOutput,
      idleTimeoutMs: this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000,
      signal: abort.signal,
    });
    const chunks = stream[Symbol.asyncIterator]();
    // The request starts now; the turn's other fields are written once it is on its way.
    let next = chunks.next();
    send.requestSent();
    next.catch(() => undefined);
    if (!(await this.passHold(send, abort))) {
      await next.catch(() => undefined);
      return;
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
          send.firstToken();
        }
        if (Date.now() - lastFlush >= FLUSH_INTERVAL_MS) flush();
      }
    } catch (error) {
      await flushing;
      const code = error instanceof ProviderFailure ? error.code : ErrorCode.PROVIDER_ERROR;
      this.logger.warn(`generation ${g.id} on ${model.value} failed: ${error instanceof Error ? error.message : String(error)}`);
      this.models.tracker.recordFailure(chosen.statusKey);
      await send.fail(aiText, reasoning, code);
      return;
    }
    await flushing;
    this.models.tracker.recordSuccess(chosen.statusKey, (firstTokenAt || Date.now()) - startedAt);
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

  /**
   * When older text has fallen out of the prompt window and the summary does not cover it yet,
   * the model folds it into previous_summary (visible to the user, who can edit it). A failed fold
   * is logged and skipped: the turn goes on with the summary it had.
   */
  private async fold(send: TurnSend, story: PlayStory, range: { from: number; to: number }): Promise<PlayStory> {
    const { model, apiKey, custom } = send.chosen;
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
