import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  PICTURE_EXCERPT_CHARS,
  PICTURES_PENDING_MAX,
  PICTURES_PER_STORY_MAX,
  PowerReason,
  placePictures,
  type PicturesData,
  type RequestPictureDto,
  type StoryPicture,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PowerService } from '../power/power.service';
import { ImageGenerator } from './image-generator';
import { playedBranchId } from '../stories/played-branch';
import { StoryPictureRepository, type StoryForPictures } from '../stories/story-picture.repository';
import type { StoryPictureRef } from '../stories/story-picture-ref.schema';
import { PictureFileRepository, type PictureFile } from './picture-file.repository';
import { isDrawing, pictureStaleMs, toPictureView } from './picture-view';
import { PictureRepository } from './picture.repository';
import { PictureRunner } from './picture.runner';

/** A passage to illustrate: from..to in the story's text `text`. */
interface Passage {
  from: number;
  to: number;
  text: string;
}

/** A ready picture of a story with its file, for exports. */
export interface ExportPicture {
  from: number;
  to: number;
  excerpt: string;
  prompt: string;
  width: number;
  height: number;
  demo: boolean;
  file: PictureFile;
}

/**
 * Story pictures: after an accepted AI passage (camera on) and on demand, a picture of the passage
 * is drawn in the background (see PictureRunner); the story references it, so archives and clones
 * keep it. Files are served only to those who may read a story that references them.
 */
@Injectable()
export class PicturesService {
  private readonly logger = new Logger('PicturesService');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly generator: ImageGenerator,
    private readonly power: PowerService,
    private readonly records: PictureRepository,
    private readonly runner: PictureRunner,
    private readonly stories: StoryPictureRepository,
    private readonly store: PictureFileRepository,
  ) {}

  private get staleBefore(): number {
    return Date.now() - pictureStaleMs(this.config.env);
  }

  /** The pictures of a story the caller may read, and what the server draws with. */
  async list(user: AuthUser, storyId: string): Promise<PicturesData> {
    const refs = await this.stories.readableRefs(user.userID, storyId);
    return { pictures: await this.views(refs), generator: this.generator.info };
  }

  /**
   * Draws the passage `from`..`to` of the caller's story (or redraws the picture already there).
   * The price is held first (402 NOT_ENOUGH_POWER before anything starts).
   */
  async request(user: AuthUser, storyId: string, dto: RequestPictureDto): Promise<StoryPicture> {
    this.generator.assertAvailable();
    const story = await this.stories.own(user.userID, storyId);
    if (!story.settings_camera_switch) throw new AppException(ErrorCode.PICTURES_OFF);
    const text = story.main_text;
    if (dto.from >= dto.to || dto.to > text.length || !text.slice(dto.from, dto.to).trim()) {
      throw new AppException(ErrorCode.PICTURE_PASSAGE_EMPTY);
    }
    const existing = placePictures(text, story.pictures).find((p) => p.from === dto.from && p.to === dto.to)?.picture ?? null;
    return this.draw(user.userID, story, { from: dto.from, to: dto.to, text }, existing);
  }

  /** Draws the picture again (a failed one, or a new version of a ready one). */
  async retry(user: AuthUser, storyId: string, pictureId: string): Promise<StoryPicture> {
    this.generator.assertAvailable();
    const story = await this.stories.own(user.userID, storyId);
    if (!story.settings_camera_switch) throw new AppException(ErrorCode.PICTURES_OFF);
    const ref = story.pictures.find((p) => p.id === pictureId);
    if (!ref) throw new AppException(ErrorCode.PICTURE_NOT_FOUND);
    const [placed] = placePictures(story.main_text, [ref]);
    if (!story.main_text.slice(placed.from, placed.to).trim()) throw new AppException(ErrorCode.PICTURE_PASSAGE_EMPTY);
    return this.draw(user.userID, story, { from: placed.from, to: placed.to, text: story.main_text }, ref);
  }

  /**
   * Called by play after a turn was accepted: with the camera on, the appended passage (the end of
   * `text`) gets a picture. Never throws: a picture must not fail the turn. The price is held by the
   * drawing; without enough power the picture is recorded failed with NOT_ENOUGH_POWER.
   */
  illustrateAccepted(userID: string, storyId: string, branchId: string, text: string, appended: string): Promise<void> {
    // Tracked by the runner from here: a send that does not wait for it is still covered by drain and shutdown.
    return this.runner.track(this.illustrate(userID, storyId, branchId, text, appended));
  }

  private async illustrate(userID: string, storyId: string, branchId: string, text: string, appended: string): Promise<void> {
    try {
      if (!this.generator.info.available || !appended.trim()) return;
      const story = await this.stories.own(userID, storyId, false);
      // The story plays another branch by now: the passage is not in its text.
      if (!story.settings_camera_switch || playedBranchId(story) !== branchId) return;
      const to = text.length;
      const from = to - appended.length + (appended.startsWith('\n') ? 1 : 0);
      if (story.pictures.length >= PICTURES_PER_STORY_MAX || (await this.drawingCount(story)) >= PICTURES_PENDING_MAX) return;
      await this.start(userID, story, { from, to, text }, null, null);
    } catch (error) {
      this.logger.warn(`illustrating story ${storyId} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The picture file, for a caller who may read a story that references it; else PICTURE_NOT_FOUND. */
  async file(user: AuthUser, pictureId: string): Promise<PictureFile> {
    if (!Types.ObjectId.isValid(pictureId) || !(await this.stories.canRead(user.userID, pictureId))) {
      throw new AppException(ErrorCode.PICTURE_NOT_FOUND);
    }
    const file = await this.store.get(pictureId);
    if (!file) throw new AppException(ErrorCode.PICTURE_NOT_FOUND);
    return file;
  }

  /** The ready pictures of a story the caller may read, with their files (html and docx exports). */
  async forExport(user: AuthUser, storyId: string): Promise<ExportPicture[]> {
    const refs = await this.stories.readableRefs(user.userID, storyId);
    const docs = await this.records.findMany(refs.map((r) => r.id));
    const out: ExportPicture[] = [];
    for (const ref of refs) {
      const doc = docs.get(ref.id);
      if (doc?.status !== 'ready') continue;
      const file = await this.store.get(ref.id);
      if (!file) continue;
      const view = toPictureView(ref, doc, this.staleBefore);
      out.push({ from: ref.from, to: ref.to, excerpt: ref.excerpt, prompt: view.prompt, width: view.width, height: view.height, demo: view.demo, file });
    }
    return out;
  }

  private async draw(userID: string, story: StoryForPictures, range: Passage, existing: StoryPictureRef | null): Promise<StoryPicture> {
    if (existing) {
      const current = await this.records.findOne(existing.id);
      if (current && isDrawing(current, this.staleBefore)) throw new AppException(ErrorCode.PICTURE_IN_PROGRESS);
      // A drawing whose instance stopped gives its payer's power back (the ledger's repair would, later).
      if (current?.status === 'pending' && current.holdId && current.userID === userID) {
        await this.power.release(current.holdId).catch(() => undefined);
      }
    } else if (story.pictures.length >= PICTURES_PER_STORY_MAX) {
      throw new AppException(ErrorCode.PICTURE_LIMIT);
    }
    if ((await this.drawingCount(story)) >= PICTURES_PENDING_MAX) throw new AppException(ErrorCode.PICTURE_IN_PROGRESS);
    const pictureId = new Types.ObjectId().toHexString();
    const points = this.config.env.IMAGES_POINTS;
    const holdId = points > 0
      ? await this.power.hold(userID, points, `picture:${pictureId}`, { reason: PowerReason.STORY, storyID: story._id.toHexString(), storyName: story.name })
      : null;
    try {
      return await this.start(userID, story, range, existing, { pictureId, holdId });
    } catch (error) {
      if (holdId) await this.power.release(holdId).catch(() => undefined);
      throw error;
    }
  }

  // Records a pending drawing, points the story at it and starts it.
  private async start(
    userID: string,
    story: StoryForPictures,
    range: Passage,
    replaces: StoryPictureRef | null,
    held: { pictureId: string; holdId: string | null } | null,
  ): Promise<StoryPicture> {
    const pictureId = held?.pictureId ?? new Types.ObjectId().toHexString();
    const storyId = story._id.toHexString();
    const now = Date.now();
    const size = story.settings_pic_size;
    const picture = {
      _id: new Types.ObjectId(pictureId), storyId, userID, status: 'pending' as const, size, prompt: '', width: 0, height: 0,
      contentType: '', demo: this.generator.info.demo, errorCode: null, cost: 0, holdId: held?.holdId ?? null,
      createdAt: now, startedAt: now, updatedAt: now,
    };
    const ref: StoryPictureRef = {
      id: pictureId, from: range.from, to: range.to, size,
      excerpt: range.text.slice(Math.max(range.from, range.to - PICTURE_EXCERPT_CHARS), range.to),
    };
    await this.records.insert(picture);
    try {
      if (replaces) await this.stories.replaceRef(userID, story, replaces.id, ref);
      else await this.stories.pushRef(userID, story, ref);
    } catch (error) {
      // Not referenced by the story (it switched branches meanwhile): the drawing never starts.
      const code = error instanceof AppException ? error.code : ErrorCode.INTERNAL_ERROR;
      await this.records.updatePending(pictureId, { status: 'failed', errorCode: code }).catch(() => undefined);
      throw error;
    }
    this.runner.start({ pictureId, storyId, userID, holdId: held?.holdId ?? null });
    return toPictureView(ref, picture, this.staleBefore);
  }

  private drawingCount(story: StoryForPictures): Promise<number> {
    return this.records.countDrawing(story._id.toHexString(), this.staleBefore);
  }

  private async views(refs: readonly StoryPictureRef[]): Promise<StoryPicture[]> {
    const docs = await this.records.findMany(refs.map((r) => r.id));
    const before = this.staleBefore;
    return refs.map((ref) => toPictureView(ref, docs.get(ref.id) ?? null, before));
  }
}
