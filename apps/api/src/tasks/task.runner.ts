import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type Language, type StreamEvent, type TaskGroupDraft, type TaskVerdict } from '@taleloom/contracts';
import type { Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import { errorMessage } from '../common/error-messages';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ProviderFailure, type ChatMessage } from '../models/chat-provider';
import { generationCost } from '../generation/generation-cost';
import type { Generation } from '../generation/generation-stream';
import { HeldPower } from '../generation/held-power';
import { JobRunner } from '../generation/job-runner';
import type { ChosenModel } from '../generation/model-chooser';
import { sharedTokenCounter } from '../generation/token-counter';
import { ModelsService } from '../models/models.service';
import { PowerService, type RoyaltyRecipient } from '../power/power.service';
import { SuggestionReader, VerdictReader, type AnswerReader, type OpenTarget } from './task-answer-readers';
import { TaskOutputInvalid } from './task-output';
import { applyVerdicts, totals } from './task-rules';
import { TaskRepository } from './task.repository';

// A malformed answer is asked for once more; then the request fails and nothing is charged.
const ATTEMPTS = 2;
const HEARTBEAT_MS = 5000;

/** What every task request carries: who, which model (platform or the user's own), the power held, and how to answer errors. */
export interface TaskJobBase extends ChosenModel {
  id: string;
  generation: Generation;
  /** The story: its one running request is claimed on its own tasks document. */
  storyId: Types.ObjectId;
  /** The tasks document of the branch the request was made on (the result is stored there, whatever is played by then). */
  tasksKey: Types.ObjectId;
  holdId: string | null;
  royalty: () => Promise<RoyaltyRecipient | null>;
  language: Language;
}

interface JobBase extends TaskJobBase {
  messages: ChatMessage[];
  maxTokens: number;
}

export interface CreateJob extends JobBase {
  kind: 'create';
  count: number;
}

export interface ScoreJob extends JobBase {
  kind: 'score';
  tasksId: number;
  open: OpenTarget[];
  storyText: string;
  turn: number;
}

export type TaskJob = CreateJob | ScoreJob;

/**
 * Runs suggestion and scoring requests to the end, whatever happens to the connection: streams the
 * model's answer (showing items as they complete), reads it (one retry when it cannot be read),
 * stores the result, then settles the power held for it, or releases it on any failure.
 */
@Injectable()
export class TaskRunner extends JobRunner {
  private readonly held: HeldPower;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly models: ModelsService,
    power: PowerService,
    private readonly store: TaskRepository,
  ) {
    super('TaskRunner', 'task request(s)');
    this.held = new HeldPower(power, this.logger);
  }

  start(job: TaskJob): void {
    this.startSoon(() => this.run(job));
  }

  private async run(job: TaskJob): Promise<void> {
    const g = job.generation;
    const emit = (event: StreamEvent) => g.emit(event);
    let final!: StreamEvent;
    let answer!: { text: string; completionTokens: number };
    try {
      let read: { answer: typeof answer; value: TaskGroupDraft[] | TaskVerdict[] } | null = null;
      for (let attempt = 1; attempt <= ATTEMPTS && !read; attempt++) {
        if (attempt > 1) emit({ type: 'task_retry', attempt });
        const reader: AnswerReader<TaskGroupDraft[] | TaskVerdict[]> =
          job.kind === 'create' ? new SuggestionReader(job.id, job.count, emit) : new VerdictReader(job.open, job.storyText, emit);
        const got = await this.ask(job, reader);
        try {
          read = { answer: got, value: reader.finish(got.text) };
        } catch (error) {
          if (!(error instanceof TaskOutputInvalid)) throw error;
          this.logger.warn(`task ${job.kind} ${job.id}: unreadable answer (attempt ${attempt}): ${error.message}`);
        }
      }
      if (!read) throw new AppException(ErrorCode.TASK_OUTPUT_INVALID);
      answer = read.answer;
      final = job.kind === 'create' ? await this.storeSuggestions(job, read.value as TaskGroupDraft[]) : await this.storeScore(job, read.value as TaskVerdict[]);
    } catch (error) {
      await this.fail(job, error);
      return;
    }
    // A failed settle leaves the hold to the ledger's repair; the result is kept.
    const charged = job.holdId ? await this.held.settle(job.holdId, generationCost(job.model, answer.completionTokens, answer.text), job.royalty) : 0;
    await this.store.release(job.storyId, job.id).catch(() => undefined);
    emit(final);
    emit({ type: 'usage', promptTokens: 0, completionTokens: answer.completionTokens, cost: charged });
    emit({ type: 'done', turnId: job.id });
  }

  // One call of the model, streamed through the reader; provider failures throw ProviderFailure.
  private async ask(job: TaskJob, reader: AnswerReader<unknown>): Promise<{ text: string; completionTokens: number }> {
    let text = '';
    let completionTokens = 0;
    let firstAt = 0;
    const startedAt = Date.now();
    let lastBeat = startedAt;
    try {
      for await (const chunk of this.models.provider.stream({
        model: job.model,
        apiKey: job.apiKey,
        custom: job.custom,
        messages: job.messages,
        maxTokens: job.maxTokens,
        idleTimeoutMs: this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000,
      })) {
        if (chunk.type === 'usage') {
          completionTokens = chunk.completionTokens;
          continue;
        }
        if (!firstAt) firstAt = Date.now();
        if (chunk.type === 'reasoning') {
          job.generation.emit(chunk);
          continue;
        }
        text += chunk.text;
        reader.onText(chunk.text);
        if (Date.now() - lastBeat >= HEARTBEAT_MS) {
          lastBeat = Date.now();
          void this.store.heartbeat(job.storyId, job.id).catch(() => undefined);
        }
      }
    } catch (error) {
      this.models.tracker.recordFailure(job.statusKey);
      throw error;
    }
    this.models.tracker.recordSuccess(job.statusKey, (firstAt || Date.now()) - startedAt);
    return { text, completionTokens: completionTokens || (text ? sharedTokenCounter.count(text) : 0) };
  }

  private async storeSuggestions(job: CreateJob, drafts: TaskGroupDraft[]): Promise<StreamEvent> {
    const suggestions = { batch: job.id, groups: drafts.map((d) => ({ ...d, accepted_as: null })) };
    await this.store.change(job.tasksKey, () => ({ suggestions }));
    return { type: 'task_suggestions', suggestions };
  }

  private async storeScore(job: ScoreJob, verdicts: TaskVerdict[]): Promise<StreamEvent> {
    const doc = await this.store.change(job.tasksKey, (d) => {
      const i = d.groups.findIndex((g) => g.tasks_id === job.tasksId);
      // The group was deleted while it was being judged.
      if (i === -1) throw new AppException(ErrorCode.TASKS_NOT_FOUND);
      const groups = [...d.groups];
      groups[i] = applyVerdicts(groups[i], verdicts, job.turn);
      return { groups };
    });
    const index = doc.groups.findIndex((g) => g.tasks_id === job.tasksId);
    return { type: 'task_scored', index, group: doc.groups[index], ...totals(doc.groups), current_turn: job.turn };
  }

  private async fail(job: TaskJob, error: unknown): Promise<void> {
    const code =
      error instanceof ProviderFailure ? error.code : error instanceof AppException ? error.code : ErrorCode.INTERNAL_ERROR;
    if (code === ErrorCode.INTERNAL_ERROR) this.logger.error(error instanceof Error ? error.stack : String(error));
    else this.logger.warn(`task ${job.kind} ${job.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    if (job.holdId) await this.held.release(job.holdId);
    await this.store.release(job.storyId, job.id).catch(() => undefined);
    job.generation.emit({ type: 'error', code, message: errorMessage(code, job.language) });
  }
}
