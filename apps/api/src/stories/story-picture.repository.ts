import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ErrorCode, type PicSize, type PromptSwitch } from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import { toObjectId } from '../common/object-id';
import { playedBranchId, whilePlaying } from './played-branch';
import { StoryArchiveRepository } from './story-archive.repository';
import { StoryBranchRepository } from './story-branch.repository';
import type { StoryPictureRef } from './story-picture-ref.schema';
import { Story } from './story.schema';

/** What drawing reads of a story. */
export interface StoryForPictures {
  _id: Types.ObjectId;
  /** The branch being played (null: the original line): its passages are the ones illustrated. */
  branchId: string | null;
  userID: string;
  name: string;
  model_name: string;
  /** compatible_openai: model_name is one of the owner's custom models. */
  model_type: string;
  lineage: string[];
  main_text: string;
  prologue_and_characters: string;
  settings_camera_switch: boolean;
  settings_camera_consistency_switch: boolean;
  settings_camera_style_switch: PromptSwitch;
  settings_camera_style_prompt_text: string;
  settings_pic_size: PicSize;
  picture_character_sheet: string;
  pictures: StoryPictureRef[];
}

const FIELDS = {
  branchId: 1, userID: 1, name: 1, model_name: 1, model_type: 1, lineage: 1, main_text: 1, prologue_and_characters: 1, settings_camera_switch: 1,
  settings_camera_consistency_switch: 1, settings_camera_style_switch: 1, settings_camera_style_prompt_text: 1,
  settings_pic_size: 1, picture_character_sheet: 1, pictures: 1,
} as const;

/**
 * The pictures' reads and writes of stories: the references a story keeps to its pictures, its
 * character sheet, and who may read a picture (single-document updates only).
 */
@Injectable()
export class StoryPictureRepository {
  // Who is told when this process raises a story's revision without touching its text (see onTextKept).
  private readonly keptWatchers: ((id: string, from: number, to: number) => void)[] = [];

  constructor(
    @InjectModel(Story.name) private readonly stories: Model<Story>,
    private readonly archives: StoryArchiveRepository,
    private readonly branches: StoryBranchRepository,
  ) {}

  /**
   * `watch` is called each time this process moves a story from revision `from` to `to` (stateRev)
   * without changing its text (a picture's reference added or replaced): a text known at `from` is
   * the text at `to` (play's SendGuesses keeps it).
   */
  onTextKept(watch: (id: string, from: number, to: number) => void): void {
    this.keptWatchers.push(watch);
  }

  // A write raised the story's revision by one to `to` (as its update answered it), its text untouched.
  private textKept(id: Types.ObjectId, to: number | undefined): void {
    if (typeof to !== 'number') return;
    for (const watch of this.keptWatchers) watch(id.toHexString(), to - 1, to);
  }

  /** The caller's own story (without its text unless asked: the text can be long); anyone else's is not found. */
  async own(userID: string, id: string, withText = true): Promise<StoryForPictures> {
    const story = await this.find({ _id: toObjectId(id), userID }, withText);
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return story;
  }

  /** A story by id, whoever owns it (a drawing reads the story it was asked for); null when gone. */
  byId(id: string): Promise<StoryForPictures | null> {
    return this.find({ _id: toObjectId(id) });
  }

  /** The picture references the caller may see: their own story's, or the public version of someone else's. */
  async readableRefs(userID: string, id: string): Promise<StoryPictureRef[]> {
    const story = await this.stories.findById(toObjectId(id), { userID: 1, permission: 1, pictures: 1 }).lean().exec();
    if (story && story.userID === userID) return story.pictures ?? [];
    if (story?.permission !== '1') throw new AppException(ErrorCode.STORY_NOT_FOUND);
    return this.archives.publicPictures(story._id.toHexString());
  }

  /**
   * Whether the caller may read the picture: a story of theirs (the branch it plays, or another of its
   * branches), or a public story's public version, references it.
   */
  async canRead(userID: string, pictureId: string): Promise<boolean> {
    if (await this.stories.exists({ userID, 'pictures.id': pictureId }).exec()) return true;
    if (await this.branches.referencesPicture(userID, pictureId)) return true;
    const shown = await this.archives.storiesShowingPublicly(pictureId);
    const ids = shown.filter((id) => Types.ObjectId.isValid(id)).map((id) => new Types.ObjectId(id));
    if (ids.length === 0) return false;
    return Boolean(await this.stories.exists({ _id: { $in: ids }, permission: '1' }).exec());
  }

  /**
   * Adds a picture to the story while it plays the branch whose passage it shows (read with the story:
   * `story.branchId`); BRANCH_CHANGED when the story switched branches in between.
   */
  async pushRef(userID: string, story: Pick<StoryForPictures, '_id' | 'branchId'>, ref: StoryPictureRef): Promise<void> {
    const after = await this.stories
      .findOneAndUpdate(
        { _id: story._id, userID, ...whilePlaying(story._id, playedBranchId(story)) },
        { $push: { pictures: ref }, $inc: { stateRev: 1 } },
        { new: true, projection: { stateRev: 1 } },
      )
      .lean<{ stateRev?: number }>()
      .exec();
    if (!after) await this.notOnBranch(userID, story._id);
    this.textKept(story._id, after?.stateRev);
  }

  /**
   * Points the story's reference `oldId` at a new drawing. The element is addressed by its position,
   * guarded by its id, and looked up again if the list moved in between.
   */
  async replaceRef(userID: string, read: Pick<StoryForPictures, '_id' | 'branchId'>, oldId: string, ref: StoryPictureRef): Promise<void> {
    const onBranch = whilePlaying(read._id, playedBranchId(read));
    for (let attempt = 0; attempt < 5; attempt++) {
      const story = await this.stories.findOne({ _id: read._id, userID, ...onBranch }, { pictures: 1 }).lean().exec();
      if (!story) return this.notOnBranch(userID, read._id);
      const at = (story.pictures ?? []).findIndex((p) => p.id === oldId);
      if (at < 0) throw new AppException(ErrorCode.PICTURE_NOT_FOUND);
      const after = await this.stories
        .findOneAndUpdate(
          { _id: story._id, userID, [`pictures.${at}.id`]: oldId, ...onBranch },
          { $set: { [`pictures.${at}`]: ref }, $inc: { stateRev: 1 } },
          { new: true, projection: { stateRev: 1 } },
        )
        .lean<{ stateRev?: number }>()
        .exec();
      if (after) return this.textKept(story._id, after.stateRev);
    }
    throw new AppException(ErrorCode.PICTURE_IN_PROGRESS);
  }

  // A write matched nothing: the story is gone (or not theirs), or it plays another branch now.
  private async notOnBranch(userID: string, storyId: Types.ObjectId): Promise<never> {
    const exists = await this.stories.exists({ _id: storyId, userID }).exec();
    throw new AppException(exists ? ErrorCode.BRANCH_CHANGED : ErrorCode.STORY_NOT_FOUND);
  }

  /** Stores the first character sheet of a story (an existing one wins); answers the sheet in force. */
  async keepSheet(storyId: Types.ObjectId, sheet: string): Promise<string> {
    await this.stories.updateOne({ _id: storyId, picture_character_sheet: { $in: ['', null] } }, { $set: { picture_character_sheet: sheet } }).exec();
    const story = await this.stories.findById(storyId, { picture_character_sheet: 1 }).lean().exec();
    return story?.picture_character_sheet || sheet;
  }

  private async find(filter: object, withText = true): Promise<StoryForPictures | null> {
    const { main_text: _text, ...withoutText } = FIELDS;
    const s = (await this.stories.findOne(filter, withText ? FIELDS : withoutText).lean().exec()) as Partial<StoryForPictures> | null;
    if (!s) return null;
    return {
      ...(s as StoryForPictures),
      branchId: s.branchId ?? null,
      name: s.name ?? '',
      model_name: s.model_name ?? '',
      lineage: s.lineage ?? [],
      main_text: s.main_text ?? '',
      prologue_and_characters: s.prologue_and_characters ?? '',
      settings_camera_switch: s.settings_camera_switch ?? true,
      settings_camera_consistency_switch: Boolean(s.settings_camera_consistency_switch),
      settings_camera_style_switch: s.settings_camera_style_switch ?? 'default',
      settings_camera_style_prompt_text: s.settings_camera_style_prompt_text ?? '',
      settings_pic_size: s.settings_pic_size ?? '512*512',
      picture_character_sheet: s.picture_character_sheet ?? '',
      pictures: s.pictures ?? [],
    };
  }
}
