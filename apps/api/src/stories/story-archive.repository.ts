import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { archiveSlotId } from './archive-slot-id';
import { PUBLIC_ARCHIVE_INDEX, StoryArchive } from './story-archive.schema';
import type { StoryPictureRef } from './story-picture-ref.schema';

/** A slot as lists show it (no state). */
export type ArchiveEntryFields = Pick<StoryArchive, 'story_id' | 'archive_index' | 'time' | 'current_word_count' | 'story_ending'> & {
  _id: Types.ObjectId;
};

/** A stored snapshot, whole. */
export type ArchiveRecord = StoryArchive & { _id: Types.ObjectId };

const ENTRY_PROJECTION = { story_id: 1, archive_index: 1, time: 1, current_word_count: 1, story_ending: 1 } as const;

/**
 * The `story_archives` collection: save slots 0..998 of a story and its public version (slot -1,
 * what others read and clone). One document per slot, written by one upsert.
 */
@Injectable()
export class StoryArchiveRepository {
  constructor(@InjectModel(StoryArchive.name) private readonly archives: Model<StoryArchive>) {}

  entries(storyId: string): Promise<ArchiveEntryFields[]> {
    return this.archives.find({ story_id: storyId }, ENTRY_PROJECTION).lean<ArchiveEntryFields[]>().exec();
  }

  byId(id: Types.ObjectId): Promise<ArchiveRecord | null> {
    return this.archives.findById(id).lean<ArchiveRecord>().exec();
  }

  /** Writes slot `index` of a story, replacing what was there (one upsert on the slot's derived _id). */
  async save(storyId: string, index: number, fields: Omit<StoryArchive, 'story_id' | 'archive_index'>): Promise<ArchiveEntryFields> {
    const saved = await this.archives
      .findOneAndUpdate(
        { _id: archiveSlotId(storyId, index) },
        { $set: { story_id: storyId, archive_index: index, ...fields } },
        { upsert: true, new: true, projection: ENTRY_PROJECTION },
      )
      .lean<ArchiveEntryFields>()
      .exec();
    return saved!;
  }

  /** The public version (slot -1) of a story, written or replaced. */
  async savePublic(storyId: string, fields: Omit<StoryArchive, 'story_id' | 'archive_index'>): Promise<void> {
    await this.archives.updateOne({ story_id: storyId, archive_index: PUBLIC_ARCHIVE_INDEX }, { $set: fields }, { upsert: true }).exec();
  }

  async deletePublic(storyId: string): Promise<void> {
    await this.archives.deleteOne({ story_id: storyId, archive_index: PUBLIC_ARCHIVE_INDEX }).exec();
  }

  async hasPublic(storyId: string): Promise<boolean> {
    return Boolean(await this.archives.exists({ story_id: storyId, archive_index: PUBLIC_ARCHIVE_INDEX }).exec());
  }

  publicOf(storyId: string): Promise<ArchiveRecord | null> {
    return this.archives.findOne({ story_id: storyId, archive_index: PUBLIC_ARCHIVE_INDEX }).lean<ArchiveRecord>().exec();
  }

  /** The picture references of a story's public version (none when it has none). */
  async publicPictures(storyId: string): Promise<StoryPictureRef[]> {
    const snapshot = await this.archives.findOne({ story_id: storyId, archive_index: PUBLIC_ARCHIVE_INDEX }, { 'state.pictures': 1 }).lean().exec();
    return snapshot?.state?.pictures ?? [];
  }

  /** The stories whose public version references this picture (hex ids). */
  async storiesShowingPublicly(pictureId: string): Promise<string[]> {
    const snapshots = await this.archives.find({ archive_index: PUBLIC_ARCHIVE_INDEX, 'state.pictures.id': pictureId }, { story_id: 1 }).lean().exec();
    return snapshots.map((s) => s.story_id);
  }
}
