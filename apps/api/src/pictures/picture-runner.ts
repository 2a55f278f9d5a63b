import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CHARACTER_SHEET_MAX_LENGTH, ErrorCode, PowerReason, placePictures } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ProviderFailure } from '../models/chat-provider';
import { ModelsService } from '../models/models.service';
import type { ChosenModel } from '../play/generation-runner';
import { ModelChooser } from '../play/model-chooser';
import { PowerService } from '../power/power.service';
import { ImageGenerator } from './image-generator';
import { PictureFailure } from './image-provider';
import {
  CHARACTER_SHEET_MAX_TOKENS,
  characterSheetMessages,
  composeImagePrompt,
  DEFAULT_PICTURE_STYLE,
  PICTURE_PROMPT_MAX_TOKENS,
  picturePromptMessages,
} from './picture-prompt';
import { PictureRecords } from './picture-records';
import { PictureStories, type PictureStory } from './picture-stories';
import { PictureStore } from './picture-store';

// How long shutdown waits for running drawings (an unfinished one is shown failed later).
const SHUTDOWN_GRACE_MS = 10_000;

export interface DrawJob {
  pictureId: string;
  storyId: string;
  /** Who asked and pays. */
  userID: string;
  /** The power already held for it (a picture asked for on demand); null: the drawing holds it. */
  holdId: string | null;
}

/**
 * Draws pictures in the background, whatever happens to the request that asked: holds the price,
 * has the story's model write the prompt (and the character sheet with consistency on), draws it,
 * stores it in GridFS, then settles — or releases the power and records why it failed.
 */
@Injectable()
export class PictureRunner implements BeforeApplicationShutdown {
  private readonly logger = new Logger('PictureRunner');
  private readonly running = new Set<Promise<void>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly models: ModelsService,
    private readonly chooser: ModelChooser,
    private readonly power: PowerService,
    private readonly generator: ImageGenerator,
    private readonly records: PictureRecords,
    private readonly stories: PictureStories,
    private readonly store: PictureStore,
  ) {}

  /** Drawings running on this instance. */
  get active(): number {
    return this.running.size;
  }

  /** Waits for every running drawing (tests and shutdown). */
  async drain(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.running.size === 0) return;
    this.logger.log(`Waiting for ${this.running.size} picture(s) being drawn`);
    await Promise.race([this.drain(), new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]);
  }

  /** Counts `work` (e.g. a picture being asked for, before its drawing starts) as running until it settles. */
  track(work: Promise<void>): Promise<void> {
    const run = work.finally(() => this.running.delete(run));
    this.running.add(run);
    return run;
  }

  start(job: DrawJob): void {
    const run: Promise<void> = new Promise<void>((r) => setImmediate(r))
      .then(() => this.run(job))
      .catch((error: unknown) => this.logger.error(error instanceof Error ? error.stack : String(error)))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async run(job: DrawJob): Promise<void> {
    const env = this.config.env;
    const deadline = AbortSignal.timeout(env.IMAGES_TIMEOUT_SECONDS * 1000);
    let holdId = job.holdId;
    let prompt = '';
    try {
      const picture = await this.records.findOne(job.pictureId);
      const story = await this.stories.byId(job.storyId);
      if (!picture || picture.status !== 'pending') {
        if (holdId) await this.power.release(holdId);
        return;
      }
      if (!story) throw new PictureFailure(ErrorCode.STORY_NOT_FOUND, 'the story is gone');
      if (!holdId && env.IMAGES_POINTS > 0) {
        holdId = await this.power.hold(job.userID, env.IMAGES_POINTS, `picture:${job.pictureId}`, {
          reason: PowerReason.STORY,
          storyID: job.storyId,
          storyName: story.name,
        });
        await this.records.updatePending(job.pictureId, { holdId });
      }

      // The story's model writes the prompt: a custom one with the user's own key (no platform power for it).
      const chosen = await this.chooser.ofStory(job.userID, story);
      const passage = passageOf(story, job.pictureId);
      const sheet = story.settings_camera_consistency_switch ? await this.sheet(story, chosen, passage, deadline) : '';
      const scene = await this.complete(chosen, picturePromptMessages({ characters: story.prologue_and_characters, passage, sheet }), PICTURE_PROMPT_MAX_TOKENS, deadline);
      const style = story.settings_camera_style_switch === 'custom' ? story.settings_camera_style_prompt_text : DEFAULT_PICTURE_STYLE;
      prompt = composeImagePrompt(style, scene || passage, sheet, env.IMAGES_PROMPT_MAX_CHARS);

      const image = await this.generator.generate(prompt, picture.size, deadline);
      const width = image.width || 0;
      const height = image.height || 0;
      const demo = this.generator.info.demo;
      await this.store.put(job.pictureId, image.data, { storyId: job.storyId, userID: job.userID, contentType: image.contentType, width, height, demo });

      let cost = 0;
      if (holdId) {
        try {
          const royalty = await this.stories.royaltyRecipient(story);
          cost = (await this.power.settle(holdId, env.IMAGES_POINTS, royalty ?? undefined)).charged;
        } catch (error) {
          // The hold stays open for the ledger's repair; the user keeps the picture.
          this.logger.error(`settling hold ${holdId} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      await this.records.updatePending(job.pictureId, { status: 'ready', prompt, width, height, contentType: image.contentType, demo, cost, holdId: null });
    } catch (error) {
      const code = codeOf(error, deadline);
      this.logger.warn(`picture ${job.pictureId} of story ${job.storyId} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (holdId) {
        await this.power.release(holdId).catch((e: unknown) => this.logger.error(`releasing hold ${holdId} failed: ${String(e)}`));
      }
      await this.records.updatePending(job.pictureId, { status: 'failed', errorCode: code, prompt, cost: 0, holdId: null }).catch(() => undefined);
    }
  }

  // The story's character sheet, written by its model the first time (consistent pictures).
  private async sheet(story: PictureStory, chosen: ChosenModel, passage: string, signal: AbortSignal): Promise<string> {
    if (story.picture_character_sheet.trim()) return story.picture_character_sheet.trim();
    const written = (await this.complete(chosen, characterSheetMessages({ characters: story.prologue_and_characters, passage }), CHARACTER_SHEET_MAX_TOKENS, signal))
      .trim()
      .slice(0, CHARACTER_SHEET_MAX_LENGTH);
    if (!written) return '';
    return (await this.stories.keepSheet(story._id, written)).trim();
  }

  private async complete({ model, apiKey, custom }: ChosenModel, messages: ReturnType<typeof picturePromptMessages>, maxTokens: number, signal: AbortSignal): Promise<string> {
    const text = await this.models.provider.complete({
      model,
      apiKey,
      custom,
      messages,
      maxTokens: Math.min(maxTokens, model.maxOutput),
      idleTimeoutMs: this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000,
      signal,
    });
    return text.trim();
  }
}

// The text the picture shows: its passage, found again in the story's text as it is now.
function passageOf(story: PictureStory, pictureId: string): string {
  const ref = story.pictures.find((p) => p.id === pictureId);
  if (!ref) throw new PictureFailure(ErrorCode.PICTURE_NOT_FOUND, 'the story no longer references the picture');
  const [placed] = placePictures(story.main_text, [ref]);
  const passage = story.main_text.slice(placed.from, placed.to).trim();
  if (!passage) throw new PictureFailure(ErrorCode.PICTURE_PASSAGE_EMPTY, 'the passage is empty');
  return passage;
}

function codeOf(error: unknown, deadline: AbortSignal): string {
  if (deadline.aborted) return ErrorCode.PROVIDER_TIMEOUT;
  if (error instanceof PictureFailure || error instanceof ProviderFailure || error instanceof AppException) return error.code;
  return ErrorCode.PICTURE_FAILED;
}
