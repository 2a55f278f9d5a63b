import { Inject, Injectable } from '@nestjs/common';
import { CHARACTER_SHEET_MAX_LENGTH, ErrorCode, PowerReason, placePictures } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { HeldPower } from '../generation/held-power';
import { JobRunner } from '../generation/job-runner';
import { ModelChooser, type ChosenModel } from '../generation/model-chooser';
import { ProviderFailure } from '../models/chat-provider';
import { ModelsService } from '../models/models.service';
import { PowerService } from '../power/power.service';
import { StoryPictureRepository, type StoryForPictures } from '../stories/story-picture.repository';
import { StoryRepository } from '../stories/story.repository';
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
import { PictureFileRepository } from './picture-file.repository';
import { PictureRepository } from './picture.repository';

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
export class PictureRunner extends JobRunner {
  private readonly held: HeldPower;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly models: ModelsService,
    private readonly chooser: ModelChooser,
    private readonly power: PowerService,
    private readonly generator: ImageGenerator,
    private readonly records: PictureRepository,
    private readonly stories: StoryPictureRepository,
    private readonly storyRoyalty: StoryRepository,
    private readonly store: PictureFileRepository,
  ) {
    // Drawings running on this instance, and pictures being asked for before their drawing starts.
    super('PictureRunner', 'picture(s) being drawn');
    this.held = new HeldPower(power, this.logger);
  }

  /** Counts `work` (e.g. a picture being asked for, before its drawing starts) as running until it settles. */
  track(work: Promise<void>): Promise<void> {
    return this.jobs.track(work);
  }

  start(job: DrawJob): void {
    this.startSoon(() => this.run(job));
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

      // A failed settle leaves the hold to the ledger's repair; the user keeps the picture.
      const cost = holdId ? await this.held.settle(holdId, env.IMAGES_POINTS, () => this.storyRoyalty.royaltyRecipient(story)) : 0;
      await this.records.updatePending(job.pictureId, { status: 'ready', prompt, width, height, contentType: image.contentType, demo, cost, holdId: null });
    } catch (error) {
      const code = codeOf(error, deadline);
      this.logger.warn(`picture ${job.pictureId} of story ${job.storyId} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (holdId) await this.held.release(holdId);
      await this.records.updatePending(job.pictureId, { status: 'failed', errorCode: code, prompt, cost: 0, holdId: null }).catch(() => undefined);
    }
  }

  // The story's character sheet, written by its model the first time (consistent pictures).
  private async sheet(story: StoryForPictures, chosen: ChosenModel, passage: string, signal: AbortSignal): Promise<string> {
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
function passageOf(story: StoryForPictures, pictureId: string): string {
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
