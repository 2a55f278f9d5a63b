import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  ErrorCode,
  type ArchiveEntry,
  type LoadArchiveData,
  type LoadArchiveDto,
  type SaveArchiveDto,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { toObjectId } from '../common/object-id';
import { TurnParking } from '../play/turn-parking.service';
import { StoryArchiveRepository, type ArchiveEntryFields } from '../stories/story-archive.repository';
import { StoryRepository } from '../stories/story.repository';
import { textSnippets, toSeconds } from '../stories/story-text';
import { pickState } from '../stories/story-view';
import { ArchiveLoaded, ArchiveSaved } from './archive.events';

/** Save slots 0..998 of a story and its public archive -1: list, save (overwrite) and load. */
@Injectable()
export class ArchivesService {
  constructor(
    private readonly stories: StoryRepository,
    private readonly archives: StoryArchiveRepository,
    private readonly events: EventEmitter2,
    private readonly parking: TurnParking,
  ) {}

  /** The occupied slots of the caller's own story (someone else's story is not found). */
  async list(user: AuthUser, storyId: string): Promise<ArchiveEntry[]> {
    if (!(await this.stories.isOwn(user.userID, storyId))) throw new AppException(ErrorCode.STORY_NOT_FOUND);
    const rows = await this.archives.entries(toObjectId(storyId).toHexString());
    return rows.map(toEntry).sort((a, b) => a.archive_index - b.archive_index);
  }

  /** Snapshots the story's full state into a slot, replacing what was there, in one upsert. */
  async save(user: AuthUser, dto: SaveArchiveDto): Promise<ArchiveEntry> {
    const story = await this.stories.own(user.userID, dto.story_id);
    const saved = await this.archives.save(story._id.toHexString(), dto.archive_index, {
      time: toSeconds(new Date()),
      current_word_count: story.charCount ?? [...(story.main_text ?? '')].length,
      story_ending: story.lastLine ?? '',
      state: pickState(story),
    });
    // What others keep beside the story (its lore) is saved into the slot too.
    await this.events.emitAsync(ArchiveSaved.event, new ArchiveSaved(story._id.toHexString(), dto.archive_index));
    return toEntry(saved);
  }

  /**
   * Restores the story from an archive, as a recovery point: the whole state comes back in one
   * conditional update of the caller's own story, marked `recovery_point` with the archive's id,
   * so opening it from the story list later plays on a clone and keeps the restored state.
   * The story's turn is held meanwhile: while a turn is being written (or a change of branch runs) the
   * load is refused (409 GENERATION_IN_PROGRESS / BRANCH_SWITCHING) instead of pulling the text from
   * under it.
   */
  async load(user: AuthUser, dto: LoadArchiveDto): Promise<LoadArchiveData> {
    const archive = await this.archives.byId(toObjectId(dto.archive_id, ErrorCode.ARCHIVE_NOT_FOUND));
    // Someone else's archive answers exactly like a missing one.
    if (!archive || !Types.ObjectId.isValid(archive.story_id) || !(await this.stories.isOwn(user.userID, archive.story_id))) {
      throw new AppException(ErrorCode.ARCHIVE_NOT_FOUND);
    }
    const state = pickState(archive.state);
    const text = state.main_text ?? '';
    const storyId = new Types.ObjectId(archive.story_id);
    const held = await this.parking.hold(storyId, user.userID);
    let restored: boolean;
    try {
      restored = await this.stories.restore(user.userID, storyId, {
        ...state,
        // Archives from before the story kept it: the summary's coverage is unknown, so nothing counts as covered.
        summarized_chars: state.summarized_chars ?? 0,
        recovery_point: true,
        recovery_point_id: archive._id.toHexString(),
        ...textSnippets(text),
        time: new Date(),
      });
    } finally {
      await this.parking.letGo(held).catch(() => undefined);
    }
    if (!restored) throw new AppException(ErrorCode.ARCHIVE_NOT_FOUND);
    await this.events.emitAsync(ArchiveLoaded.event, new ArchiveLoaded(archive.story_id, user.userID, archive.archive_index));
    return { story_id: archive.story_id, archive_index: archive.archive_index };
  }
}

function toEntry(row: ArchiveEntryFields): ArchiveEntry {
  return {
    _id: row._id.toHexString(),
    story_id: row.story_id,
    archive_index: row.archive_index,
    time: typeof row.time === 'number' ? row.time : toSeconds(row.time as unknown as string),
    current_word_count: row.current_word_count ?? 0,
    story_ending: row.story_ending ?? '',
  };
}
