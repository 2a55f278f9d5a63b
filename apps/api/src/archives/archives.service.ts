import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ErrorCode,
  type ArchiveEntry,
  type LoadArchiveData,
  type LoadArchiveDto,
  type SaveArchiveDto,
} from '@taleloom/contracts';
import { Model, Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { textSnippets, toSeconds } from '../stories/story-text';
import { pickState } from '../stories/story-view';
import { Story } from '../stories/story.schema';
import { archiveSlotId } from './archive-slot-id';
import { StoryArchive } from './story-archive.schema';

const ENTRY_PROJECTION = { story_id: 1, archive_index: 1, time: 1, current_word_count: 1, story_ending: 1 } as const;

/** Save slots 0..998 of a story and its public archive -1: list, save (overwrite) and load. */
@Injectable()
export class ArchivesService {
  constructor(
    @InjectModel(Story.name) private readonly stories: Model<Story>,
    @InjectModel(StoryArchive.name) private readonly archives: Model<StoryArchive>,
  ) {}

  /** The occupied slots of the caller's own story (someone else's story is not found). */
  async list(user: AuthUser, storyId: string): Promise<ArchiveEntry[]> {
    const story = await this.stories.findOne({ _id: toObjectId(storyId), userID: user.userID }, { _id: 1 }).lean().exec();
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    const rows = await this.archives.find({ story_id: story._id.toHexString() }, ENTRY_PROJECTION).lean().exec();
    return rows.map(toEntry).sort((a, b) => a.archive_index - b.archive_index);
  }

  /** Snapshots the story's full state into a slot, replacing what was there, in one upsert. */
  async save(user: AuthUser, dto: SaveArchiveDto): Promise<ArchiveEntry> {
    const story = await this.stories.findOne({ _id: toObjectId(dto.story_id), userID: user.userID }).lean().exec();
    if (!story) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    const storyId = story._id.toHexString();
    const saved = await this.archives
      .findOneAndUpdate(
        { _id: archiveSlotId(storyId, dto.archive_index) },
        {
          $set: {
            story_id: storyId,
            archive_index: dto.archive_index,
            time: toSeconds(new Date()),
            current_word_count: story.charCount ?? [...(story.main_text ?? '')].length,
            story_ending: story.lastLine ?? '',
            state: pickState(story),
          },
        },
        { upsert: true, new: true, projection: ENTRY_PROJECTION },
      )
      .lean()
      .exec();
    return toEntry(saved!);
  }

  /**
   * Restores the story from an archive, as a recovery point: the whole state comes back in one
   * conditional update of the caller's own story, marked `recovery_point` with the archive's id,
   * so opening it from the story list later plays on a clone and keeps the restored state.
   */
  async load(user: AuthUser, dto: LoadArchiveDto): Promise<LoadArchiveData> {
    const archive = await this.archives.findById(toObjectId(dto.archive_id, ErrorCode.ARCHIVE_NOT_FOUND)).lean().exec();
    if (!archive || !Types.ObjectId.isValid(archive.story_id)) throw new AppException(ErrorCode.ARCHIVE_NOT_FOUND);
    const state = pickState(archive.state);
    const text = state.main_text ?? '';
    const story = await this.stories
      .findOneAndUpdate(
        { _id: new Types.ObjectId(archive.story_id), userID: user.userID },
        {
          $set: {
            ...state,
            recovery_point: true,
            recovery_point_id: archive._id.toHexString(),
            ...textSnippets(text),
            time: new Date(),
          },
        },
        { new: true, projection: { _id: 1 } },
      )
      .lean()
      .exec();
    // Someone else's archive answers exactly like a missing one.
    if (!story) throw new AppException(ErrorCode.ARCHIVE_NOT_FOUND);
    return { story_id: archive.story_id, archive_index: archive.archive_index };
  }
}

function toEntry(row: Pick<StoryArchive, 'story_id' | 'archive_index' | 'time' | 'current_word_count' | 'story_ending'> & { _id: Types.ObjectId }): ArchiveEntry {
  return {
    _id: row._id.toHexString(),
    story_id: row.story_id,
    archive_index: row.archive_index,
    time: typeof row.time === 'number' ? row.time : toSeconds(row.time as unknown as string),
    current_word_count: row.current_word_count ?? 0,
    story_ending: row.story_ending ?? '',
  };
}

/** A malformed id is answered like an unknown one: 404, never a 500. */
function toObjectId(id: string, code: ErrorCode = ErrorCode.STORY_NOT_FOUND): Types.ObjectId {
  if (typeof id !== 'string' || !/^[0-9a-f]{24}$/i.test(id)) throw new AppException(code);
  return new Types.ObjectId(id);
}
